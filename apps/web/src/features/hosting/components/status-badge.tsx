import { HOSTING_STATUS_LABEL, SSL_LABEL, type HostingStatus } from '@hp/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { cn } from '../../../lib/cn.ts';
import { APP_STATE_LABEL } from './format.ts';

const statusTone: Record<HostingStatus, BadgeTone> = { provisioning: 'info', active: 'success', suspended: 'warning', failed: 'danger' };

function Dot({ busy }: { busy?: boolean }) {
  return <span className={cn('size-1.5 rounded-full bg-current', busy && 'animate-pulse')} aria-hidden="true" />;
}

export function HostingStatusBadge({ status }: { status: HostingStatus }) {
  return <Badge tone={statusTone[status]}><Dot busy={status === 'provisioning'} />{HOSTING_STATUS_LABEL[status]}</Badge>;
}

const sslTone: Record<keyof typeof SSL_LABEL, BadgeTone> = { none: 'neutral', pending: 'info', active: 'success', failed: 'danger' };
export function SslBadge({ ssl }: { ssl: keyof typeof SSL_LABEL }) {
  return <Badge tone={sslTone[ssl]}><Dot busy={ssl === 'pending'} />{SSL_LABEL[ssl]}</Badge>;
}

const appTone: Record<keyof typeof APP_STATE_LABEL, BadgeTone> = { installing: 'info', installed: 'success', updating: 'info', failed: 'danger' };
export function AppStateBadge({ state }: { state: keyof typeof APP_STATE_LABEL }) {
  return <Badge tone={appTone[state]}><Dot busy={state === 'installing' || state === 'updating'} />{APP_STATE_LABEL[state]}</Badge>;
}

/** A pending change of the panel: it applies it within about a minute. */
export function PendingBadge({ label = 'Änderung wird übernommen …' }: { label?: string }) {
  return <Badge tone="info"><Dot busy />{label}</Badge>;
}
