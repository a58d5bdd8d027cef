import { useState } from 'react';
import { FileX2 } from 'lucide-react';
import { formatDayMonthYear, formatEuro, type InvoiceCard } from '@hp/contract';
import { PageMeta } from '../../../components/page-meta.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { DataTable, type Column } from '../../../components/ui/table.tsx';
import { BILLING_PAGE_SIZE } from '../api/orders.ts';
import { useInvoices } from '../api/invoices.ts';
import { InvoiceKindBadge, invoiceKindLabels, InvoiceStateBadge } from '../../../components/billing/billing-badges.tsx';
import { InvoiceDownloads } from '../../../components/billing/invoice-downloads.tsx';
import { ListState } from '../../../components/ui/list-state.tsx';
import { OrderButtons } from '../../../components/billing/order-buttons.tsx';

const fileBase = (invoice: InvoiceCard) => `${invoice.kind === 'invoice' ? 'Rechnung' : 'Gutschrift'}-${invoice.number}`;
const nameOf = (invoice: InvoiceCard) => `${invoiceKindLabels[invoice.kind]} ${invoice.number}`;

const invoiceColumns: Column<InvoiceCard>[] = [
  {
    header: 'Rechnungsnummer',
    rowHeader: true,
    cell: (invoice) => (
      <>
        <span className="block font-mono">{invoice.number}</span>
        <span className="mt-1 flex flex-wrap justify-end gap-1 @3xl:justify-start"><InvoiceKindBadge kind={invoice.kind} /><InvoiceStateBadge state={invoice.state} /></span>
      </>
    ),
  },
  { header: 'Produkt', className: '@3xl:min-w-44', cell: (invoice) => invoice.product },
  {
    header: 'Datum',
    className: 'whitespace-nowrap',
    cell: (invoice) => (
      <>
        <span className="block"><span className="sr-only">Rechnungsdatum </span>{formatDayMonthYear(invoice.date)}</span>
        <span className="block text-xs text-slate-600">fällig am {formatDayMonthYear(invoice.dueDate)}</span>
      </>
    ),
  },
  { header: 'Betrag', className: 'whitespace-nowrap text-right font-semibold tabular-nums', headerClassName: 'text-right', cell: (invoice) => formatEuro(invoice.amountCents) },
  { header: 'Download', actions: true, className: 'whitespace-nowrap', cell: (invoice) => <InvoiceDownloads invoiceId={invoice.id} fileBase={fileBase(invoice)} label={nameOf(invoice)} /> },
];

/** Portal spec "Invoices": invoices and credit notes with PDF and e-invoice (XRechnung) downloads. */
export default function InvoicesPage() {
  const [offset, setOffset] = useState(0);
  const invoices = useInvoices(offset);
  const items = invoices.data?.items ?? [];

  return (
    <div className="mx-auto max-w-6xl">
      <PageMeta title="Rechnungen" />
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Rechnungen</h1>
      <p className="mt-1 text-slate-700">Rechnungen und Gutschriften als PDF oder als E-Rechnung (XRechnung) für Ihre Buchhaltung.</p>

      <div className="mt-6">
        <ListState
          query={invoices}
          isEmpty={!items.length}
          loadingLabel="Lade Rechnungen …"
          errorText="Die Rechnungen konnten nicht geladen werden."
          empty={
            <div className="flex flex-col items-center gap-3 py-4">
              <FileX2 className="size-10 text-slate-400" aria-hidden="true" />
              <h2 className="text-lg font-semibold text-slate-900">Noch keine Rechnungen</h2>
              <p className="text-slate-600">Nach Ihrer ersten bezahlten Bestellung finden Sie die Rechnung hier.</p>
              <OrderButtons size="sm" className="justify-center" />
            </div>
          }
        >
          <DataTable caption="Rechnungen" columns={invoiceColumns} rows={items} rowKey={(invoice) => invoice.id} />
          <Pagination offset={offset} limit={BILLING_PAGE_SIZE} total={invoices.data?.total ?? 0} onOffsetChange={setOffset} label="Seiten der Rechnungen" />
        </ListState>
      </div>
    </div>
  );
}
