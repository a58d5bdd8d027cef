import { z } from 'zod';
import { OSS_THRESHOLD_NET_CENTS } from './tax.ts';

/*
 * The owner's tax reports under Statistiken (issue 24): the Zusammenfassende Meldung (§18a UStG) and the
 * OSS return (§18j UStG) per calendar quarter, and the cross-border consumer sales against the
 * 10,000 € threshold (§3a Abs. 5 Satz 3 UStG). Money: integer cents, net unless named otherwise.
 */

export const taxReportMessages = {
  quarterFormat: 'Bitte wählen Sie ein Quartal im Format JJJJ-Qn (zum Beispiel 2026-Q4).',
  loadFailed: 'Die Steuermeldungen konnten nicht geladen werden.',
  thresholdFailed: 'Die Lieferschwelle konnte nicht geladen werden.',
  downloadFailed: 'Die Datei konnte nicht erstellt werden.',
} as const;

/** From 80 % of the threshold in the previous or the current year the page warns. */
export const OSS_THRESHOLD_WARNING_PERCENT = 80;

/** 'YYYY-Qn', e.g. 2026-Q4. */
export const TaxQuarter = z.string({ error: taxReportMessages.quarterFormat }).regex(/^20\d\d-Q[1-4]$/, taxReportMessages.quarterFormat);
export type TaxQuarter = z.infer<typeof TaxQuarter>;

export const TaxReportQuery = z.object({ quarter: TaxQuarter });
export type TaxReportQuery = z.infer<typeof TaxReportQuery>;

/** The quarter of a calendar day 'YYYY-MM-DD' (or month 'YYYY-MM'). */
export const quarterOf = (isoDate: string): TaxQuarter => `${isoDate.slice(0, 4)}-Q${Math.floor((Number(isoDate.slice(5, 7)) - 1) / 3) + 1}`;

/** Its months as indexes (year * 12 + month - 1, the form the invoice columns use), both ends included. */
export function quarterMonths(quarter: TaxQuarter): { from: number; to: number } {
  const from = Number(quarter.slice(0, 4)) * 12 + (Number(quarter.slice(6)) - 1) * 3;
  return { from, to: from + 2 };
}

/** '2026-Q4' → '4. Quartal 2026' */
export const quarterLabel = (quarter: TaxQuarter) => `${quarter.slice(6)}. Quartal ${quarter.slice(0, 4)}`;

/** The `count` quarters up to the one of `today` ('YYYY-MM-DD'), newest first. */
export function recentQuarters(today: string, count: number): TaxQuarter[] {
  const current = quarterMonths(quarterOf(today)).from / 3;
  return Array.from({ length: count }, (_, i) => {
    const index = current - i;
    return `${Math.floor(index / 4)}-Q${(index % 4) + 1}`;
  });
}

/** One line of the Zusammenfassende Meldung: a customer's VAT ID and the net sum of the quarter. */
export const ZmRow = z.object({
  /** The VAT ID's prefix (EL for Greece), the form's "Länderkennzeichen". */
  countryCode: z.string(),
  /** The buyer's USt-IdNr. with its prefix, as confirmed (e.g. ATU12345678). */
  vatId: z.string(),
  /** Invoices less credit notes issued in the quarter; may be negative. */
  netCents: z.number().int(),
  invoices: z.number().int(),
  creditNotes: z.number().int(),
});
export type ZmRow = z.infer<typeof ZmRow>;

/** One line of the OSS return: a country of consumption and rate, or a correction of an earlier quarter. */
export const OssRow = z.object({
  /** The member state of consumption (the decision's place of supply), ISO code. */
  country: z.string(),
  countryName: z.string(),
  ratePercent: z.number(),
  netCents: z.number().int(),
  vatCents: z.number().int(),
  /** Null for the quarter's own sales; the earlier quarter a credit note corrects otherwise ('YYYY-Qn'). */
  correctsQuarter: z.string().nullable(),
});
export type OssRow = z.infer<typeof OssRow>;

export const TaxQuarterReports = z.object({
  quarter: TaxQuarter,
  /** First and last day of the quarter, YYYY-MM-DD (invoice dates, Europe/Berlin). */
  from: z.string(),
  to: z.string(),
  zm: z.array(ZmRow),
  oss: z.array(OssRow),
});
export type TaxQuarterReports = z.infer<typeof TaxQuarterReports>;

const ThresholdYear = z.object({
  year: z.number().int(),
  netCents: z.number().int(),
  /** Share of the threshold, in percent with one decimal. */
  percent: z.number(),
});

