import { STORAGE_STATUS_LABEL, type StorageStatus } from '@hp/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { cn } from '../../../lib/cn.ts';

const tone: Record<StorageStatus, BadgeTone> = { provisioning: 'info', active: 'success', suspended: 'warning', failed: 'danger' };

export function StorageStatusBadge({ status }: { status: StorageStatus }) {
  return (
    <Badge tone={tone[status]}>
      <span className={cn('size-1.5 rounded-full bg-current', status === 'provisioning' && 'animate-pulse')} aria-hidden="true" />
      {STORAGE_STATUS_LABEL[status]}
    </Badge>
  );
}
