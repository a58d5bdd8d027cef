/* Zod-free on purpose: the prerendered /domain page imports this through `@hp/contract/domain-tlds`,
 * so the public bundle carries neither zod nor the contract's locale set-up (decision 004). */
import { domainToUnicode, hostnameToAscii } from './domain-names.ts';
import { mixesScripts } from './domain-scripts.ts';

/**
 * Domains (public spec §2.5 and §9, issue 13): the extensions we sell with their indicative prices, the
 * registration terms per extension, and the search input's parsing with German reasons. Shared by the
 * /domain page (validation while typing) and the API (the registrar driver never sees an invalid name).
 */

export const DOMAIN_TLDS = ['de', 'com', 'net', 'org', 'eu', 'info'] as const;
export type DomainTld = (typeof DOMAIN_TLDS)[number];

export interface DomainTldInfo {
  tld: DomainTld;
  /** Indicative gross price per month in cents (spec §9); billed per year, see domainYearCents. */
  monthlyCents: number;
  /** Shown as "beliebt" in the extensions grid (spec §9: .de and .com). */
  popular: boolean;
  /** Registration and renewal terms in whole years the registry allows. */
  years: { min: number; max: number };
  /** Shortest second-level label the registry accepts (EURid: 2 characters for .eu). */
  minLength: number;
}

export const DOMAIN_TLD_INFO: Record<DomainTld, DomainTldInfo> = {
  de: { tld: 'de', monthlyCents: 90, popular: true, years: { min: 1, max: 10 }, minLength: 1 },
  com: { tld: 'com', monthlyCents: 120, popular: true, years: { min: 1, max: 10 }, minLength: 1 },
  net: { tld: 'net', monthlyCents: 120, popular: false, years: { min: 1, max: 10 }, minLength: 1 },
  org: { tld: 'org', monthlyCents: 120, popular: false, years: { min: 1, max: 10 }, minLength: 1 },
  eu: { tld: 'eu', monthlyCents: 90, popular: false, years: { min: 1, max: 10 }, minLength: 2 },
  info: { tld: 'info', monthlyCents: 90, popular: false, years: { min: 1, max: 10 }, minLength: 1 },
};

export function isDomainTld(value: string): value is DomainTld {
  return (DOMAIN_TLDS as readonly string[]).includes(value);
}

/** Gross cents per year of registration or renewal: 12 × the indicative month price. */
export function domainYearCents(tld: DomainTld): number {
  return DOMAIN_TLD_INFO[tld].monthlyCents * 12;
}

/** The provider's own nameservers ("Musterhost-DNS"): the default for a new domain and a one-click choice. */
export const PROVIDER_NAMESERVERS = ['ns1.musterhost.de', 'ns2.musterhost.de'] as const;
export const PROVIDER_DNS_LABEL = 'Musterhost-DNS';

/** How many names one search may hold. */
export const DOMAIN_SEARCH_MAX = 10;

export const domainMessages = {
  empty: 'Bitte geben Sie einen Domainnamen ein.',
  tooMany: `Bitte suchen Sie nach höchstens ${DOMAIN_SEARCH_MAX} Namen auf einmal.`,
  characters: 'Erlaubt sind nur Buchstaben (auch Umlaute), Ziffern und Bindestriche.',
  labelTooLong: 'Der Name ist zu lang: höchstens 63 Zeichen (Umlaute zählen nach der Umwandlung mehrfach).',
  totalTooLong: 'Der Domainname ist zu lang: höchstens 253 Zeichen.',
  hyphenEdge: 'Der Name darf nicht mit einem Bindestrich beginnen oder enden.',
  hyphens34: 'Bindestriche an der 3. und 4. Stelle sind nur bei umgewandelten Umlaut-Domains (xn--) erlaubt.',
  tldMissing: 'Bitte geben Sie den Namen mit Endung ein (z. B. meine-firma.de).',
  subdomain: 'Bitte geben Sie nur den Namen mit Endung ein, ohne Subdomain (z. B. meine-firma.de).',
  tldNotOffered: (tld: string) => `Die Endung .${tld} bieten wir nicht an.`,
  tooShort: (tld: DomainTld, min: number) => `Namen unter .${tld} müssen mindestens ${min} Zeichen lang sein.`,
  mixedScripts: 'Der Name mischt Buchstaben verschiedener Schriften (zum Beispiel lateinische und kyrillische). Bitte verwenden Sie Buchstaben einer Schrift.',
  premiumWithoutPrice: 'Premium-Domain, derzeit nicht bestellbar: Die Registry hat uns keinen Preis genannt. Bitte wählen Sie einen anderen Namen.',
} as const;

/** One name of a search: valid (with its ASCII and readable form) or invalid with a German reason. */
export type ParsedDomainName =
  | {
      valid: true;
      /** What the visitor typed for this name (trimmed). */
      input: string;
      /** Second-level label, ASCII (punycode). */
      sld: string;
      /** Only when the visitor typed an extension; otherwise every offered extension is checked. */
      tld?: DomainTld;
      /** `sld.tld` in ASCII when a TLD was given, otherwise the ASCII SLD. */
      ascii: string;
      /** The same, readable (Umlaute). */
      unicode: string;
    }
  | { valid: false; input: string; reason: string };

