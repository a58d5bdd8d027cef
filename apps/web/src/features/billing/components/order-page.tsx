import { Link, useParams } from 'react-router';
import { ArrowLeft, FileText, RefreshCw, SearchX } from 'lucide-react';
import { billingPeriodLabel, formatDayMonthYear, formatEuro, type OrderDetail } from '@hp/contract';
import { PageMeta } from '../../../components/page-meta.tsx';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { DataTable, type Column } from '../../../components/ui/table.tsx';
import { useOrder } from '../api/orders.ts';
import { OrderStatusBadge } from '../../../components/billing/billing-badges.tsx';
import { InvoiceDownloads } from '../../../components/billing/invoice-downloads.tsx';
import { vatLineLabel } from '../../../components/billing/tax-price.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { cn } from '../../../lib/cn.ts';
import { paths } from '../../../config/paths.ts';
import { useProductView, type OrderLine } from '../../../lib/product-views.tsx';

const backLink = 'inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-2 hover:underline';

/** Portal spec "Orders" → order detail: the product's own part ('Server Details' for a root server), prices per month plus the whole term. */
export default function OrderDetailPage() {
  const { orderId = '' } = useParams();
  const order = useOrder(orderId);

  return (
    <div className="mx-auto max-w-4xl">
      <Link to={paths.dashboard.orders} className={backLink}><ArrowLeft className="size-4" aria-hidden="true" /> Alle Bestellungen</Link>
      {order.isPending && <div className="mt-8"><Spinner label="Lade Bestellung …" /></div>}
      {order.isError && (order.error instanceof ApiRequestError && (order.error.status === 404 || order.error.status === 400) ? (
        <Card className="mt-6 flex flex-col items-center gap-3 p-10 text-center">
          <PageMeta title="Bestellung nicht gefunden" />
          <SearchX className="size-10 text-slate-400" aria-hidden="true" />
          <h1 className="text-xl font-semibold text-slate-900">Bestellung nicht gefunden</h1>
          <p className="text-slate-600">Diese Bestellung gibt es nicht oder sie gehört nicht zu Ihrem Konto.</p>
          <Link to={paths.dashboard.orders} className={buttonClass('primary', 'sm')}>Zu den Bestellungen</Link>
        </Card>
      ) : (
        <Alert tone="error" className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <PageMeta title="Bestellung" />
          <span>Die Bestellung konnte nicht geladen werden. {order.error.message}</span>
          <Button variant="outline" size="sm" onClick={() => order.refetch()} loading={order.isFetching}>
            <RefreshCw className="size-4" aria-hidden="true" /> Erneut versuchen
          </Button>
        </Alert>
      ))}
      {order.data && <OrderView order={order.data} />}
    </div>
  );
}

