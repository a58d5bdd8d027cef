import { useState } from 'react';
import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { formatDayMonthYear, formatEuro, type CustomerOrderPage, type CustomerOrderRow, type OrderStatus } from '@hp/contract';
import { Card } from '../../../components/ui/card.tsx';
import { DataTable, type Column } from '../../../components/ui/table.tsx';
import { ListState } from '../../../components/ui/list-state.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { api } from '../../../lib/api-client.ts';
import { OrderStatusBadge } from '../../../components/billing/billing-badges.tsx';
import { InvoiceDownloads } from '../../../components/billing/invoice-downloads.tsx';

const PAGE_SIZE = 10;

const columns: Column<CustomerOrderRow>[] = [
  { header: 'Bestellung', rowHeader: true, cell: (o) => <span className="font-mono">{o.number}</span> },
  { header: 'Datum', className: 'whitespace-nowrap', cell: (o) => formatDayMonthYear(o.createdAt.slice(0, 10)) },
  { header: 'Status', cell: (o) => <OrderStatusBadge status={o.status as OrderStatus} /> },
  { header: 'Details', cell: (o) => <><span className="block">{o.summary}</span><span className="block text-xs text-slate-600">{o.itemCount} {o.itemCount === 1 ? 'Position' : 'Positionen'}</span></> },
  { header: 'Betrag', className: 'whitespace-nowrap text-right tabular-nums', headerClassName: 'text-right', cell: (o) => formatEuro(o.grossCents) },
  {
    header: 'Rechnung', actions: true,
    cell: (o) => (o.invoiceId && o.invoiceNumber
      ? <InvoiceDownloads invoiceId={o.invoiceId} fileBase={`Rechnung-${o.invoiceNumber}`} label={`Rechnung ${o.invoiceNumber} zu Bestellung ${o.number}`} />
      : <span className="text-sm text-slate-600">keine Rechnung</span>),
  },
];

/** "Bestellungen" of the customer page: every order, paged on the server. */
export function CustomerOrders({ customerId }: { customerId: string }) {
  const [offset, setOffset] = useState(0);
  const query = useQuery({
    queryKey: ['customers', 'orders', customerId, offset],
    queryFn: ({ signal }) => api<CustomerOrderPage>(`/staff/customers/${encodeURIComponent(customerId)}/orders?limit=${PAGE_SIZE}&offset=${offset}`, { signal }),
    placeholderData: keepPreviousData,
  });
  const items = query.data?.items ?? [];
  return (
    <Card className="p-4">
      <h2 className="font-semibold text-slate-900">Bestellungen</h2>
      <div className="mt-3">
        <ListState query={query} isEmpty={!items.length} loadingLabel="Lade Bestellungen …" errorText="Die Bestellungen konnten nicht geladen werden." empty={<p className="text-sm text-slate-600">Noch keine Bestellungen.</p>}>
          <DataTable caption="Bestellungen des Kunden" columns={columns} rows={items} rowKey={(o) => o.id} />
          <Pagination offset={offset} limit={PAGE_SIZE} total={query.data?.total ?? 0} onOffsetChange={setOffset} label="Seiten der Bestellungen" />
        </ListState>
      </div>
    </Card>
  );
}
