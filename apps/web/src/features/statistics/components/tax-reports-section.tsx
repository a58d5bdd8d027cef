import { useId, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Download } from 'lucide-react';
import { quarterLabel, recentQuarters, taxReportMessages, type OssRow, type TaxQuarter, type TaxThreshold, type ZmRow } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { SelectField } from '../../../components/ui/select.tsx';
import { DataTable, type Column } from '../../../components/ui/table.tsx';
import { cn } from '../../../lib/cn.ts';
import { downloadTaxReport, useTaxQuarterReports, useTaxThreshold, type TaxReportFile } from '../api/tax-reports.ts';
import { euro } from './format.ts';

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
// A non-breaking space keeps "80 %" on one line.
const percent = (value: number) => `${value.toLocaleString('de-DE', { maximumFractionDigits: 1 })}\u00a0%`;

/**
 * "Steuermeldungen" on the statistics page (issue 24): the cross-border consumer sales against the
 * 10,000 € threshold, and per quarter the Zusammenfassende Meldung and the OSS return, previewed and
 * downloadable as CSV.
 */
export function TaxReportsSection() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <div>
        <h2 id={headingId} className="text-xl font-semibold text-slate-900">Steuermeldungen</h2>
        <p className="mt-1 text-sm text-slate-600">
          Aus den ausgestellten Rechnungen und Gutschriften, nach Rechnungsdatum; Gutschriften zählen im Quartal ihrer Ausstellung negativ. Rechnungen von vor der Umstellung auf den Leistungsort (deutsche Umsatzsteuer) erscheinen in keiner Meldung.
        </p>
      </div>
      <ThresholdCard />
      <QuarterReports />
    </section>
  );
}

function ThresholdCard() {
  const query = useTaxThreshold();
  const headingId = useId();
  return (
    <Card className="space-y-4 p-4 sm:p-5" aria-labelledby={headingId} role="group">
      <h3 id={headingId} className="font-semibold text-slate-900">Lieferschwelle für Verbraucher in anderen EU-Staaten</h3>
      {query.isPending ? (
        <Spinner label="Lade Lieferschwelle …" />
      ) : query.isError ? (
        <Alert tone="error" className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <span>{taxReportMessages.thresholdFailed} {query.error.message}</span>
          <Button variant="outline" size="sm" onClick={() => query.refetch()} loading={query.isFetching}>Erneut versuchen</Button>
        </Alert>
      ) : (
        <ThresholdFigure threshold={query.data} />
      )}
    </Card>
  );
}

function ThresholdFigure({ threshold }: { threshold: TaxThreshold }) {
  const years = [
    { label: `Vorjahr ${threshold.previousYear.year}`, ...threshold.previousYear },
    { label: `Laufendes Jahr ${threshold.currentYear.year}`, ...threshold.currentYear },
  ];
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        Netto-Verkäufe an Verbraucher in anderen EU-Staaten (§3a Abs. 5 UStG) gegen {euro(threshold.thresholdCents)}; ab {percent(threshold.warningPercent)} erscheint eine Warnung.
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        {years.map((y) => {
          const over = y.netCents > threshold.thresholdCents;
          const near = y.percent >= threshold.warningPercent;
          return (
            <div key={y.year} className="space-y-1.5">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
                <span className="font-medium text-slate-900">{y.label}</span>
                <span className="tabular-nums text-slate-700">{euro(y.netCents)} · {percent(y.percent)}</span>
              </div>
              <div
                role="progressbar"
                aria-label={`${y.label}: Anteil an der Lieferschwelle`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.min(100, Math.max(0, y.percent))}
                aria-valuetext={`${percent(y.percent)} von ${euro(threshold.thresholdCents)} (${euro(y.netCents)})`}
                className="relative h-3 w-full overflow-hidden rounded-full bg-slate-200"
              >
                <div className={cn('h-full rounded-full', over ? 'bg-red-600' : near ? 'bg-amber-500' : 'bg-emerald-600')} style={{ width: `${Math.min(100, Math.max(0, y.percent))}%` }} />
                <div className="absolute inset-y-0 w-0.5 bg-slate-700" style={{ left: `${threshold.warningPercent}%` }} aria-hidden="true" />
              </div>
            </div>
          );
        })}
      </div>
      {threshold.message && <Alert tone={threshold.level === 'exceeded' ? 'error' : 'warning'}>{threshold.message}</Alert>}
      {threshold.level === 'ok' && <p className="text-sm text-slate-700">Beide Jahre liegen unter {percent(threshold.warningPercent)} der Lieferschwelle.</p>}
      <p className="text-xs text-slate-600">Einstellung: {threshold.settingText}</p>
    </div>
  );
}

