import { useState } from 'react';
import { Link } from 'react-router';
import { FileX2 } from 'lucide-react';
import { formatDayMonthYear, formatEuro, type InvoiceCard } from '@hp/contract';
import { PageMeta } from '../../components/page-meta.tsx';
import { buttonClass } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Pagination } from '../../components/ui/pagination.tsx';
import { RowHeader, Table, Td, Th, Tr } from '../../components/ui/table.tsx';
import { BILLING_PAGE_SIZE, useInvoices } from '../../features/billing/api.ts';
import { InvoiceKindBadge, invoiceKindLabels, PaidBadge } from '../../features/billing/components/billing-badges.tsx';
import { InvoiceDownloads } from '../../features/billing/components/invoice-downloads.tsx';
import { ListState } from '../../components/ui/list-state.tsx';

const fileBase = (invoice: InvoiceCard) => `${invoice.kind === 'invoice' ? 'Rechnung' : 'Gutschrift'}-${invoice.number}`;
const nameOf = (invoice: InvoiceCard) => `${invoiceKindLabels[invoice.kind]} ${invoice.number}`;

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
              <Link to="/shop/kvm-server" className={buttonClass('primary', 'sm')}>Server bestellen</Link>
            </div>
          }
        >
          {/* Wide screens: a table; narrow screens: one card per invoice (only one of them is displayed). */}
          <div className="hidden xl:block">
            <Table caption="Rechnungen">
              <thead>
                <tr>
                  <Th>Rechnungsnummer</Th><Th>Produkt</Th><Th>Datum</Th><Th className="text-right">Betrag</Th><Th>Download</Th>
                </tr>
              </thead>
              <tbody>
                {items.map((invoice) => (
                  <Tr key={invoice.id}>
                    <RowHeader>
                      <span className="block font-mono">{invoice.number}</span>
                      <span className="mt-1 flex gap-1"><InvoiceKindBadge kind={invoice.kind} /><PaidBadge paid={invoice.paid} /></span>
                    </RowHeader>
                    <Td className="min-w-44">{invoice.product}</Td>
                    <Td className="whitespace-nowrap">
                      <span className="block"><span className="sr-only">Rechnungsdatum </span>{formatDayMonthYear(invoice.date)}</span>
                      <span className="block text-xs text-slate-600">fällig am {formatDayMonthYear(invoice.dueDate)}</span>
                    </Td>
                    <Td className="whitespace-nowrap text-right font-semibold tabular-nums">{formatEuro(invoice.amountCents)}</Td>
                    <Td className="w-px"><InvoiceDownloads invoiceId={invoice.id} fileBase={fileBase(invoice)} label={nameOf(invoice)} inline /></Td>
                  </Tr>
                ))}
              </tbody>
            </Table>
          </div>
          <ul className="grid gap-4 md:grid-cols-2 xl:hidden" aria-label="Rechnungen">
            {items.map((invoice) => (
              <li key={invoice.id}>
                <Card className="flex h-full flex-col p-5">
                  <div className="flex items-start justify-between gap-3">
                    <div className="min-w-0">
                      <h2 className="text-lg font-semibold text-slate-900">{invoice.product}</h2>
                      <p className="text-sm text-slate-600">{invoiceKindLabels[invoice.kind]} <span className="font-mono">{invoice.number}</span></p>
                    </div>
                    <div className="flex flex-col items-end gap-1">
                      <InvoiceKindBadge kind={invoice.kind} />
                      <PaidBadge paid={invoice.paid} />
                    </div>
                  </div>
                  <dl className="mt-4 grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
                    <div><dt className="text-xs text-slate-600">Rechnungsdatum</dt><dd className="whitespace-nowrap font-medium text-slate-900">{formatDayMonthYear(invoice.date)}</dd></div>
                    <div><dt className="text-xs text-slate-600">Fällig am</dt><dd className="whitespace-nowrap font-medium text-slate-900">{formatDayMonthYear(invoice.dueDate)}</dd></div>
                    <div><dt className="text-xs text-slate-600">Betrag</dt><dd className="whitespace-nowrap font-semibold tabular-nums text-slate-900">{formatEuro(invoice.amountCents)}</dd></div>
                  </dl>
                  <div className="mt-5 flex flex-1 items-end">
                    <InvoiceDownloads invoiceId={invoice.id} fileBase={fileBase(invoice)} label={nameOf(invoice)} />
                  </div>
                </Card>
              </li>
            ))}
          </ul>
          <Pagination offset={offset} limit={BILLING_PAGE_SIZE} total={invoices.data?.total ?? 0} onOffsetChange={setOffset} label="Seiten der Rechnungen" />
        </ListState>
      </div>
    </div>
  );
}
