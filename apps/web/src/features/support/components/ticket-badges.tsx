import { ticketStatusLabels, ticketTypeLabels, type TicketStatus, type TicketType } from '@hp/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';

const statusTone: Record<TicketStatus, BadgeTone> = { open: 'warning', in_progress: 'info', closed: 'neutral' };

export function TicketStatusBadge({ status }: { status: TicketStatus }) {
  return <Badge tone={statusTone[status]}>{ticketStatusLabels[status]}</Badge>;
}

export function TicketTypeBadge({ type }: { type: TicketType }) {
  return <Badge tone="neutral">{ticketTypeLabels[type]}</Badge>;
}

const dateTime = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short' });
const date = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium' });
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
export const formatDate = (iso: string) => date.format(new Date(iso));

/** "seit 2 Std." — the time since the customer's oldest unanswered message. */
export function formatWaiting(since: string | null, now = Date.now()): string {
  if (!since) return '–';
  const minutes = Math.max(0, Math.round((now - new Date(since).getTime()) / 60_000));
  if (minutes < 60) return `${minutes} Min.`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} Std.`;
  return `${Math.floor(hours / 24)} Tage`;
}
