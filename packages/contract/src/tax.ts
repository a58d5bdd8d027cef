/**
 * The tax engine (issue 24, decision 030): which VAT a sale carries, by the place of supply of an
 * electronic service (§3a Abs. 5 Satz 2 UStG: servers, hosting, storage and domains all are). Pure and
 * zod-free, so the shop page, the server's prices, the invoices and the reports share one answer.
 *
 * - German customers: 19 % German VAT, always (§3a Abs. 1 and 2 UStG).
 * - EU business customer with a confirmed VAT ID: place of supply at the customer (§3a Abs. 2 UStG),
 *   no German VAT, the customer owes the tax (reverse charge, category AE, §14a Abs. 1 UStG, ZM §18a).
 * - EU business customer without a confirmed VAT ID (invalid, check unavailable, not yet checked,
 *   none given): billed as a consumer, and the treatment says why (`explanation`).
 * - EU consumer (§3a Abs. 5 UStG): the customer's country's rate through the One-Stop-Shop (§18j
 *   UStG), unless the cross-border consumer sales stayed at or below 10,000 € net in the previous and
 *   the current calendar year (§3a Abs. 5 Satz 3) and the company did not opt for destination taxation
 *   (Satz 4–5): then German VAT.
 * - Outside the EU: not taxable in Germany (business: §3a Abs. 2, consumer: §3a Abs. 4 UStG),
 *   category O. A consumer in the Swiss VAT area (Switzerland, Liechtenstein) pays Swiss VAT when the
 *   company is registered there (setting `swissRegistered`).
 */
import { type CountryCode, type EuCountryCode, countryName, isCountryCode, isEuMember } from './countries.ts';
import { splitGross } from './pricing.ts';

// ---------------------------------------------------------------------------------------------------
// Standard rates

export interface VatRatePeriod {
  /** The standard rate in percent, e.g. 25.5. */
  ratePercent: number;
  /** First day (in the country's own calendar) the rate applies, YYYY-MM-DD. */
  from: string;
}

export type RateCountry = EuCountryCode | 'CH';

/**
 * The standard VAT rate of each EU member state, and Switzerland's, with the day each took effect,
 * oldest first; a period lasts until the next one starts. Electronic services are taxed at the standard
 * rate everywhere (no member state applies a reduced rate to hosting).
 *
 * Source: European Commission, "VAT rates applied in the Member States of the European Union"
 * (taxation-customs.ec.europa.eu, the rates table and the "Taxes in Europe" database) and the national
 * announcements named per line. Checked on 2026-11-27 against stored copies of public pages:
 * - the current standard rates of all 27 states: a mid-2025 table of EU standard rates (mindlink.lv,
 *   "VAT rates in EU"), the changes of 2025 one by one (EE, RO, SK below) and an overview of the 2026
 *   changes (easytax.co, "EU new VAT rates from 2026": only reduced rates changed, no standard rate).
 *   A change announced after May 2026 would not be in those sources;
 * - the day each rate took effect, for AT, BE, BG, CY, CZ, DE, EE, ES, FI, GR, IT, LU, NL, RO, SK, CH
 *   and Ireland's 2020–21 period (press releases and authority pages named per line, a public rates history for AT/BE/BG/CY/CZ).
 * NOT re-checked against a stored source: the start days of the older rates of DK, FR, HR, HU, LT, LV, MT,
 * PL, PT, SE and SI, Ireland's 2012 rise and the first EE period; they are the Commission's and matter only for supplies
 * before the OSS began on 1 July 2021. See decision 030, "What a tax adviser should confirm".
 */
