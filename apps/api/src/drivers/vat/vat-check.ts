/**
 * The VAT-ID check (issue 24, §18e UStG): is a customer's VAT ID valid, and what proof do we keep.
 * Three implementations fill this port: the simulated one (default, deterministic), the EU's VIES REST
 * API and the BZSt's eVatR REST API (drivers/vat/index.ts chooses by VAT_CHECK).
 *
 * A check never throws: the services are often down, and a customer is then billed as a consumer with
 * German VAT and told why (`status: 'unavailable'` with a German `message`).
 */

export type VatCheckStatus = 'valid' | 'invalid' | 'unavailable';
export type VatCheckService = 'vies' | 'evatr' | 'simulated';
/** How a given company detail compares with the register (VIES: VALID/INVALID; eVatR: A/B). */
export type VatFieldMatch = 'match' | 'mismatch' | 'unknown';

export interface VatCheckCompany {
  name: string;
  street: string;
  zip: string;
  city: string;
}

export interface VatCheckInput {
  /** ISO 3166-1 alpha-2 of the customer's country (GR for Greece; the VAT prefix EL is derived). */
  country: string;
  /** The customer's VAT ID, with or without its country prefix; spaces, dots and dashes are ignored. */
  vatId: string;
  /** Our own VAT ID: VIES returns a consultation number only for a request naming the requester. */
  requester: { vatId: string };
  /** Given: the services compare it with the register (qualified confirmation). */
  company?: VatCheckCompany;
}

export interface VatCheckMatches {
  name?: VatFieldMatch;
  street?: VatFieldMatch;
  zip?: VatFieldMatch;
  city?: VatFieldMatch;
}

export interface VatCheckResult {
  status: VatCheckStatus;
  checkedAt: Date;
  /** The proof: VIES `requestIdentifier`, eVatR `id`; null when the service gave none. */
  consultationNumber: string | null;
  service: VatCheckService;
  matches?: VatCheckMatches;
  /** German, for the customer: why the ID is invalid or could not be checked. */
  message?: string;
}

export interface VatCheck {
  readonly service: VatCheckService;
  checkVatId(input: VatCheckInput): Promise<VatCheckResult>;
}

/** The VAT prefixes VIES knows: the 27 member states (Greece: EL) and XI for Northern Ireland. */
export const VIES_PREFIXES = ['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'EL', 'ES', 'FI', 'FR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK', 'XI'] as const;

/** The VAT prefix of a country: Greece's VAT IDs start with EL, every other one with the ISO code. */
export function vatPrefix(country: string): string {
  const code = country.trim().toUpperCase();
  return code === 'GR' ? 'EL' : code;
}

export interface SplitVatId {
  prefix: string;
  /** The ID without its prefix, upper case, without spaces, dots and dashes. */
  number: string;
}

/** Splits an ID into prefix and number; the prefix comes from the country (an ID may or may not repeat it). */
export function splitVatId(country: string, vatId: string): SplitVatId {
  const prefix = vatPrefix(country);
  const compact = vatId.toUpperCase().replace(/[\s.\-/]/g, '');
  const number = compact.startsWith(prefix) ? compact.slice(prefix.length) : country.toUpperCase() === 'GR' && compact.startsWith('GR') ? compact.slice(2) : compact;
  return { prefix, number };
}

/**
 * The guard every driver runs before it asks a service: the country must have VAT IDs in VIES and the
 * number must look like one (2–12 letters and digits). The full per-country format check is the tax
 * engine's (`vatIdFormatValid` in @hp/contract); this only keeps nonsense off the wire.
 */
export function precheckVatId(input: VatCheckInput, service: VatCheckService, now: Date): VatCheckResult | null {
  const { prefix, number } = splitVatId(input.country, input.vatId);
  const refuse = (message: string): VatCheckResult => ({ status: 'invalid', checkedAt: now, consultationNumber: null, service, message });
  if (!(VIES_PREFIXES as readonly string[]).includes(prefix)) return refuse('Für dieses Land gibt es keine EU-Umsatzsteuer-Identifikationsnummer, die sich prüfen lässt.');
  if (!/^[0-9A-Z+*]{2,12}$/.test(number)) return refuse('Die Umsatzsteuer-Identifikationsnummer hat nicht das Format dieses Landes.');
  return null;
}

/** The answer when the service could not be asked or gave no decision. */
export function unavailable(service: VatCheckService, now: Date, message: string): VatCheckResult {
  return { status: 'unavailable', checkedAt: now, consultationNumber: null, service, message };
}

export const UNAVAILABLE_MESSAGE = 'Die Prüfung der Umsatzsteuer-Identifikationsnummer ist zurzeit nicht möglich, weil der Prüfdienst nicht antwortet. Bis zu einer erfolgreichen Prüfung berechnen wir die deutsche Umsatzsteuer; wir prüfen vor der nächsten Rechnung erneut.';
export const INVALID_HINT = 'Bitte prüfen Sie Ihre Eingabe; bis dahin berechnen wir die deutsche Umsatzsteuer.';
export const INVALID_MESSAGE = `Die Umsatzsteuer-Identifikationsnummer ist laut Prüfdienst nicht gültig. ${INVALID_HINT}`;

/**
 * POSTs JSON and reads the JSON answer within `timeoutMs` (connect, headers and body together). Network
 * errors and the timeout come back as `{ error }`, never as a throw.
 */
export async function postJson(url: string, body: unknown, timeoutMs: number): Promise<{ status: number; json: unknown } | { error: 'timeout' | 'network' }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: response.status, json };
  } catch {
    return { error: controller.signal.aborted ? 'timeout' : 'network' };
  } finally {
    clearTimeout(timer);
  }
}