function OrderView({ order }: { order: OrderDetail }) {
  const perMonth = order.perMonth;
  const vatLabel = vatLineLabel(order.tax);
  // Without VAT the total is no gross amount; the VAT line above says why.
  const totalLabel = order.tax.category === 'S' ? 'Gesamt (brutto)' : 'Gesamt';
  const view = useProductView(order.productKind);
  const open = view.openPath(order);
  // The product's own part of the page (decision 035): its lines, heading and caption.
  const summary = view.orderSummary(order);
  return (
    <>
      <PageMeta title={`Bestellung ${order.number}`} />
      <div className="mt-4 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Bestellung {order.number}</h1>
          <p className="mt-1 text-slate-700">{order.product} · bestellt am {formatDayMonthYear(order.date)}{order.kind === 'upgrade' ? ' · Verlängerung/Upgrade' : ''}</p>
        </div>
        <OrderStatusBadge status={order.status} />
      </div>

      <Card className="mt-6 overflow-hidden">
        <h2 className="border-b border-slate-200 px-4 py-4 text-lg font-semibold text-slate-900 sm:px-5">{summary?.title ?? 'Details'}</h2>
        {summary && (
          <DataTable
            caption={summary.caption}
            framed={false}
            columns={lineColumns(summary.priceHeader)}
            rowKey={(line) => line.label}
            rows={summary.lines}
          />
        )}
        <dl className="space-y-2 border-t border-slate-200 bg-slate-50/60 px-4 pb-2 pt-4 text-sm sm:px-5">
          <Row label="Abrechnungsintervall" value={billingPeriodLabel(order.months)} />
          <Row label="Nächste Abrechnung" value={order.nextBillingDate ? formatDayMonthYear(order.nextBillingDate) : "keine (nicht ausgeführt)"} />
          <Row label="Nettobetrag pro Monat" value={formatEuro(perMonth.netCents)} amount className="mt-3 border-t border-slate-200 pt-3" />
          <Row label={vatLineLabel(order.tax, ' pro Monat')} value={formatEuro(perMonth.vatCents)} amount />
          <Row label={order.tax.category === 'S' ? 'Bruttobetrag pro Monat' : 'Gesamt pro Monat'} value={formatEuro(perMonth.grossCents)} amount strong />
        </dl>
        <p className="bg-slate-50/60 px-4 pb-4 text-xs text-slate-600 sm:px-5">Die Positionen sind Nettopreise pro Monat einschließlich Laufzeitrabatt; Summen können durch Rundung um wenige Cent abweichen.</p>
      </Card>

      <div className="mt-6 grid gap-6 md:grid-cols-2">
        <Card className="p-5">
          <h2 className="text-lg font-semibold text-slate-900">Gesamtbetrag</h2>
          <p className="mt-1 text-sm text-slate-600">Für die gesamte Laufzeit von {order.months} {order.months === 1 ? 'Monat' : 'Monaten'}, im Voraus bezahlt.</p>
          <dl className="mt-4 space-y-2 text-sm">
            {order.discountPercent > 0 && <Row label="Laufzeitrabatt" value={`${order.discountPercent} % (enthalten)`} />}
            <Row label="Nettobetrag" value={formatEuro(order.netCents)} amount />
            <Row label={vatLabel} value={formatEuro(order.vatCents)} amount />
            <Row label={totalLabel} value={formatEuro(order.grossCents)} amount strong className="border-t border-slate-200 pt-2" />
            {order.paymentMethod && <Row label="Zahlungsart" value={order.paymentMethod} />}
          </dl>
          {order.tax.invoiceNote && <p className="mt-4 text-sm text-slate-700" data-testid="order-tax-note">Auf der Rechnung: {order.tax.invoiceNote}</p>}
          {order.tax.explanation && <p className="mt-2 text-sm text-slate-600">{order.tax.explanation}</p>}
        </Card>

        <Card className="flex flex-col gap-4 p-5">
          <div>
            <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900"><FileText className="size-5 text-brand-700" aria-hidden="true" /> Rechnung</h2>
            {order.invoiceId ? (
              <p className="mt-1 text-sm text-slate-600">Laden Sie die Rechnung als PDF oder als E-Rechnung (XRechnung) herunter.</p>
            ) : (
              <p className="mt-1 text-sm text-slate-600">Die Rechnung wird erstellt, sobald die Zahlung verbucht ist.</p>
            )}
          </div>
          {order.invoiceId && <InvoiceDownloads invoiceId={order.invoiceId} fileBase={`Rechnung-${order.number}`} label={`Rechnung zu Bestellung ${order.number}`} size="md" />}
          <div className="mt-auto flex flex-wrap gap-2">
            <Link to={paths.dashboard.invoices} className={buttonClass('ghost', 'sm')}>Alle Rechnungen</Link>
            {open && <Link to={open} className={buttonClass('secondary', 'sm')}><view.icon className="size-4" aria-hidden="true" /> {view.openLabel}</Link>}
          </div>
        </Card>
      </div>
    </>
  );
}

const lineColumns = (priceHeader: string): Column<OrderLine>[] => [
  { header: 'Position', rowHeader: true, cell: (line) => line.label },
  { header: 'Details', cell: (line) => line.detail },
  { header: priceHeader, className: 'whitespace-nowrap text-right tabular-nums text-slate-900', headerClassName: 'text-right', cell: (line) => line.price },
];

/** `amount` keeps a money value on one line; other values may wrap on narrow screens. */
function Row({ label, value, strong, amount, className }: { label: string; value: string; strong?: boolean; amount?: boolean; className?: string }) {
  return (
    <div className={cn('flex justify-between gap-4', className)}>
      <dt className={strong ? 'font-semibold text-slate-900' : 'text-slate-600'}>{label}</dt>
      <dd className={cn('text-right text-slate-900', amount && 'whitespace-nowrap tabular-nums', strong ? 'font-bold' : 'font-medium')}>{value}</dd>
    </div>
  );
}
