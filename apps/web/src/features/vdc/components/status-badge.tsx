import { serverStatusLabels, VDC_STATUS_LABEL, type VdcStatus } from '@hp/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { cn } from '../../../lib/cn.ts';

const vdcTone: Record<VdcStatus, BadgeTone> = { provisioning: 'info', active: 'success', suspended: 'warning', failed: 'danger' };

export function VdcStatusBadge({ status }: { status: VdcStatus }) {
  return (
    <Badge tone={vdcTone[status]}>
      <span className={cn('size-1.5 rounded-full bg-current', status === 'provisioning' && 'animate-pulse')} aria-hidden="true" />
      {VDC_STATUS_LABEL[status]}
    </Badge>
  );
}

const vmTone: Record<string, BadgeTone> = { online: 'success', offline: 'neutral', failed: 'danger', maintenance: 'warning' };
const settling = new Set(['provisioning', 'install', 'reinstall', 'restart', 'starting', 'stopping']);

/** A VM's state with the root server's labels (it is a server row). */
export function VmStatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={vmTone[status] ?? 'info'}>
      <span className={cn('size-1.5 rounded-full bg-current', settling.has(status) && 'animate-pulse')} aria-hidden="true" />
      {serverStatusLabels[status] ?? status}
    </Badge>
  );
}
