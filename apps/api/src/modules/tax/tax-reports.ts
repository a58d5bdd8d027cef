import { and, between, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  countryName, normalizeVatId, quarterLabel, quarterMonths, quarterOf, taxThresholdOf,
  type OssRow, type TaxQuarter, type TaxQuarterReports, type TaxThreshold, type ZmRow,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { invoices } from '../../db/schema/index.ts';
import { CSV_BOM, CsvDecimal, csvRow } from '../../lib/csv.ts';
import { berlinDate } from '../../lib/berlin-date.ts';
import { crossBorderConsumerNet } from './tax.service.ts';

/**
 * The owner's tax reports (issue 24) from the issued documents: every invoice issued since the tax
 * decision carries it in `document.tax`, and a credit note copies its invoice's, so the reports read the
 * decision and never recompute it. Documents from before have no `tax` (German VAT) and appear nowhere.
 *
 * The quarter is the one of the document's date (`issue_date`, Europe/Berlin). Our customers pay before
 * the service starts, so the invoice date is also the day the payment arrived, when the tax arises for a
 * prepaid service (§13 Abs. 1 Nr. 1a Satz 4 UStG; Art. 65 MwStSystRL). A credit note counts in the
 * quarter it is issued in (§17 UStG, the change happens then).
 */
type ReportDeps = Pick<Deps, 'db'>;

const taxField = (field: string) => sql<string | null>`(${invoices.document} -> 'tax' ->> ${sql.raw(`'${field}'`)})`;
const signedNet = sql<string>`sum(case when ${invoices.kind} = 'credit_note' then -${invoices.netCents} else ${invoices.netCents} end)`;

function quarterDays(quarter: TaxQuarter) {
  const { from, to } = quarterMonths(quarter);
  const first = `${Math.floor(from / 12)}-${String((from % 12) + 1).padStart(2, '0')}-01`;
  const lastMonth = new Date(Date.UTC(Math.floor(to / 12), (to % 12) + 1, 0));
  return { from: first, to: lastMonth.toISOString().slice(0, 10), months: { from, to } };
}

/**
 * Zusammenfassende Meldung (§18a UStG): per confirmed buyer VAT ID, the net of the quarter's
 * reverse-charge invoices (tax.zm) less its credit notes. The ID is the one the invoice names (BT-48);
 * an ID typed differently on two invoices (spaces, lower case) is one line.
 */
export async function zmRows({ db }: ReportDeps, quarter: TaxQuarter): Promise<ZmRow[]> {
  const { months } = quarterDays(quarter);
  const rows = await db.select({
    vatId: taxField('buyerVatId'),
    country: taxField('customerCountry'),
    net: signedNet,
    invoices: sql<string>`count(*) filter (where ${invoices.kind} = 'invoice')`,
    creditNotes: sql<string>`count(*) filter (where ${invoices.kind} = 'credit_note')`,
  }).from(invoices)
    .where(and(between(invoices.issueMonth, months.from, months.to), sql`${taxField('zm')} = 'true'`))
    .groupBy(taxField('buyerVatId'), taxField('customerCountry'));

  const byId = new Map<string, ZmRow>();
  for (const r of rows) {
    const raw = (r.vatId ?? '').toUpperCase().replace(/[\s.\-/]/g, '');
    const vatId = (r.country ? normalizeVatId(r.country, raw) : null) ?? raw;
    const row = byId.get(vatId) ?? { countryCode: vatId.slice(0, 2), vatId, netCents: 0, invoices: 0, creditNotes: 0 };
    row.netCents += Number(r.net);
    row.invoices += Number(r.invoices);
    row.creditNotes += Number(r.creditNotes);
    byId.set(vatId, row);
  }
  // A supply cancelled within the quarter leaves nothing to report.
  return [...byId.values()].filter((r) => r.netCents !== 0).sort((a, b) => a.vatId.localeCompare(b.vatId));
}

/**
 * OSS return (§18j UStG): per member state of consumption and rate, the net and the VAT of the
 * quarter's OSS invoices (tax.oss) less the credit notes of invoices from the same quarter. A credit
 * note of an invoice from an earlier quarter is a correction of that quarter's return, which the OSS
 * takes only in a later return, per state and period (Art. 61 DVO 282/2011): its own line.
 */
export async function ossRows({ db }: ReportDeps, quarter: TaxQuarter): Promise<OssRow[]> {
  const { months } = quarterDays(quarter);
  const corrected = alias(invoices, 'corrected');
  const rows = await db.select({
    kind: invoices.kind,
    country: taxField('placeOfSupply'),
    rate: sql<string>`(${invoices.document} -> 'tax' ->> 'ratePercent')`,
    net: invoices.netCents,
    vat: sql<string>`coalesce((${invoices.document} -> 'totals' ->> 'vatCents')::integer, 0)`,
    correctedIssueDate: corrected.issueDate,
  }).from(invoices)
    .leftJoin(corrected, eq(corrected.id, invoices.correctsInvoiceId))
    .where(and(between(invoices.issueMonth, months.from, months.to), sql`${taxField('oss')} = 'true'`));

  const groups = new Map<string, OssRow>();
  for (const r of rows) {
    const country = r.country ?? '';
    const ratePercent = Number(r.rate);
    const sign = r.kind === 'credit_note' ? -1 : 1;
    const origin = r.kind === 'credit_note' && r.correctedIssueDate ? quarterOf(r.correctedIssueDate) : quarter;
    const correctsQuarter = origin === quarter ? null : origin;
    const key = `${correctsQuarter ?? ''}|${country}|${ratePercent}`;
    const row = groups.get(key) ?? { country, countryName: countryName(country), ratePercent, netCents: 0, vatCents: 0, correctsQuarter };
    row.netCents += sign * r.net;
    row.vatCents += sign * Number(r.vat);
    groups.set(key, row);
  }
  return [...groups.values()]
    .filter((r) => r.netCents !== 0 || r.vatCents !== 0)
    .sort((a, b) => (a.correctsQuarter ?? '').localeCompare(b.correctsQuarter ?? '') || a.country.localeCompare(b.country) || a.ratePercent - b.ratePercent);
}

export async function taxQuarterReports(deps: ReportDeps, quarter: TaxQuarter): Promise<TaxQuarterReports> {
  const { from, to } = quarterDays(quarter);
  const [zm, oss] = await Promise.all([zmRows(deps, quarter), ossRows(deps, quarter)]);
  return { quarter, from, to, zm, oss };
}

/** The cross-border consumer sales of the previous and the current year against 10,000 €, and the setting. */
export async function taxThreshold(deps: Pick<Deps, 'db' | 'env'>, now = new Date()): Promise<TaxThreshold> {
  const sums = await crossBorderConsumerNet(deps.db, now);
  return taxThresholdOf(sums, Number(berlinDate(now).slice(0, 4)), deps.env.tax.destinationTaxationOpted);
}

// ── CSV (lib/csv.ts: semicolons, decimal comma, CRLF, UTF-8 with BOM) ───────────────────────────────

const euro = (cents: number) => new CsvDecimal(cents / 100);
const rate = (percent: number) => new CsvDecimal(percent, Number.isInteger(percent) ? 0 : 1);

/**
 * The lines as the BZSt's ZM form asks for them: Länderkennzeichen, USt-IdNr., the sum and "Art der
 * Leistung" S (sonstige Leistung; the form's import knows L, D and S). The form wants whole euros; the
 * file keeps the cents so that it adds up with the books.
 */
export function zmCsv(rows: ZmRow[]): string {
  let out = CSV_BOM + csvRow(['Länderkennzeichen', 'USt-IdNr.', 'Summe der Bemessungsgrundlagen (EUR)', 'Art der Leistung']);
  for (const r of rows) out += csvRow([r.countryCode, r.vatId, euro(r.netCents), 'S']);
  return out;
}

export function ossCsv(rows: OssRow[]): string {
  let out = CSV_BOM + csvRow(['Verbrauchsmitgliedstaat', 'Land', 'Steuersatz (%)', 'Bemessungsgrundlage (EUR)', 'Steuerbetrag (EUR)', 'Berichtigung für Zeitraum']);
  for (const r of rows) out += csvRow([r.country, r.countryName, rate(r.ratePercent), euro(r.netCents), euro(r.vatCents), r.correctsQuarter ? quarterLabel(r.correctsQuarter) : '']);
  return out;
}
