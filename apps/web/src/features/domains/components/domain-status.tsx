import type { ReactNode } from 'react';
import { DOMAIN_STATUS_LABEL, type DomainStatus } from '@hp/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { cn } from '../../../lib/cn.ts';

export const berlinDate = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' });

const tone: Record<DomainStatus, BadgeTone> = { registering: 'info', transferring: 'info', active: 'success', expired: 'warning', failed: 'danger' };

export function DomainStatusBadge({ status }: { status: DomainStatus }) {
  const busy = status === 'registering' || status === 'transferring';
  return <Badge tone={tone[status]}><span className={cn('size-1.5 rounded-full bg-current', busy && 'animate-pulse')} aria-hidden="true" />{DOMAIN_STATUS_LABEL[status]}</Badge>;
}

/** A radio choice as a card (the input inside, visually hidden). */
export function Choice({ checked, title, text, children }: { checked: boolean; title: string; text: string; children: ReactNode }) {
  return (
    <label className={cn('flex cursor-pointer flex-col rounded-xl border-2 p-4 focus-within:ring-2 focus-within:ring-brand-300', checked ? 'border-brand-600 bg-brand-50' : 'border-slate-200 bg-white hover:border-slate-300')}>
      {children}
      <span className="font-semibold text-slate-900">{title}</span>
      <span className="mt-1 break-words text-sm text-slate-600">{text}</span>
    </label>
  );
}
