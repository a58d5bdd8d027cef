import { orderStatusLabels, type InvoiceCard, type OrderStatus } from '@hp/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';

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

export function PaidBadge({ paid }: { paid: boolean }) {
  return <Badge tone={paid ? 'success' : 'warning'}>{paid ? 'Bezahlt' : 'Offen'}</Badge>;
}
