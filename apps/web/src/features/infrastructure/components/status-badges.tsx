import { adminServerStatusLabels, nodeStatusLabels, type AdminServerStatusValue, type NodeStatusValue } from '@hp/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';

const nodeTones: Record<NodeStatusValue, BadgeTone> = { online: 'success', offline: 'danger', maintenance: 'warning', unknown: 'neutral' };

export function NodeStatusBadge({ status }: { status: NodeStatusValue }) {
  return <Badge tone={nodeTones[status]}>{nodeStatusLabels[status]}</Badge>;
}

const serverTones: Record<AdminServerStatusValue, BadgeTone> = {
  online: 'success',
  offline: 'neutral',
  maintenance: 'warning',
  provisioning: 'info',
  restart: 'info',
  reinstall: 'info',
  install: 'info',
  starting: 'info',
  stopping: 'info',
  failed: 'danger',
};

export function ServerStatusBadge({ status, title }: { status: AdminServerStatusValue; title?: string }) {
  return (
    <Badge tone={serverTones[status]} title={title}>
      {status === 'provisioning' && <span className="size-2 animate-pulse rounded-full bg-current" aria-hidden="true" />}
      {adminServerStatusLabels[status]}
    </Badge>
  );
}

export function IpUseBadge({ inUse }: { inUse: boolean }) {
  return <Badge tone={inUse ? 'warning' : 'success'}>{inUse ? 'In Verwendung' : 'Verfügbar'}</Badge>;
}
