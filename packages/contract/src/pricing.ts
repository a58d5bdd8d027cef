import { formatNumberDe } from './format-number.ts';

/**
 * The configurator's price (public spec §9), zod-free so the shop page can show it live without the
 * schema library. The same function is recomputed by the server at checkout; the client never sends a
 * price.
 *
 * Monthly base = Windows surcharge 5 € + 1.15 € per core + 0.10 € per GB RAM + 0.025 € per GB storage.
 * Price = base × months × 1.22, minus the duration discount. Everything is integer arithmetic in
 * tenths of a cent until one final rounding (half up) to cents, so no float error reaches an invoice.
 */

export const CONFIG_LIMITS = {
  cpu: { min: 1, max: 88, step: 1 },
  ram: { min: 2, max: 512, step: 2 },
  storage: { min: 25, max: 500, step: 5 },
  months: { min: 1, max: 12, step: 1 },
} as const;

export const LINUX_DISTROS = ['Debian 12', 'Debian 11', 'Ubuntu 25.04', 'Ubuntu 24.10', 'Ubuntu 24.04', 'Ubuntu 22.04', 'Ubuntu 20.04'] as const;
/** Windows Server 2025 is sent as 2025 (the spec's page sent 2019; ARCHITECTURE §6). */
export const WINDOWS_VERSIONS = ['Windows Server 2025', 'Windows Server 2022'] as const;
export type LinuxDistro = (typeof LINUX_DISTROS)[number];
export type WindowsVersion = (typeof WINDOWS_VERSIONS)[number];
export type OsFamily = 'linux' | 'windows';

/** Spec §2.14: choosing Linux selects Debian 12, choosing Windows selects Windows Server 2025. */
export const DEFAULT_DISTRO: LinuxDistro = 'Debian 12';
export const DEFAULT_WINDOWS: WindowsVersion = 'Windows Server 2025';

export interface PriceConfig {
  os: OsFamily;
  cpu: number;
  ram: number;
  storage: number;
  months: number;
}

/** In tenths of a cent ("milli-euro") per month; the virtual data center's pool uses the same unit prices. */
const WINDOWS_SURCHARGE = 5000;
export const PER_CORE_MILLI = 1150;
export const PER_GB_RAM_MILLI = 100;
export const PER_GB_STORAGE_MILLI = 25;
/** 1.22 as a percentage. */
const FACTOR_PERCENT = 122;

/** Spec §9: 1–2 months none, 3–5 months 5 %, 6–8 months 10 %, 9–12 months 15 %. */
export function durationDiscountPercent(months: number): number {
  if (months >= 9) return 15;
  if (months >= 6) return 10;
  if (months >= 3) return 5;
  return 0;
}

export interface PriceBreakdown {
  /** What is charged: gross, in cents. */
  totalCents: number;
  discountPercent: number;
  /** Monthly list prices (before the factor and the discount), in cents, rounded for display. */
  monthly: { cpuCents: number; ramCents: number; storageCents: number; osCents: number; totalCents: number };
}

const roundDiv = (numerator: number, divisor: number) => Math.floor((numerator + divisor / 2) / divisor);

export function monthlyBaseMilli(config: Pick<PriceConfig, 'os' | 'cpu' | 'ram' | 'storage'>): number {
  return (config.os === 'windows' ? WINDOWS_SURCHARGE : 0) + PER_CORE_MILLI * config.cpu + PER_GB_RAM_MILLI * config.ram + PER_GB_STORAGE_MILLI * config.storage;
}

/**
 * A monthly list price in milli-euro for a term: × months × 1.22 × (1 − duration discount), rounded once
 * (half up) to cents. Every configured product's price (root server, virtual data center) goes through it.
 */
export function termPriceCents(monthlyMilli: number, months: number): number {
  const discount = durationDiscountPercent(months);
  // milli-euro × months × 122/100 × (100 − d)/100, then /10 to cents: one division at the end.
  return roundDiv(monthlyMilli * months * FACTOR_PERCENT * (100 - discount), 100 * 100 * 10);
}

/** Milli-euro to cents, half up (monthly list prices for display). */
export const milliToCents = (milli: number) => roundDiv(milli, 10);

/** The price in cents for the whole rental length. */
export function priceCents(config: PriceConfig): number {
  return termPriceCents(monthlyBaseMilli(config), config.months);
}

export function priceBreakdown(config: PriceConfig): PriceBreakdown {
  const toCents = milliToCents;
  return {
    totalCents: priceCents(config),
    discountPercent: durationDiscountPercent(config.months),
    monthly: {
      cpuCents: toCents(PER_CORE_MILLI * config.cpu),
      ramCents: toCents(PER_GB_RAM_MILLI * config.ram),
      storageCents: toCents(PER_GB_STORAGE_MILLI * config.storage),
      osCents: config.os === 'windows' ? toCents(WINDOWS_SURCHARGE) : 0,
      totalCents: toCents(monthlyBaseMilli(config)),
    },
  };
}

/** Orders and invoices split the gross amount into net and 19 % VAT (portal spec §9: net = gross / 1.19). */
export const VAT_PERCENT = 19;
export function splitGross(grossCents: number): { netCents: number; vatCents: number; grossCents: number } {
  const netCents = roundDiv(grossCents * 100, 100 + VAT_PERCENT);
  return { netCents, vatCents: grossCents - netCents, grossCents };
}

/** Spec §9: 'Abrechnung' for one month, otherwise every N months. */
export function paymentLabel(months: number): string {
  return months === 1 ? 'Abrechnung' : `alle ${months} Monate`;
}

/** Portal spec §9: 1 month 'Monatlich', otherwise 'alle N Monate'. */
export function billingPeriodLabel(months: number): string {
  return months === 1 ? 'Monatlich' : `alle ${months} Monate`;
}

/** Cents as euros in German notation with two decimals, e.g. 123456 → "1.234,56" (formatNumberDe). */
export const formatDecimalCents = (cents: number) => formatNumberDe(cents / 100, 2, 2);

/** 1234 → "12,34 €" (with a no-break space, as Intl's de-DE currency format). */
export function formatEuro(cents: number): string {
  return `${formatDecimalCents(cents)}\u00a0€`;
}

/**
 * Adds months to a date, clamped to the month end (31 Jan + 1 month = 28/29 Feb), as the portal's
 * "next billing date" (portal spec §5). Works on the UTC calendar date.
 */
export function addMonthsClamped(date: Date, months: number): Date {
  if (!Number.isInteger(months) || months < 0) throw new RangeError('Ungültige Monatsangabe');
  if (Number.isNaN(date.getTime())) throw new RangeError('Ungültiges Datum');
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(date.getUTCDate(), lastDay);
  return new Date(Date.UTC(y, m, day, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()));
}

/** DD-MM-YYYY (spec: order and invoice dates), in Europe/Berlin. */
export function formatDayMonthYear(date: Date | string): string {
  const d = typeof date === 'string' ? new Date(date) : date;
  const parts = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' }).formatToParts(d);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('day')}-${get('month')}-${get('year')}`;
}
