import { INVOICE_STATE_LABEL, orderStatusLabels, type InvoiceCard, type InvoiceState, type OrderStatus } from '@hp/contract';
import { Badge, type BadgeTone } from '../ui/badge.tsx';

const orderTones: Record<OrderStatus, BadgeTone> = {
  pending: 'warning',
  processing: 'info',
  completed: 'success',
  cancelled: 'neutral',
  refunded: 'neutral',
  failed: 'danger',
};

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return (
    <Badge tone={orderTones[status]}>
      {status === 'processing' && <span className="size-2 animate-pulse rounded-full bg-current" aria-hidden="true" />}
      {orderStatusLabels[status]}
    </Badge>
  );
}

export const invoiceKindLabels: Record<InvoiceCard['kind'], string> = { invoice: 'Rechnung', credit_note: 'Gutschrift' };

export function InvoiceKindBadge({ kind }: { kind: InvoiceCard['kind'] }) {
  return <Badge tone={kind === 'invoice' ? 'info' : 'warning'}>{invoiceKindLabels[kind]}</Badge>;
}

const stateTones: Record<InvoiceState, BadgeTone> = { paid: 'success', open: 'warning', overdue: 'danger', credited: 'neutral' };

/** Payment state of an invoice (credit notes have none and show nothing). */
export function InvoiceStateBadge({ state }: { state: InvoiceState | null }) {
  return state ? <Badge tone={stateTones[state]}>{INVOICE_STATE_LABEL[state]}</Badge> : null;
}
