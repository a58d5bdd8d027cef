import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { FinanceMonth } from '@hp/contract';
import { euro, shortMonth } from './format.ts';

const axisEuro = (cents: number) => `${Math.round(cents / 100).toLocaleString('de-DE')} €`;
const tooltipEuro = (value: unknown) => euro(Number(value));

/**
 * The charts are pictures of the table „Finanzen je Monat“ below them: hidden from screen readers (the
 * table is the accessible form of the same figures) and described by their caption.
 */
export function FinanceCharts({ months }: { months: FinanceMonth[] }) {
  const data = months.map((m) => ({ ...m, label: shortMonth(m.month) }));
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <figure className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="revenue-chart">
        <figcaption className="mb-3 font-semibold text-slate-900">Umsatz je Monat (netto) <span className="block text-xs font-normal text-slate-600">Rechnungen abzüglich Gutschriften; die Werte stehen in der Tabelle unten.</span></figcaption>
        <div className="h-64" aria-hidden="true">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={data} accessibilityLayer={false} margin={{ top: 4, right: 4, bottom: 0, left: 4 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" tick={{ fontSize: 12 }} interval="preserveStartEnd" />
              <YAxis tickFormatter={axisEuro} tick={{ fontSize: 12 }} width={72} />
              <Tooltip formatter={tooltipEuro} />
              <Bar dataKey="revenueCents" name="Umsatz" fill="#2563eb" radius={[4, 4, 0, 0]} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </figure>
      <figure className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="mrr-chart">
        <figcaption className="mb-3 font-semibold text-slate-900">Monatlich wiederkehrender Umsatz (MRR) <span className="block text-xs font-normal text-slate-600">Laufzeiten gleichmäßig auf ihre Monate verteilt; die Werte stehen in der Tabelle unten.</span></figcaption>
        <div className="h-64" aria-hidden="true">
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={data} accessibilityLayer={false} margin={{ top: 4, right: 8, bottom: 0, left: 4 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" tick={{ fontSize: 12 }} interval="preserveStartEnd" />
              <YAxis tickFormatter={axisEuro} tick={{ fontSize: 12 }} width={72} />
              <Tooltip formatter={tooltipEuro} />
              <Line type="linear" dataKey="mrrCents" name="MRR" stroke="#059669" strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} />
            </LineChart>
          </ResponsiveContainer>
        </div>
      </figure>
    </div>
  );
}
