import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Download } from 'lucide-react';
import {
  monthIndex, monthOfIndex, receivableBucketLabels, StatisticsQuery, statisticsMessages, ticketTypeLabels,
  type ChurnProduct, type FinanceMonth, type ReceivableBucket, type Statistics, type StatisticsTable,
} from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { SelectField } from '../../../components/ui/select.tsx';
import { DataTable, type Column } from '../../../components/ui/table.tsx';
import { PageHeader } from '../../../components/list-page/page-header.tsx';
import { exportStatistics, useStatistics, type MonthRange } from '../api/statistics.ts';
import { CapacitySection } from './capacity-section.tsx';
import { FinanceCharts } from './finance-charts.tsx';
import { TaxReportsSection } from './tax-reports-section.tsx';
import { euro, formatMinutes, longMonth } from './format.ts';

const presets = [
  { value: '3', label: 'Letzte 3 Monate' },
  { value: '6', label: 'Letzte 6 Monate' },
  { value: '12', label: 'Letzte 12 Monate' },
  { value: 'custom', label: 'Eigener Zeitraum' },
] as const;
type Preset = (typeof presets)[number]['value'];

const currentMonth = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit' }).format(new Date()).slice(0, 7);
const lastMonths = (n: number): MonthRange => {
  const to = currentMonth();
  return { from: monthOfIndex(monthIndex(to) - (n - 1)), to };
};

/** The owner's statistics (spec "Statistics"; figures from the stored data, docs/decisions/017). */
export default function StatisticsPage() {
  const [preset, setPreset] = useState<Preset>('12');
  const [range, setRange] = useState<MonthRange>(() => lastMonths(12));
  const [custom, setCustom] = useState<MonthRange>(() => lastMonths(12));
  const [rangeError, setRangeError] = useState<string | null>(null);
  const query = useStatistics(range);

  const choosePreset = (value: Preset) => {
    setPreset(value);
    setRangeError(null);
    if (value !== 'custom') setRange(lastMonths(Number(value)));
    else setCustom(range);
  };
  const applyCustom = (e: FormEvent) => {
    e.preventDefault();
    // The server checks the same schema; this only answers sooner.
    const parsed = StatisticsQuery.safeParse(custom);
    if (!parsed.success || !custom.from || !custom.to) {
      setRangeError(parsed.error?.issues[0]?.message ?? statisticsMessages.monthFormat);
      return;
    }
    setRangeError(null);
    setRange({ from: custom.from, to: custom.to });
  };

  return (
    <div className="mx-auto max-w-6xl space-y-8">
      <PageHeader title="Statistiken" description="Kapazität, Umsatz und Support auf einen Blick – berechnet aus den gespeicherten Daten, Beträge netto.">
        <p className="mt-1 text-sm text-slate-600">Zeitraum: {longMonth(range.from)} bis {longMonth(range.to)}</p>
      </PageHeader>

      <form onSubmit={applyCustom} className="flex flex-wrap items-end gap-3" aria-label="Zeitraum wählen">
        <SelectField label="Zeitraum" value={preset} onChange={(e) => choosePreset(e.target.value as Preset)} className="w-full sm:w-56">
          {presets.map((p) => <option key={p.value} value={p.value}>{p.label}</option>)}
        </SelectField>
        {preset === 'custom' && (
          <>
            <Field label="Von (Monat)" type="month" value={custom.from} onChange={(e) => setCustom({ ...custom, from: e.target.value })} className="w-full sm:w-48" error={rangeError ?? undefined} />
            <Field label="Bis (Monat)" type="month" value={custom.to} onChange={(e) => setCustom({ ...custom, to: e.target.value })} className="w-full sm:w-48" />
            <Button type="submit" variant="outline">Anwenden</Button>
          </>
        )}
      </form>

      {query.isPending ? (
        <div className="py-10"><Spinner label="Lade Statistiken …" /></div>
      ) : query.isError ? (
        <Alert tone="error" className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <span>{statisticsMessages.loadFailed} {query.error.message}</span>
          <Button variant="outline" size="sm" onClick={() => query.refetch()} loading={query.isFetching}>Erneut versuchen</Button>
        </Alert>
      ) : (
        <StatisticsContent data={query.data} range={range} updating={query.isFetching} />
      )}

      <TaxReportsSection />
    </div>
  );
}