const zmColumns: Column<ZmRow>[] = [
  { header: 'USt-IdNr.', rowHeader: true, className: 'font-mono', cell: (r) => r.vatId },
  { header: 'Länderkennzeichen', cell: (r) => r.countryCode },
  { header: 'Summe netto', className: 'text-right tabular-nums', headerClassName: 'text-right', cell: (r) => euro(r.netCents) },
  { header: 'Belege', className: 'text-right tabular-nums', headerClassName: 'text-right', cell: (r) => `${r.invoices} Rechnung${r.invoices === 1 ? '' : 'en'}${r.creditNotes ? `, ${r.creditNotes} Gutschrift${r.creditNotes === 1 ? '' : 'en'}` : ''}` },
];

const ossColumns: Column<OssRow>[] = [
  { header: 'Land', rowHeader: true, cell: (r) => `${r.countryName} (${r.country})` },
  { header: 'Steuersatz', className: 'text-right tabular-nums', headerClassName: 'text-right', cell: (r) => percent(r.ratePercent) },
  { header: 'Bemessungsgrundlage', className: 'text-right tabular-nums', headerClassName: 'text-right', cell: (r) => euro(r.netCents) },
  { header: 'Steuer', className: 'text-right tabular-nums', headerClassName: 'text-right', cell: (r) => euro(r.vatCents) },
  { header: 'Berichtigung für', cell: (r) => (r.correctsQuarter ? quarterLabel(r.correctsQuarter) : '–') },
];

function QuarterReports() {
  const [quarters] = useState(() => recentQuarters(today(), 8));
  const [quarter, setQuarter] = useState<TaxQuarter>(quarters[0]!);
  const query = useTaxQuarterReports(quarter);
  const label = quarterLabel(quarter);
  return (
    <div className="space-y-4">
      <SelectField label="Quartal" value={quarter} onChange={(e) => setQuarter(e.target.value)} className="w-full sm:w-56">
        {quarters.map((q) => <option key={q} value={q}>{quarterLabel(q)}</option>)}
      </SelectField>
      {query.isPending ? (
        <Spinner label="Lade Steuermeldungen …" />
      ) : query.isError ? (
        <Alert tone="error" className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <span>{taxReportMessages.loadFailed} {query.error.message}</span>
          <Button variant="outline" size="sm" onClick={() => query.refetch()} loading={query.isFetching}>Erneut versuchen</Button>
        </Alert>
      ) : (
        <div className="space-y-4" aria-busy={query.isFetching || undefined}>
          <ReportCard
            title="Zusammenfassende Meldung (§18a UStG)"
            hint="Reverse-Charge-Umsätze an Unternehmen in anderen EU-Staaten je USt-IdNr.; Art der Leistung S (sonstige Leistung)."
            file="zm"
            quarter={quarter}
            empty={query.data.zm.length ? null : `Im ${label} gibt es keine Umsätze für die Zusammenfassende Meldung.`}
          >
            <DataTable caption={`Zusammenfassende Meldung ${label}`} columns={zmColumns} rows={query.data.zm} rowKey={(r) => r.vatId} framed={false} />
          </ReportCard>
          <ReportCard
            title="OSS-Meldung (§18j UStG)"
            hint="Umsätze an Verbraucher in anderen EU-Staaten mit deren Umsatzsteuer, je Land und Steuersatz; Gutschriften zu Rechnungen früherer Quartale als Berichtigung."
            file="oss"
            quarter={quarter}
            empty={query.data.oss.length ? null : `Im ${label} gibt es keine Umsätze für die OSS-Meldung.`}
          >
            <DataTable caption={`OSS-Meldung ${label}`} columns={ossColumns} rows={query.data.oss} rowKey={(r) => `${r.correctsQuarter ?? ''}-${r.country}-${r.ratePercent}`} framed={false} />
          </ReportCard>
        </div>
      )}
    </div>
  );
}

function ReportCard({ title, hint, file, quarter, empty, children }: { title: string; hint: string; file: TaxReportFile; quarter: TaxQuarter; empty: string | null; children: ReactNode }) {
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadTaxReport(file, quarter);
    } catch (err) {
      toast.error(err instanceof Error ? err.message : taxReportMessages.downloadFailed);
    } finally {
      setBusy(false);
    }
  };
  const short = file === 'zm' ? 'Zusammenfassende Meldung' : 'OSS-Meldung';
  return (
    <Card className="space-y-3 p-4" role="group" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h3 id={headingId} className="font-semibold text-slate-900">{title}</h3>
        <Button variant="outline" size="sm" onClick={download} loading={busy} aria-label={`${short} ${quarterLabel(quarter)} als CSV herunterladen`}>
          <Download className="size-4" aria-hidden="true" /> CSV
        </Button>
      </div>
      <p className="text-xs text-slate-600">{hint}</p>
      {empty === null ? children : <p className="rounded-lg bg-slate-50 px-4 py-6 text-center text-sm text-slate-700">{empty}</p>}
    </Card>
  );
}
