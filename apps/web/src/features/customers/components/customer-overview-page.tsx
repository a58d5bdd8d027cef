import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Download } from 'lucide-react';
import { customerKindLabels, customerMessages, type CustomerRow } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import type { Column } from '../../../components/ui/table.tsx';
import { ListPage } from '../../../components/list-page/list-page.tsx';
import { PageHeader } from '../../../components/list-page/page-header.tsx';
import { useListParams } from '../../../components/list-page/use-list-params.ts';
import { paths } from '../../../config/paths.ts';
import { exportCustomers, useCustomers } from '../api/customers.ts';

const date = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric' }) : '–');

const columns: Column<CustomerRow>[] = [
  {
    header: 'Kunde', rowHeader: true, cell: (c) => (
      <span className="flex flex-col">
        <span className="break-words font-medium text-slate-900">{c.name}</span>
        <span className="text-xs text-slate-600">Kundennummer {c.customerNumber} · {customerKindLabels[c.kind]}</span>
      </span>
    ),
  },
  { header: 'Kontakt', className: 'break-all', cell: (c) => <a href={`mailto:${c.email}`} className="text-brand-700 underline">{c.email}</a> },
  { header: 'Firma', className: 'break-words', cell: (c) => c.companyName || '–' },
  { header: 'Kunde seit', cell: (c) => <time dateTime={c.createdAt}>{date(c.createdAt)}</time> },
  { header: 'Letzte Anmeldung', cell: (c) => (c.lastLoginAt ? <time dateTime={c.lastLoginAt}>{date(c.lastLoginAt)}</time> : 'noch nie') },
  {
    header: 'Aktionen', actions: true, className: 'text-right',
    cell: (c) => <Link to={paths.dashboard.customerDetails(c.id)} className="font-medium text-brand-700 underline" aria-label={`Details zu ${c.name}`}>Details</Link>,
  },
];

/** Spec "Customer overview": search by name, e-mail or customer number; sort; server paging; CSV export. */
export default function CustomerOverviewPage() {
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Kundenverwaltung" description="Alle Kundenkonten: suchen, sortieren und als CSV exportieren." actions={<ExportButton />} />
      <ListPage
        useList={useCustomers}
        search={{ label: 'Kunden suchen', placeholder: 'Name, E-Mail oder Kundennummer …' }}
        sortOptions={[
          { value: '-createdAt', label: 'Kunde seit (neueste)' },
          { value: 'createdAt', label: 'Kunde seit (älteste)' },
          { value: 'name', label: 'Name (A–Z)' },
          { value: '-name', label: 'Name (Z–A)' },
          { value: '-lastLogin', label: 'Anmeldung (neueste)' },
          { value: 'lastLogin', label: 'Anmeldung (älteste)' },
        ]}
        table={{ caption: 'Kunden', columns, rowKey: (c) => c.id }}
        texts={{
          loading: 'Lade Kunden …',
          error: 'Die Kunden konnten nicht geladen werden.',
          empty: 'Es gibt noch keine Kunden.',
          noMatch: (q) => `Keine Kunden zu „${q}“ gefunden.`,
          pagination: 'Seiten der Kundenliste',
        }}
      />
    </div>
  );
}

/** Exports what the list shows (search and sort from the URL), all pages. */
function ExportButton() {
  const { params } = useListParams([]);
  const [busy, setBusy] = useState(false);
  const onExport = async () => {
    setBusy(true);
    try {
      await exportCustomers({ q: params.q, sort: params.sort ?? '' });
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : customerMessages.exportFailed);
    } finally {
      setBusy(false);
    }
  };
  return <Button variant="outline" onClick={() => void onExport()} loading={busy}><Download className="size-4" aria-hidden="true" /> CSV exportieren</Button>;
}