export interface DomainSearch {
  names: ParsedDomainName[];
  /** Set when the input as a whole cannot be searched (nothing typed, too many names). */
  error?: string;
}

const LABEL_CHARS = /^[a-z0-9-]+$/;

function invalid(input: string, reason: string): ParsedDomainName {
  return { valid: false, input, reason };
}

/**
 * Checks one name, with or without an extension. `www.` and a pasted `https://…/` are dropped; the SLD is
 * converted like normaliseDomain does (punycode), then checked label by label with a precise reason.
 */
export function parseDomainName(raw: string): ParsedDomainName {
  const input = raw.trim();
  const text = input.toLowerCase().replace(/^https?:\/\//, '').replace(/\/.*$/, '').replace(/\.$/, '').replace(/^www\./, '');
  if (!text) return invalid(input, domainMessages.empty);

  // A numeric last label would make the URL parser read the name as an IPv4 address.
  const lastLabel = text.slice(text.lastIndexOf('.') + 1);
  if (text.includes('.') && /^\d+$/.test(lastLabel)) return invalid(input, domainMessages.tldNotOffered(lastLabel));
  const ascii = hostnameToAscii(text.includes('.') ? text : `${text}.invalid`);
  if (!ascii) return invalid(input, domainMessages.characters);
  if (ascii.length > 253) return invalid(input, domainMessages.totalTooLong);
  const labels = ascii.split('.');
  if (!text.includes('.')) labels.pop();
  if (labels.length > 2 || labels.some((l) => l === '')) return invalid(input, labels.length > 2 && labels.every((l) => l) ? domainMessages.subdomain : domainMessages.characters);

  const [sld = '', tldText] = labels;
  if (!sld) return invalid(input, domainMessages.empty);
  if (!LABEL_CHARS.test(sld)) return invalid(input, domainMessages.characters);
  if (sld.length > 63) return invalid(input, domainMessages.labelTooLong);
  if (sld.startsWith('-') || sld.endsWith('-')) return invalid(input, domainMessages.hyphenEdge);
  if (sld.slice(2, 4) === '--' && !sld.startsWith('xn--')) return invalid(input, domainMessages.hyphens34);
  // A look-alike such as pаypal.de with a Cyrillic а: refused in the search and at checkout alike.
  if (sld.startsWith('xn--') && mixesScripts(domainToUnicode(sld))) return invalid(input, domainMessages.mixedScripts);

  if (tldText === undefined) return { valid: true, input, sld, ascii: sld, unicode: domainToUnicode(sld) };
  if (!isDomainTld(tldText)) return invalid(input, domainMessages.tldNotOffered(domainToUnicode(tldText)));
  const problem = sldProblemFor(sld, tldText);
  if (problem) return invalid(input, problem);
  const full = `${sld}.${tldText}`;
  return { valid: true, input, sld, tld: tldText, ascii: full, unicode: domainToUnicode(full) };
}

/** What a registry demands of an otherwise valid SLD under one extension (null: fine). */
export function sldProblemFor(sld: string, tld: DomainTld): string | null {
  const min = DOMAIN_TLD_INFO[tld].minLength;
  // Registries count the characters of the readable name, not of its punycode.
  if ([...domainToUnicode(sld)].length < min) return domainMessages.tooShort(tld, min);
  return null;
}

/**
 * Splits a search into names (spaces, commas, semicolons, new lines; duplicates once) and checks each.
 * More than DOMAIN_SEARCH_MAX names: the first ones are checked and `error` says why the rest is not.
 */
export function parseDomainSearch(input: string): DomainSearch {
  const parts = [...new Set(input.split(/[\s,;]+/).map((p) => p.trim().toLowerCase()).filter(Boolean))];
  if (!parts.length) return { names: [], error: domainMessages.empty };
  const names = parts.slice(0, DOMAIN_SEARCH_MAX).map(parseDomainName);
  return parts.length > DOMAIN_SEARCH_MAX ? { names, error: domainMessages.tooMany } : { names };
}

/** The full ASCII names to check for a valid SLD: one per offered extension, in the grid's order. */
export function domainCandidates(sld: string): string[] {
  return DOMAIN_TLDS.map((tld) => `${sld}.${tld}`);
}

/**
 * A full name (`sld.tld`) the registrar driver may be asked about: valid, with an offered extension.
 * Returns the ASCII name, or the German reason why not.
 */
export function validateDomainName(name: string): { ascii: string; unicode: string; sld: string; tld: DomainTld } | { reason: string } {
  const parsed = parseDomainName(name);
  if (!parsed.valid) return { reason: parsed.reason };
  if (!parsed.tld) return { reason: domainMessages.tldMissing };
  return { ascii: parsed.ascii, unicode: parsed.unicode, sld: parsed.sld, tld: parsed.tld };
}

export const DOMAIN_AVAILABILITY = ['free', 'taken', 'invalid', 'premium'] as const;
export type DomainAvailabilityStatus = (typeof DOMAIN_AVAILABILITY)[number];
export const DOMAIN_AVAILABILITY_LABEL: Record<DomainAvailabilityStatus, string> = {
  free: 'Verfügbar', taken: 'Vergeben', invalid: 'Ungültig', premium: 'Premium-Domain',
};