export const TaxThreshold = z.object({
  thresholdCents: z.number().int(),
  warningPercent: z.number(),
  previousYear: ThresholdYear,
  currentYear: ThresholdYear,
  /**
   * 'exceeded': either year passed 10,000 € (EU consumers pay their country's VAT through the OSS);
   * 'warning': either year reached 80 %; 'ok' otherwise.
   */
  level: z.enum(['ok', 'warning', 'exceeded']),
  /** The German sentence to show, or null while both years are below the warning share. */
  message: z.string().nullable(),
  /** VAT_EU_CONSUMERS: 'threshold' (default) or 'destination' (opted for destination taxation). */
  setting: z.enum(['threshold', 'destination']),
  /** What the setting means, in German. */
  settingText: z.string(),
});
export type TaxThreshold = z.infer<typeof TaxThreshold>;

const euro = (cents: number) => `${(cents / 100).toLocaleString('de-DE', { maximumFractionDigits: 0 })} €`;

/** The threshold figure from the two years' sums and the setting (shared so the page and tests agree). */
export function taxThresholdOf(sums: { previousYear: number; currentYear: number }, year: number, destinationTaxationOpted: boolean): TaxThreshold {
  const limit = OSS_THRESHOLD_NET_CENTS;
  const of = (y: number, netCents: number) => ({ year: y, netCents, percent: Math.round((netCents * 1000) / limit) / 10 });
  const previousYear = of(year - 1, sums.previousYear);
  const currentYear = of(year, sums.currentYear);
  // Exactly 10,000 € stays below (§3a Abs. 5 Satz 3: "nicht überschritten").
  const over = (y: typeof currentYear) => y.netCents > limit;
  const near = (y: typeof currentYear) => y.netCents * 100 >= limit * OSS_THRESHOLD_WARNING_PERCENT;
  const exceeded = over(previousYear) || over(currentYear);
  const warning = !exceeded && (near(previousYear) || near(currentYear));
  let message: string | null = null;
  if (exceeded) {
    const which = over(previousYear) && over(currentYear) ? `im Vorjahr (${previousYear.year}) und im laufenden Jahr (${currentYear.year})`
      : over(previousYear) ? `im Vorjahr (${previousYear.year})` : `im laufenden Jahr (${currentYear.year})`;
    message = destinationTaxationOpted
      ? `Die Lieferschwelle von ${euro(limit)} ist ${which} überschritten. Verbraucher in anderen EU-Staaten zahlen ohnehin die Umsatzsteuer ihres Landes (VAT_EU_CONSUMERS=destination); zur Einstellung threshold können Sie erst zurückkehren, wenn Vorjahr und laufendes Jahr höchstens ${euro(limit)} betragen und die Bindung von zwei Kalenderjahren abgelaufen ist.`
      : `Die Lieferschwelle von ${euro(limit)} ist ${which} überschritten: Verbraucher in anderen EU-Staaten zahlen die Umsatzsteuer ihres Landes, erklärt über das One-Stop-Shop-Verfahren (OSS).`;
  } else if (warning) {
    const which = near(currentYear) ? `im laufenden Jahr (${currentYear.year}) ${currentYear.percent.toLocaleString('de-DE')} %` : `im Vorjahr (${previousYear.year}) ${previousYear.percent.toLocaleString('de-DE')} %`;
    message = destinationTaxationOpted
      ? `Achtung: Die Verkäufe an Verbraucher in anderen EU-Staaten haben ${which} der Lieferschwelle von ${euro(limit)} erreicht. Sie zahlen bereits die Umsatzsteuer ihres Landes (VAT_EU_CONSUMERS=destination).`
      : `Achtung: Die Verkäufe an Verbraucher in anderen EU-Staaten haben ${which} der Lieferschwelle von ${euro(limit)} erreicht. Wird sie überschritten, gilt ab diesem Verkauf die Umsatzsteuer des Kundenlandes (OSS).`;
  }
  return {
    thresholdCents: limit,
    warningPercent: OSS_THRESHOLD_WARNING_PERCENT,
    previousYear,
    currentYear,
    level: exceeded ? 'exceeded' : warning ? 'warning' : 'ok',
    message,
    setting: destinationTaxationOpted ? 'destination' : 'threshold',
    settingText: destinationTaxationOpted
      ? 'VAT_EU_CONSUMERS=destination: Verbraucher in anderen EU-Staaten zahlen unabhängig von der Lieferschwelle die Umsatzsteuer ihres Landes (Verzicht nach §3a Abs. 5 Satz 4 UStG, bindet mindestens zwei Kalenderjahre).'
      : 'VAT_EU_CONSUMERS=threshold: Bis zur Lieferschwelle zahlen Verbraucher in anderen EU-Staaten deutsche Umsatzsteuer; danach die Umsatzsteuer ihres Landes.',
  };
}