export const VAT_RATE_HISTORY: Readonly<Record<RateCountry, readonly VatRatePeriod[]>> = {
  AT: [{ ratePercent: 20, from: '1984-01-01' }],
  BE: [{ ratePercent: 21, from: '1996-01-01' }],
  BG: [{ ratePercent: 20, from: '1999-01-01' }],
  // 18 % → 19 % on 13 January 2014.
  CY: [{ ratePercent: 19, from: '2014-01-13' }],
  CZ: [{ ratePercent: 21, from: '2013-01-01' }],
  // Temporary 16 % for the second half of 2020 (Zweites Corona-Steuerhilfegesetz, §28 Abs. 1 UStG).
  DE: [
    { ratePercent: 19, from: '2007-01-01' },
    { ratePercent: 16, from: '2020-07-01' },
    { ratePercent: 19, from: '2021-01-01' },
  ],
  DK: [{ ratePercent: 25, from: '1992-01-01' }],
  // 22 % from 2024 (government decision of 12 June 2023), 24 % from 1 July 2025 (Estonian Tax and
  // Customs Board; made permanent in 2025).
  EE: [
    { ratePercent: 20, from: '2009-07-01' },
    { ratePercent: 22, from: '2024-01-01' },
    { ratePercent: 24, from: '2025-07-01' },
  ],
  // 18 % → 21 % on 1 September 2012 (Real Decreto-ley 20/2012).
  ES: [{ ratePercent: 21, from: '2012-09-01' }],
  // 25.5 % from 1 September 2024 (Finnish Tax Administration, vero.fi "The general VAT rate is 25.5 % as of
  // 1 September 2024").
  FI: [
    { ratePercent: 24, from: '2013-01-01' },
    { ratePercent: 25.5, from: '2024-09-01' },
  ],
  FR: [{ ratePercent: 20, from: '2014-01-01' }],
  // 23 % → 24 % on 1 June 2016 (circular POL 1061/2016).
  GR: [{ ratePercent: 24, from: '2016-06-01' }],
  HR: [{ ratePercent: 25, from: '2012-03-01' }],
  HU: [{ ratePercent: 27, from: '2012-01-01' }],
  // Temporary 21 % from 1 September 2020 to 28 February 2021 (Finance Act 2020, COVID-19 measure).
  IE: [
    { ratePercent: 23, from: '2012-01-01' },
    { ratePercent: 21, from: '2020-09-01' },
    { ratePercent: 23, from: '2021-03-01' },
  ],
  // 21 % → 22 % on 1 October 2013.
  IT: [{ ratePercent: 22, from: '2013-10-01' }],
  LT: [{ ratePercent: 21, from: '2009-09-01' }],
  // Temporary 16 % for 2023 (law of 26 October 2022), 17 % again from 2024 (AED circular 812-1).
  LU: [
    { ratePercent: 17, from: '2015-01-01' },
    { ratePercent: 16, from: '2023-01-01' },
    { ratePercent: 17, from: '2024-01-01' },
  ],
  LV: [{ ratePercent: 21, from: '2012-07-01' }],
  MT: [{ ratePercent: 18, from: '2004-01-01' }],
  NL: [{ ratePercent: 21, from: '2012-10-01' }],
  PL: [{ ratePercent: 23, from: '2011-01-01' }],
  PT: [{ ratePercent: 23, from: '2011-01-01' }],
  // 21 % from 1 August 2025 (Law 141/2025, Official Gazette no. 699 of 25 July 2025).
  RO: [
    { ratePercent: 19, from: '2017-01-01' },
    { ratePercent: 21, from: '2025-08-01' },
  ],
  SE: [{ ratePercent: 25, from: '1990-07-01' }],
  SI: [{ ratePercent: 22, from: '2013-07-01' }],
  // 23 % from 1 January 2025 (Act No. 278/2024, Article VII).
  SK: [
    { ratePercent: 20, from: '2011-01-01' },
    { ratePercent: 23, from: '2025-01-01' },
  ],
  // Swiss Normalsatz (Art. 25 MWSTG): 7.7 % from 2018, 8.1 % from 1 January 2024 (AHV 21, ESTV
  // announcement of 12 December 2022). Liechtenstein applies the Swiss rates (VAT treaty).
  CH: [
    { ratePercent: 7.7, from: '2018-01-01' },
    { ratePercent: 8.1, from: '2024-01-01' },
  ],
};

