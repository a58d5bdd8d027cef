import { CircleCheck, OctagonAlert, TriangleAlert } from 'lucide-react';
import {
  incidentSeverityLabels,
  incidentStatusLabel,
  maintenanceStatusLabels,
  overallStatusLabels,
  serviceStatusLabels,
  type IncidentSeverity,
  type MaintenanceStatus,
  type ServiceStatus,
} from '@hp/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';

const serviceTones: Record<ServiceStatus, BadgeTone> = { operational: 'success', partial_outage: 'warning', major_outage: 'danger' };
const serviceIcons = { operational: CircleCheck, partial_outage: TriangleAlert, major_outage: OctagonAlert };
const incidentTones: Record<string, BadgeTone> = { investigating: 'danger', identified: 'warning', monitoring: 'info', resolved: 'success' };
const severityTones: Record<IncidentSeverity, BadgeTone> = { minor: 'neutral', major: 'warning', critical: 'danger' };
const maintenanceTones: Record<MaintenanceStatus, BadgeTone> = { scheduled: 'info', in_progress: 'warning', completed: 'success' };

export function ServiceStatusBadge({ status }: { status: ServiceStatus }) {
  const Icon = serviceIcons[status];
  return (
    <Badge tone={serviceTones[status]}>
      <Icon className="size-3.5" aria-hidden="true" />
      {serviceStatusLabels[status]}
    </Badge>
  );
}

/** The overall status in the banner's words ('Alle Systeme betriebsbereit' …). */
export function OverallStatusBadge({ status }: { status: ServiceStatus }) {
  const Icon = serviceIcons[status];
  return (
    <Badge tone={serviceTones[status]}>
      <Icon className="size-3.5" aria-hidden="true" />
      {overallStatusLabels[status]}
    </Badge>
  );
}

export function IncidentStatusBadge({ status }: { status: string }) {
  return <Badge tone={incidentTones[status] ?? 'neutral'}>{incidentStatusLabel(status)}</Badge>;
}

export function SeverityBadge({ severity }: { severity: IncidentSeverity }) {
  return <Badge tone={severityTones[severity]}>Schweregrad: {incidentSeverityLabels[severity]}</Badge>;
}

export function MaintenanceStatusBadge({ status }: { status: MaintenanceStatus }) {
  return <Badge tone={maintenanceTones[status]}>{maintenanceStatusLabels[status]}</Badge>;
}
