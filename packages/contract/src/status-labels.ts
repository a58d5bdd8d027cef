/**
 * Status values, German labels and the overall-status rule, free of zod so that the public status
 * page can use them without loading the schema library.
 */
export const serviceStatuses = ['operational', 'partial_outage', 'major_outage'] as const;
export const incidentStatuses = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export const incidentSeverities = ['minor', 'major', 'critical'] as const;
export const maintenanceStatuses = ['scheduled', 'in_progress', 'completed'] as const;

type ServiceStatus = (typeof serviceStatuses)[number];
type IncidentStatus = (typeof incidentStatuses)[number];
type IncidentSeverity = (typeof incidentSeverities)[number];
type MaintenanceStatus = (typeof maintenanceStatuses)[number];

export const serviceStatusLabels: Record<ServiceStatus, string> = {
  operational: 'Betriebsbereit',
  partial_outage: 'Teilweise Störung',
  major_outage: 'Schwere Störung',
};
/** Text of the overall banner. */
export const overallStatusLabels: Record<ServiceStatus, string> = {
  operational: 'Alle Systeme betriebsbereit',
  partial_outage: 'Teilweise Störungen',
  major_outage: 'Schwere Störung',
};
export const incidentStatusLabels: Record<IncidentStatus, string> = {
  investigating: 'Untersuchung',
  identified: 'Identifiziert',
  monitoring: 'Beobachtung',
  resolved: 'Behoben',
};
/** Spec §4: an unknown incident status shows 'Unbekannt'. */
export const incidentStatusLabel = (status: string) => (incidentStatusLabels as Record<string, string>)[status] ?? 'Unbekannt';
export const incidentSeverityLabels: Record<IncidentSeverity, string> = { minor: 'Gering', major: 'Mittel', critical: 'Kritisch' };
export const maintenanceStatusLabels: Record<MaintenanceStatus, string> = {
  scheduled: 'Geplant',
  in_progress: 'In Bearbeitung',
  completed: 'Abgeschlossen',
};

/** Spec §4: any major outage wins, then any partial outage, otherwise operational. */
export function deriveOverallStatus(services: readonly { status: ServiceStatus }[]): ServiceStatus {
  if (services.some((s) => s.status === 'major_outage')) return 'major_outage';
  if (services.some((s) => s.status === 'partial_outage')) return 'partial_outage';
  return 'operational';
}