export const taxMessages = {
  unknownCountry: 'Bitte wählen Sie ein Land aus der Liste.',
  noRateForCountry: (country: string) => `Für ${country} ist kein Umsatzsteuersatz hinterlegt.`,
  noRateForDate: (country: string) => `Für ${country} ist für dieses Datum kein Umsatzsteuersatz hinterlegt.`,
  invalidDate: 'Ungültiges Datum',
  vatIdWrongFormat: (country: string) =>
    `Die Umsatzsteuer-Identifikationsnummer hat nicht das Format für ${country}. Bitte prüfen Sie Ihre Eingabe.`,
  vatIdNotEu: 'Eine Umsatzsteuer-Identifikationsnummer können wir nur für Unternehmen in der EU prüfen.',
  // Why a business customer in another EU state is billed as a consumer; `treatment` says how.
  vatIdInvalid: (treatment: string) =>
    `Ihre USt-IdNr. wurde bei der Prüfung nicht als gültig bestätigt. Deshalb berechnen wir Ihnen wie einem Privatkunden ${treatment}. Sobald Ihre USt-IdNr. bestätigt ist, erhalten Sie Nettopreise ohne deutsche Umsatzsteuer (Reverse Charge).`,
  vatIdUnavailable: (treatment: string) =>
    `Der Prüfdienst für Umsatzsteuer-Identifikationsnummern ist gerade nicht erreichbar, deshalb konnten wir Ihre USt-IdNr. nicht bestätigen. Bis zur Bestätigung berechnen wir Ihnen wie einem Privatkunden ${treatment}.`,
  vatIdUnchecked: (treatment: string) =>
    `Ihre USt-IdNr. ist noch nicht geprüft. Bis zur Bestätigung berechnen wir Ihnen wie einem Privatkunden ${treatment}.`,
  vatIdMissing: (treatment: string) =>
    `Ohne bestätigte USt-IdNr. berechnen wir Ihnen wie einem Privatkunden ${treatment}. Bitte geben Sie Ihre USt-IdNr. an, damit wir Ihnen Nettopreise (Reverse Charge) berechnen können.`,
} as const;

/** The texts an invoice must carry for each treatment (German, as printed). */
export const taxInvoiceNotes = {
  /** §14a Abs. 1 UStG requires these words; the recipient owes the tax under Art. 196 MwStSystRL. */
  reverseCharge: 'Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge, Art. 196 MwStSystRL)',
  notTaxableBusiness: 'Nicht im Inland steuerbare Leistung (§3a Abs. 2 UStG)',
  notTaxableConsumer: 'Nicht im Inland steuerbare Leistung (§3a Abs. 4 UStG)',
  oss: (country: string) => `Leistungsort ${country} (§3a Abs. 5 UStG); die Umsatzsteuer wird im One-Stop-Shop-Verfahren erklärt (§18j UStG).`,
  swiss: 'Leistungsort Schweiz; Schweizer Mehrwertsteuer (MWST)',
} as const;

/** 'YYYY-MM-DD' of a date in Germany (the supplier's calendar decides the rate's day). */
function berlinDay(date: Date | string): string {
  if (typeof date === 'string') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) throw new RangeError(taxMessages.invalidDate);
    return date;
  }
  if (Number.isNaN(date.getTime())) throw new RangeError(taxMessages.invalidDate);
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

/** The standard rate of an EU member state or Switzerland on a day (a Date counts in German time). */
export function standardRate(country: RateCountry, date: Date | string): number {
  const periods = (VAT_RATE_HISTORY as Partial<Record<string, readonly VatRatePeriod[]>>)[country];
  if (!periods) throw new RangeError(taxMessages.noRateForCountry(countryName(country)));
  const day = berlinDay(date);
  let rate: number | undefined;
  for (const period of periods) if (period.from <= day) rate = period.ratePercent;
  if (rate === undefined) throw new RangeError(taxMessages.noRateForDate(countryName(country)));
  return rate;
}

// ---------------------------------------------------------------------------------------------------
// VAT-ID formats

/**
 * The structure of each member state's VAT ID after its prefix, from the European Commission's VIES
 * FAQ "VAT identification number structure" (ec.europa.eu/taxation_customs/vies, the table of formats;
 * "9" a digit, "X" a letter or digit, "S" a letter, digit, "+" or "*", "L" a letter), read from a stored
 * copy of that table. A format check only: whether the number exists is the VAT-ID check's question
 * (§18e UStG, driver `VAT_CHECK`).
 */