function Section({ title, table, range, children }: { title: string; table: StatisticsTable; range: MonthRange; children: ReactNode }) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await exportStatistics(table, range);
    } catch (err) {
      toast.error(err instanceof Error ? err.message : statisticsMessages.exportFailed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby={id} className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="text-xl font-semibold text-slate-900">{title}</h2>
        <Button variant="outline" size="sm" onClick={download} loading={busy} aria-label={`${title} als CSV herunterladen`}>
          <Download className="size-4" aria-hidden="true" /> CSV
        </Button>
      </div>
      {children}
    </section>
  );
}

function Kpi({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Card className="p-4">
      <p className="text-sm text-slate-600">{label}</p>
      <p className="mt-1 break-words text-xl font-semibold text-slate-900 sm:text-2xl">{value}</p>
      {hint && <p className="mt-1 text-xs text-slate-600">{hint}</p>}
    </Card>
  );
}

/**
 * The month's figures, then the terms that ended: one column whatever the number of products (the table
 * stays readable without scrolling), with the products' split under the total (the names come from the
 * products, in the API's order). The CSV export keeps one column per product.
 */
const financeColumns = (products: ChurnProduct[]): Column<FinanceMonth>[] => [
  { header: 'Monat', rowHeader: true, className: 'whitespace-nowrap', cell: (m) => longMonth(m.month) },
  { header: 'Umsatz netto', className: 'text-right tabular-nums', headerClassName: 'text-right whitespace-normal!', cell: (m) => euro(m.revenueCents) },
  { header: 'MRR', className: 'text-right tabular-nums', headerClassName: 'text-right whitespace-normal!', cell: (m) => euro(m.mrrCents) },
  { header: 'ARPA', className: 'text-right tabular-nums', headerClassName: 'text-right whitespace-normal!', cell: (m) => euro(m.arpaCents) },
  { header: 'Zahlende Kunden', className: 'text-right tabular-nums', headerClassName: 'text-right whitespace-normal!', cell: (m) => m.payingCustomers },
  { header: 'Neue Kunden', className: 'text-right tabular-nums', headerClassName: 'text-right whitespace-normal!', cell: (m) => m.newCustomers },
  { header: 'Verlorene Kunden', className: 'text-right tabular-nums', headerClassName: 'text-right whitespace-normal!', cell: (m) => m.churnedCustomers },
  {
    header: 'Ausgelaufene Laufzeiten', className: 'text-right tabular-nums', headerClassName: 'text-right whitespace-normal!',
    cell: (m) => {
      const parts = products.map((p) => ({ label: p.label, count: m.churned.find((c) => c.kind === p.kind)?.count ?? 0 })).filter((p) => p.count > 0);
      const total = parts.reduce((sum, p) => sum + p.count, 0);
      return (
        <>
          <span data-testid="churn-total">{total}</span>
          {parts.length > 0 && <span className="block text-xs text-slate-600" data-testid="churn-split">{parts.map((p) => `${p.label} ${p.count}`).join(' · ')}</span>}
        </>
      );
    },
  },
];

const receivableColumns: Column<ReceivableBucket>[] = [
  { header: 'Alter', rowHeader: true, cell: (b) => receivableBucketLabels[b.bucket] },
  { header: 'Offen (noch nicht fällig)', className: 'text-right tabular-nums', headerClassName: 'text-right whitespace-normal!', cell: (b) => `${euro(b.openCents)} (${b.openCount})` },
  { header: 'Überfällig', className: 'text-right tabular-nums', headerClassName: 'text-right whitespace-normal!', cell: (b) => `${euro(b.overdueCents)} (${b.overdueCount})` },
];

