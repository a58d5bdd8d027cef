import { serverStatusLabels } from '@hp/contract';
import { cn } from '../../../lib/cn.ts';

const tones: Record<string, string> = {
  online: 'bg-green-100 text-green-800 ring-green-600/20',
  offline: 'bg-red-100 text-red-800 ring-red-600/20',
  maintenance: 'bg-amber-100 text-amber-900 ring-amber-600/30',
  failed: 'bg-red-100 text-red-800 ring-red-600/20',
};

export function ServerStatusBadge({ status }: { status: string }) {
  const tone = tones[status] ?? 'bg-blue-100 text-blue-800 ring-blue-600/20';
  const busy = !(status in tones);
  return (
    <span className={cn('inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset', tone)}>
      <span className={cn('size-1.5 rounded-full bg-current', busy && 'animate-pulse')} aria-hidden="true" />
      {serverStatusLabels[status] ?? status}
    </span>
  );
}