const VAT_ID_PATTERNS: Readonly<Record<EuCountryCode, RegExp>> = {
  AT: /^U\d{8}$/, // ATU99999999
  BE: /^[01]\d{9}$/, // BE0999999999; numbers starting with 1 are issued since 2023
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/, // CY99999999L
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/, // written as 4 blocks of 2 digits
  EE: /^\d{9}$/,
  ES: /^(?:[A-Z]\d{7}[A-Z0-9]|\d{8}[A-Z])$/, // ESX9999999X: first or last a letter
  FI: /^\d{8}$/,
  FR: /^[0-9A-HJ-NP-Z]{2}\d{9}$/, // FRXX999999999: the key may be letters except I and O
  GR: /^\d{9}$/, // EL999999999
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(?:\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/, // IE9999999L, IE9999999WI, old IE9S99999L
  IT: /^\d{11}$/,
  LT: /^(?:\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/, // NL999999999B99
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^[1-9]\d{1,9}$/, // 2 to 10 digits
  SE: /^\d{10}01$/, // 12 digits ending in 01
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
};

/**
 * The VAT ID in its canonical form (prefix + number, upper case, no separators), or null when it does
 * not have the country's format. Spaces, dots, dashes and slashes are ignored; the prefix may be given or
 * left out (Greece: EL, and GR as typed by many).
 */
export function normalizeVatId(country: string, id: string): string | null {
  if (!isEuMember(country)) return null;
  const prefix = country === 'GR' ? 'EL' : country;
  let number = id.toUpperCase().replace(/[\s.\-/]/g, '');
  if (number.startsWith(prefix)) number = number.slice(prefix.length);
  else if (country === 'GR' && number.startsWith('GR')) number = number.slice(2);
  return VAT_ID_PATTERNS[country].test(number) ? prefix + number : null;
}

export function vatIdFormatValid(country: string, id: string): boolean {
  return normalizeVatId(country, id) !== null;
}

/** The German message for an ID that fails the format check (or null when it passes). */
export function vatIdFormatMessage(country: string, id: string): string | null {
  if (!isEuMember(country)) return taxMessages.vatIdNotEu;
  return vatIdFormatValid(country, id) ? null : taxMessages.vatIdWrongFormat(countryName(country));
}

// ---------------------------------------------------------------------------------------------------
// The engine

/** EN 16931 VAT category codes (UNTDID 5305): standard rate, reverse charge, not subject to VAT. */
export type TaxCategory = 'S' | 'AE' | 'O';
export type VatIdStatus = 'valid' | 'invalid' | 'unavailable' | 'unchecked';

/** 10,000 € net (§3a Abs. 5 Satz 3 UStG), in cents. */
export const OSS_THRESHOLD_NET_CENTS = 1_000_000;

export interface TaxInput {
  sellerCountry: 'DE';
  customerCountry: CountryCode;
  business: boolean;
  /** The last check of the customer's VAT ID; missing when none was given. */
  vatId?: { status: VatIdStatus };
  /**
   * Net cross-border consumer sales to other EU states in cents (the sum §3a Abs. 5 Satz 3 counts).
   * `currentYear` includes the sale being taxed: the sale that crosses the threshold is already taxed
   * in the customer's country.
   */
  crossBorderConsumerNetCents: { previousYear: number; currentYear: number };
  /** The company opted for destination taxation below the threshold (§3a Abs. 5 Satz 4). */
  destinationTaxationOpted: boolean;
  /** The company is registered for Swiss VAT (MWST). */
  swissRegistered: boolean;
}

export interface TaxTreatment {
  ratePercent: number;
  category: TaxCategory;
  exemptionReasonCode?: 'VATEX-EU-AE' | 'VATEX-EU-O';
  /** What the invoice must say about the tax ('' for plain German VAT). */
  invoiceNote: string;
  /** Consumers see gross prices, business customers net prices. */
  priceMode: 'gross' | 'net';
  /** The German suffix after a price: "inkl. 19 % USt.", "zzgl. USt.", "Reverse Charge", … */
  priceLabel: string;
  /** Set when the customer is treated differently from what they asked for, and why (German). */
  explanation?: string;
  /** The country whose tax applies, ISO code (DE when German VAT is charged). */
  placeOfSupply: CountryCode;
  /** Declared through the One-Stop-Shop (§18j UStG). */
  oss: boolean;
  /** Reported in the Zusammenfassende Meldung (§18a UStG). */
  zm: boolean;
}

const percent = (rate: number) => `${String(rate).replace('.', ',')} %`;

/** Monaco is French VAT territory (Art. 7 MwStSystRL); every other country is its own. */
const vatCountry = (country: CountryCode): CountryCode => (country === 'MC' ? 'FR' : country);
/** Liechtenstein forms one VAT area with Switzerland (VAT treaty of 1994). */
const inSwissVatArea = (country: CountryCode) => country === 'CH' || country === 'LI';

export function taxTreatment(input: TaxInput, date: Date | string): TaxTreatment {
  if (!isCountryCode(input.customerCountry)) throw new RangeError(taxMessages.unknownCountry);
  const country = vatCountry(input.customerCountry);

  const german = (business: boolean): TaxTreatment => {
    const rate = standardRate('DE', date);
    return {
      ratePercent: rate,
      category: 'S',
      invoiceNote: '',
      priceMode: business ? 'net' : 'gross',
      priceLabel: business ? 'zzgl. USt.' : `inkl. ${percent(rate)} USt.`,
      placeOfSupply: 'DE',
      oss: false,
      zm: false,
    };
  };

  if (country === 'DE') return german(input.business);

  if (isEuMember(country)) {
    if (input.business && input.vatId?.status === 'valid') {
      return {
        ratePercent: 0,
        category: 'AE',
        exemptionReasonCode: 'VATEX-EU-AE',
        invoiceNote: taxInvoiceNotes.reverseCharge,
        priceMode: 'net',
        priceLabel: 'Reverse Charge',
        placeOfSupply: country,
        oss: false,
        zm: true,
      };
    }
    const { previousYear, currentYear } = input.crossBorderConsumerNetCents;
    const belowThreshold = previousYear <= OSS_THRESHOLD_NET_CENTS && currentYear <= OSS_THRESHOLD_NET_CENTS;
    let treatment: TaxTreatment;
    let how: string;
    if (belowThreshold && !input.destinationTaxationOpted) {
      treatment = german(false);
      how = `${percent(treatment.ratePercent)} deutsche Umsatzsteuer`;
    } else {
      const rate = standardRate(country, date);
      treatment = {
        ratePercent: rate,
        category: 'S',
        invoiceNote: taxInvoiceNotes.oss(countryName(country)),
        priceMode: 'gross',
        priceLabel: `inkl. ${percent(rate)} USt.`,
        placeOfSupply: country,
        oss: true,
        zm: false,
      };
      how = `die Umsatzsteuer Ihres Landes (${percent(rate)})`;
    }
    if (input.business) treatment.explanation = explain(input.vatId?.status, how);
    return treatment;
  }

  if (!input.business && input.swissRegistered && inSwissVatArea(country)) {
    const rate = standardRate('CH', date);
    return {
      ratePercent: rate,
      category: 'S',
      invoiceNote: taxInvoiceNotes.swiss,
      priceMode: 'gross',
      priceLabel: `inkl. ${percent(rate)} MWST`,
      placeOfSupply: country,
      oss: false,
      zm: false,
    };
  }

  return {
    ratePercent: 0,
    category: 'O',
    exemptionReasonCode: 'VATEX-EU-O',
    invoiceNote: input.business ? taxInvoiceNotes.notTaxableBusiness : taxInvoiceNotes.notTaxableConsumer,
    priceMode: input.business ? 'net' : 'gross',
    priceLabel: 'ohne USt. (nicht im Inland steuerbar)',
    placeOfSupply: country,
    oss: false,
    zm: false,
  };
}

function explain(status: VatIdStatus | undefined, how: string): string {
  switch (status) {
    case 'invalid':
      return taxMessages.vatIdInvalid(how);
    case 'unavailable':
      return taxMessages.vatIdUnavailable(how);
    case 'unchecked':
      return taxMessages.vatIdUnchecked(how);
    default:
      return taxMessages.vatIdMissing(how);
  }
}

const roundDiv = (numerator: number, divisor: number) => Math.floor((numerator + divisor / 2) / divisor);

/**
 * The price a customer pays for a product whose list price is a German gross price (issue 24: the
 * net price, German gross ÷ 1.19, is the same for everyone). German VAT keeps the list price exactly
 * (`splitGross`); another rate adds its VAT to that net price, rounded half up to the cent; no VAT
 * (AE, O) leaves the net price.
 */
export function priceFor(germanGrossCents: number, treatment: Pick<TaxTreatment, 'ratePercent' | 'placeOfSupply' | 'category'>): { netCents: number; vatCents: number; grossCents: number } {
  const split = splitGross(germanGrossCents);
  if (treatment.category === 'S' && treatment.placeOfSupply === 'DE') return split;
  const netCents = split.netCents;
  // Rates have at most one decimal (25.5 %): tenths of a percent keep the arithmetic in integers.
  const vatCents = roundDiv(netCents * Math.round(treatment.ratePercent * 10), 1000);
  return { netCents, vatCents, grossCents: netCents + vatCents };
}

// ---------------------------------------------------------------------------------------------------
// The decision frozen on an order and its invoice

/**
 * What one sale was taxed with (issue 24): decided when the order is placed, stored on the order,
 * copied into its invoice and followed by the invoice's credit note. The price charged, the invoice's
 * category and texts and the owner's reports (ZM, OSS, threshold) all read it; nothing recomputes it.
 */
export interface OrderTax {
  ratePercent: number;
  category: TaxCategory;
  exemptionReasonCode?: 'VATEX-EU-AE' | 'VATEX-EU-O';
  /** The invoice's tax note ('' for plain German VAT). */
  invoiceNote: string;
  /** The country whose tax applies (DE when German VAT is charged). */
  placeOfSupply: CountryCode;
  /** The customer's country from the profile when the order was placed. */
  customerCountry: CountryCode;
  /** The customer ordered as a business (Firmenkunde). */
  business: boolean;
  /** The buyer's VAT ID on the invoice (BT-48): the confirmed ID of a reverse-charge sale, else null. */
  buyerVatId: string | null;
  /** The VAT-ID check the decision rests on (§18e UStG proof), or null when no ID was involved. */
  vatCheck: { id: string; status: VatIdStatus; service: string; consultationNumber: string | null; checkedAt: string } | null;
  /** Declared through the One-Stop-Shop (§18j UStG). */
  oss: boolean;
  /** Reported in the Zusammenfassende Meldung (§18a UStG). */
  zm: boolean;
  /** A consumer in another EU state: the sale counts towards the 10,000 € threshold (§3a Abs. 5 Satz 3). */
  crossBorderConsumer: boolean;
  priceMode: 'gross' | 'net';
  priceLabel: string;
  /** Why a business customer is billed as a consumer (German), shown before paying and on the invoice. */
  explanation?: string;
  /** The seller's Swiss VAT number when Swiss MWST is charged. */
  sellerSwissVatNumber?: string;
  /** The customer's company and address from the profile the decision rests on (the invoice's buyer when the payment's address is elsewhere). */
  buyerAddress?: { company: string; street: string; zipCode: string; city: string };
}

/** Settings of the seller that the engine needs beside the customer (env: VAT_EU_CONSUMERS, VAT_SWISS_REGISTRATION). */
export interface TaxSettings {
  destinationTaxationOpted: boolean;
  /** The seller's Swiss MWST number; empty when not registered in Switzerland. */
  swissVatNumber: string;
}

/** The customer's tax facts at the moment of an order (from the profile and the latest VAT-ID check). */
export interface TaxCustomer {
  country: CountryCode;
  business: boolean;
  vatId: string | null;
  check: OrderTax['vatCheck'];
  /** The profile's company and address at the moment of the order. */
  address?: OrderTax['buyerAddress'];
}

/**
 * The decision for one sale: the engine's treatment plus everything the invoice and the reports need.
 * `crossBorderConsumerNetCents.currentYear` must already include this sale's net price.
 */
export function decideOrderTax(customer: TaxCustomer, settings: TaxSettings, crossBorderConsumerNetCents: TaxInput['crossBorderConsumerNetCents'], date: Date | string): OrderTax {
  const usableCheck = customer.vatId && customer.check ? customer.check : null;
  const treatment = taxTreatment({
    sellerCountry: 'DE',
    customerCountry: customer.country,
    business: customer.business,
    ...(customer.business && customer.vatId ? { vatId: { status: usableCheck?.status ?? 'unchecked' } } : {}),
    crossBorderConsumerNetCents,
    destinationTaxationOpted: settings.destinationTaxationOpted,
    swissRegistered: settings.swissVatNumber.trim() !== '',
  }, date);
  const country = customer.country === 'MC' ? 'FR' : customer.country;
  const euConsumerAbroad = isEuMember(country) && country !== 'DE' && treatment.category === 'S';
  return {
    ratePercent: treatment.ratePercent,
    category: treatment.category,
    ...(treatment.exemptionReasonCode ? { exemptionReasonCode: treatment.exemptionReasonCode } : {}),
    invoiceNote: treatment.invoiceNote,
    placeOfSupply: treatment.placeOfSupply,
    customerCountry: customer.country,
    business: customer.business,
    buyerVatId: treatment.category === 'AE' ? customer.vatId : null,
    vatCheck: customer.business && customer.vatId ? usableCheck : null,
    oss: treatment.oss,
    zm: treatment.zm,
    crossBorderConsumer: euConsumerAbroad,
    priceMode: treatment.priceMode,
    priceLabel: treatment.priceLabel,
    ...(treatment.explanation ? { explanation: treatment.explanation } : {}),
    ...(treatment.priceLabel.endsWith('MWST') ? { sellerSwissVatNumber: settings.swissVatNumber.trim() } : {}),
    ...(customer.address ? { buyerAddress: customer.address } : {}),
  };
}

/** Orders placed before issue 24 carry no decision: they were German consumer sales at 19 %. */
export const LEGACY_ORDER_TAX: OrderTax = {
  ratePercent: 19, category: 'S', invoiceNote: '', placeOfSupply: 'DE', customerCountry: 'DE', business: false,
  buyerVatId: null, vatCheck: null, oss: false, zm: false, crossBorderConsumer: false, priceMode: 'gross', priceLabel: 'inkl. 19 % USt.',
};

/** What the shop pages need to show a customer's prices (GET /api/shop/tax). */
export interface TaxView {
  ratePercent: number;
  category: TaxCategory;
  placeOfSupply: CountryCode;
  priceMode: 'gross' | 'net';
  priceLabel: string;
  invoiceNote: string;
  explanation: string | null;
  /** The customer's country (DE for visitors who are not signed in). */
  country: CountryCode;
  countryName: string;
  business: boolean;
  /** Visitors see German consumer prices until they sign in. */
  signedIn: boolean;
}

/** The amount to show: gross for consumers, net for business customers (with `priceLabel` after it). */
export function displayCents(germanGrossCents: number, view: Pick<TaxView, 'ratePercent' | 'placeOfSupply' | 'category' | 'priceMode'>): number {
  const price = priceFor(germanGrossCents, view);
  return view.priceMode === 'net' ? price.netCents : price.grossCents;
}

/** Visitors who are not signed in: German consumer prices (the list prices). */
export const GERMAN_CONSUMER_VIEW: TaxView = {
  ratePercent: 19, category: 'S', placeOfSupply: 'DE', priceMode: 'gross', priceLabel: 'inkl. 19 % USt.', invoiceNote: '',
  explanation: null, country: 'DE', countryName: 'Deutschland', business: false, signedIn: false,
};

/**
 * The label after an amount actually charged (it always includes its tax, so never "zzgl. USt."):
 * "inkl. 19 % USt.", "inkl. 8,1 % MWST", "Reverse Charge", "ohne USt. (nicht im Inland steuerbar)".
 */
export function chargedLabel(tax: Pick<TaxTreatment, 'ratePercent' | 'category' | 'priceLabel'>): string {
  if (tax.category === 'AE') return 'Reverse Charge';
  if (tax.category === 'O') return 'ohne USt. (nicht im Inland steuerbar)';
  return `inkl. ${percent(tax.ratePercent)} ${tax.priceLabel.endsWith('MWST') ? 'MWST' : 'USt.'}`;
}