function StatisticsContent({ data, range, updating }: { data: Statistics; range: MonthRange; updating: boolean }) {
  const last = data.finances.current ?? data.finances.months[data.finances.months.length - 1] ?? null;
  const kpiMonth = last ? longMonth(last.month) : '';
  const hasInvoices = data.finances.months.some((m) => m.revenueCents !== 0 || m.mrrCents !== 0);
  const openTotal = data.receivables.reduce((s, b) => s + b.openCents, 0);
  const overdueTotal = data.receivables.reduce((s, b) => s + b.overdueCents, 0);
  const typeRows = data.support.byType.map((t) => ({ ...t, label: ticketTypeLabels[t.type] }));
  return (
    <div className="space-y-10" aria-busy={updating || undefined}>
      <Section title="Kapazität" table="capacity" range={range}>
        <CapacitySection capacity={data.capacity} />
      </Section>

      <Section title="Finanzen" table="finances" range={range}>
        {last && (
          <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
            <Kpi label="MRR" value={euro(last.mrrCents)} hint={kpiMonth} />
            <Kpi label="ARR (MRR × 12)" value={euro(last.arrCents)} hint={kpiMonth} />
            <Kpi label="ARPA (MRR je zahlendem Kunden)" value={euro(last.arpaCents)} hint={`${last.payingCustomers} zahlende Kunden`} />
            <Kpi label="Umsatz im Zeitraum" value={euro(data.finances.months.reduce((s, m) => s + m.revenueCents, 0))} hint="netto, abzüglich Gutschriften" />
          </div>
        )}
        {hasInvoices ? <FinanceCharts months={data.finances.months} /> : <Card className="px-5 py-8 text-center text-slate-700">Im gewählten Zeitraum gibt es keine Rechnungen.</Card>}
        <DataTable caption="Finanzen je Monat" columns={financeColumns(data.finances.products)} rows={data.finances.months} rowKey={(m) => m.month} />
        <p className="text-xs text-slate-600">Neue Kunden: erste bezahlte Rechnung im Monat. Verlorene Kunden: die letzte Laufzeit über alle Produkte endete im Monat ohne Verlängerung. Ausgelaufene Laufzeiten: Laufzeiten, die im Monat ohne Verlängerung endeten, darunter je Produkt.</p>
      </Section>

      <Section title="Offene Posten" table="receivables" range={range}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Kpi label="Offen, noch nicht fällig" value={euro(openTotal)} hint="Alter: Tage seit Rechnungsdatum" />
          <Kpi label="Überfällig" value={euro(overdueTotal)} hint="Alter: Tage seit Fälligkeit" />
        </div>
        <DataTable caption="Offene Posten nach Alter" columns={receivableColumns} rows={data.receivables} rowKey={(b) => b.bucket} />
        <p className="text-xs text-slate-600">Stand heute, netto, abzüglich Teilzahlungen; in Klammern die Zahl der Rechnungen.</p>
      </Section>

      <Section title="Support" table="tickets" range={range}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Kpi label="Offene Tickets" value={String(data.support.openTickets)} hint="offen oder in Bearbeitung, Stand heute" />
          <Kpi label="Erste Antwort (Median)" value={formatMinutes(data.support.medianFirstResponseMinutes)} hint={`${data.support.answeredTickets} beantwortete Tickets im Zeitraum`} />
        </div>
        <DataTable
          caption="Tickets je Art im Zeitraum"
          columns={[
            { header: 'Art', rowHeader: true, cell: (t) => t.label },
            { header: 'Tickets im Zeitraum', className: 'text-right tabular-nums', headerClassName: 'text-right whitespace-normal!', cell: (t) => t.count },
          ]}
          rows={typeRows}
          rowKey={(t) => t.type}
        />
      </Section>
    </div>
  );
}
