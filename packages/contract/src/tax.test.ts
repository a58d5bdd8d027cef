import { describe, expect, it } from 'vitest';
import type { CountryCode } from './countries.ts';
import {
  OSS_THRESHOLD_NET_CENTS,
  VAT_RATE_HISTORY,
  normalizeVatId,
  priceFor,
  standardRate,
  type TaxInput,
  taxTreatment,
  vatIdFormatMessage,
  vatIdFormatValid,
} from './tax.ts';

const DAY = '2026-11-27';
const BELOW = { previousYear: 900_000, currentYear: 400_000 };
const ABOVE = { previousYear: 1_200_000, currentYear: 300_000 };

type Customer = 'consumer' | 'business, valid ID' | 'business, invalid ID';

function input(country: CountryCode, customer: Customer, threshold: 'below' | 'above', extra: Partial<TaxInput> = {}): TaxInput {
  return {
    sellerCountry: 'DE',
    customerCountry: country,
    business: customer !== 'consumer',
    ...(customer === 'consumer' ? {} : { vatId: { status: customer === 'business, valid ID' ? 'valid' : 'invalid' } }),
    crossBorderConsumerNetCents: threshold === 'below' ? BELOW : ABOVE,
    destinationTaxationOpted: false,
    swissRegistered: false,
    ...extra,
  };
}

const RC = 'Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge, Art. 196 MwStSystRL)';
const O2 = 'Nicht im Inland steuerbare Leistung (§3a Abs. 2 UStG)';
const O4 = 'Nicht im Inland steuerbare Leistung (§3a Abs. 4 UStG)';
const OSS_AT = 'Leistungsort Österreich (§3a Abs. 5 UStG); die Umsatzsteuer wird im One-Stop-Shop-Verfahren erklärt (§18j UStG).';
const OSS_FR = 'Leistungsort Frankreich (§3a Abs. 5 UStG); die Umsatzsteuer wird im One-Stop-Shop-Verfahren erklärt (§18j UStG).';
const NONE = undefined;
const NOT_TAXABLE = 'ohne USt. (nicht im Inland steuerbar)';

// Issue 24's proof: DE, AT, FR, CH, US × consumer / business with a valid ID / business with an invalid ID
// × threshold below / above. Written out by hand from the law, not computed from the engine.
const TABLE: [CountryCode, Customer, 'below' | 'above', number, 'S' | 'AE' | 'O', string | undefined, string, string, CountryCode][] = [
  // country, customer, threshold, rate, category, exemption code, invoice text, price label, place of supply
  ['DE', 'consumer', 'below', 19, 'S', NONE, '', 'inkl. 19 % USt.', 'DE'],
  ['DE', 'consumer', 'above', 19, 'S', NONE, '', 'inkl. 19 % USt.', 'DE'],
  ['DE', 'business, valid ID', 'below', 19, 'S', NONE, '', 'zzgl. USt.', 'DE'],
  ['DE', 'business, valid ID', 'above', 19, 'S', NONE, '', 'zzgl. USt.', 'DE'],
  ['DE', 'business, invalid ID', 'below', 19, 'S', NONE, '', 'zzgl. USt.', 'DE'],
  ['DE', 'business, invalid ID', 'above', 19, 'S', NONE, '', 'zzgl. USt.', 'DE'],
  ['AT', 'consumer', 'below', 19, 'S', NONE, '', 'inkl. 19 % USt.', 'DE'],
  ['AT', 'consumer', 'above', 20, 'S', NONE, OSS_AT, 'inkl. 20 % USt.', 'AT'],
  ['AT', 'business, valid ID', 'below', 0, 'AE', 'VATEX-EU-AE', RC, 'Reverse Charge', 'AT'],
  ['AT', 'business, valid ID', 'above', 0, 'AE', 'VATEX-EU-AE', RC, 'Reverse Charge', 'AT'],
  ['AT', 'business, invalid ID', 'below', 19, 'S', NONE, '', 'inkl. 19 % USt.', 'DE'],
  ['AT', 'business, invalid ID', 'above', 20, 'S', NONE, OSS_AT, 'inkl. 20 % USt.', 'AT'],
  ['FR', 'consumer', 'below', 19, 'S', NONE, '', 'inkl. 19 % USt.', 'DE'],
  ['FR', 'consumer', 'above', 20, 'S', NONE, OSS_FR, 'inkl. 20 % USt.', 'FR'],
  ['FR', 'business, valid ID', 'below', 0, 'AE', 'VATEX-EU-AE', RC, 'Reverse Charge', 'FR'],
  ['FR', 'business, valid ID', 'above', 0, 'AE', 'VATEX-EU-AE', RC, 'Reverse Charge', 'FR'],
  ['FR', 'business, invalid ID', 'below', 19, 'S', NONE, '', 'inkl. 19 % USt.', 'DE'],
  ['FR', 'business, invalid ID', 'above', 20, 'S', NONE, OSS_FR, 'inkl. 20 % USt.', 'FR'],
  ['CH', 'consumer', 'below', 0, 'O', 'VATEX-EU-O', O4, NOT_TAXABLE, 'CH'],
  ['CH', 'consumer', 'above', 0, 'O', 'VATEX-EU-O', O4, NOT_TAXABLE, 'CH'],
  ['CH', 'business, valid ID', 'below', 0, 'O', 'VATEX-EU-O', O2, NOT_TAXABLE, 'CH'],
  ['CH', 'business, valid ID', 'above', 0, 'O', 'VATEX-EU-O', O2, NOT_TAXABLE, 'CH'],
  ['CH', 'business, invalid ID', 'below', 0, 'O', 'VATEX-EU-O', O2, NOT_TAXABLE, 'CH'],
  ['CH', 'business, invalid ID', 'above', 0, 'O', 'VATEX-EU-O', O2, NOT_TAXABLE, 'CH'],
  ['US', 'consumer', 'below', 0, 'O', 'VATEX-EU-O', O4, NOT_TAXABLE, 'US'],
  ['US', 'consumer', 'above', 0, 'O', 'VATEX-EU-O', O4, NOT_TAXABLE, 'US'],
  ['US', 'business, valid ID', 'below', 0, 'O', 'VATEX-EU-O', O2, NOT_TAXABLE, 'US'],
  ['US', 'business, valid ID', 'above', 0, 'O', 'VATEX-EU-O', O2, NOT_TAXABLE, 'US'],
  ['US', 'business, invalid ID', 'below', 0, 'O', 'VATEX-EU-O', O2, NOT_TAXABLE, 'US'],
  ['US', 'business, invalid ID', 'above', 0, 'O', 'VATEX-EU-O', O2, NOT_TAXABLE, 'US'],
];

describe('taxTreatment: the table of issue 24', () => {
  it.each(TABLE)('%s, %s, threshold %s → %d %%, %s, %s', (country, customer, threshold, rate, category, code, note, label, place) => {
    const t = taxTreatment(input(country, customer, threshold), DAY);
    expect({ rate: t.ratePercent, category: t.category, code: t.exemptionReasonCode, note: t.invoiceNote, label: t.priceLabel, place: t.placeOfSupply }).toEqual({
      rate,
      category,
      code,
      note,
      label,
      place,
    });
  });

  it('reports reverse-charge sales for the ZM and destination-taxed consumer sales for the OSS, nothing else', () => {
    for (const [country, customer, threshold] of TABLE) {
      const t = taxTreatment(input(country, customer, threshold), DAY);
      expect(t.zm, `${country} ${customer} ${threshold}`).toBe(t.category === 'AE');
      expect(t.oss, `${country} ${customer} ${threshold}`).toBe(t.category === 'S' && t.placeOfSupply !== 'DE');
    }
  });

  it('shows consumers gross and business customers net prices, unless a business is billed as a consumer', () => {
    expect(taxTreatment(input('DE', 'consumer', 'below'), DAY).priceMode).toBe('gross');
    expect(taxTreatment(input('DE', 'business, invalid ID', 'below'), DAY).priceMode).toBe('net');
    expect(taxTreatment(input('AT', 'business, valid ID', 'below'), DAY).priceMode).toBe('net');
    expect(taxTreatment(input('AT', 'business, invalid ID', 'below'), DAY).priceMode).toBe('gross');
    expect(taxTreatment(input('US', 'business, valid ID', 'below'), DAY).priceMode).toBe('net');
    expect(taxTreatment(input('US', 'consumer', 'below'), DAY).priceMode).toBe('gross');
  });
});

describe('taxTreatment: an EU business without a confirmed VAT ID is billed as a consumer and told why', () => {
  it('explains an invalid ID with the German VAT it pays below the threshold', () => {
    const t = taxTreatment(input('AT', 'business, invalid ID', 'below'), DAY);
    expect(t.explanation).toBe(
      'Ihre USt-IdNr. wurde bei der Prüfung nicht als gültig bestätigt. Deshalb berechnen wir Ihnen wie einem Privatkunden 19 % deutsche Umsatzsteuer. Sobald Ihre USt-IdNr. bestätigt ist, erhalten Sie Nettopreise ohne deutsche Umsatzsteuer (Reverse Charge).',
    );
  });

  it('explains an unavailable check service, with the destination rate above the threshold', () => {
    const t = taxTreatment(input('FR', 'business, invalid ID', 'above', { vatId: { status: 'unavailable' } }), DAY);
    expect(t).toMatchObject({ ratePercent: 20, category: 'S', priceMode: 'gross', oss: true, zm: false });
    expect(t.explanation).toBe(
      'Der Prüfdienst für Umsatzsteuer-Identifikationsnummern ist gerade nicht erreichbar, deshalb konnten wir Ihre USt-IdNr. nicht bestätigen. Bis zur Bestätigung berechnen wir Ihnen wie einem Privatkunden die Umsatzsteuer Ihres Landes (20 %).',
    );
  });

  it('explains an ID not yet checked and a missing ID', () => {
    expect(taxTreatment(input('AT', 'business, invalid ID', 'below', { vatId: { status: 'unchecked' } }), DAY).explanation).toMatch(/^Ihre USt-IdNr\. ist noch nicht geprüft\./);
    expect(taxTreatment(input('AT', 'business, invalid ID', 'below', { vatId: undefined }), DAY).explanation).toMatch(/^Ohne bestätigte USt-IdNr\./);
  });

  it('gives no explanation to consumers, German businesses, reverse charge and customers outside the EU', () => {
    for (const [country, customer, threshold] of TABLE) {
      const expected = customer === 'business, invalid ID' && (country === 'AT' || country === 'FR');
      expect(taxTreatment(input(country, customer, threshold), DAY).explanation !== undefined, `${country} ${customer} ${threshold}`).toBe(expected);
    }
  });
});

describe('taxTreatment: the threshold, the option and the Swiss registration', () => {
  const consumerFr = (crossBorderConsumerNetCents: TaxInput['crossBorderConsumerNetCents'], destinationTaxationOpted = false) =>
    taxTreatment(input('FR', 'consumer', 'below', { crossBorderConsumerNetCents, destinationTaxationOpted }), DAY);

  it('keeps German VAT at exactly 10,000 € in both years and switches when either year exceeds it', () => {
    expect(OSS_THRESHOLD_NET_CENTS).toBe(1_000_000);
    expect(consumerFr({ previousYear: 1_000_000, currentYear: 1_000_000 }).ratePercent).toBe(19);
    expect(consumerFr({ previousYear: 1_000_001, currentYear: 0 }).ratePercent).toBe(20);
    expect(consumerFr({ previousYear: 0, currentYear: 1_000_001 }).ratePercent).toBe(20);
  });

  it('taxes in the customer\'s country below the threshold when the company opted for it', () => {
    expect(consumerFr({ previousYear: 0, currentYear: 0 }, true)).toMatchObject({ ratePercent: 20, placeOfSupply: 'FR', oss: true });
  });

  it('charges Swiss VAT to Swiss and Liechtenstein consumers only when registered in Switzerland, never to businesses', () => {
    const swiss = { swissRegistered: true };
    expect(taxTreatment(input('CH', 'consumer', 'below', swiss), DAY)).toEqual({
      ratePercent: 8.1,
      category: 'S',
      invoiceNote: 'Leistungsort Schweiz; Schweizer Mehrwertsteuer (MWST)',
      priceMode: 'gross',
      priceLabel: 'inkl. 8,1 % MWST',
      placeOfSupply: 'CH',
      oss: false,
      zm: false,
    });
    expect(taxTreatment(input('LI', 'consumer', 'above', swiss), DAY)).toMatchObject({ ratePercent: 8.1, category: 'S', placeOfSupply: 'LI' });
    expect(taxTreatment(input('CH', 'business, valid ID', 'below', swiss), DAY)).toMatchObject({ ratePercent: 0, category: 'O', invoiceNote: O2 });
    expect(taxTreatment(input('US', 'consumer', 'below', swiss), DAY)).toMatchObject({ ratePercent: 0, category: 'O', invoiceNote: O4 });
    expect(taxTreatment(input('CH', 'consumer', 'below', swiss), '2023-12-31').ratePercent).toBe(7.7);
  });

  it('treats Monaco as France and the EU\'s territories outside its VAT area (Åland, Réunion) as third countries', () => {
    expect(taxTreatment(input('MC', 'consumer', 'above'), DAY)).toMatchObject({ ratePercent: 20, placeOfSupply: 'FR', oss: true });
    expect(taxTreatment(input('AX', 'consumer', 'above'), DAY)).toMatchObject({ ratePercent: 0, category: 'O' });
    expect(taxTreatment(input('RE', 'business, valid ID', 'above'), DAY)).toMatchObject({ ratePercent: 0, category: 'O', invoiceNote: O2 });
  });

  it('takes the rate of the day of supply', () => {
    expect(taxTreatment(input('AT', 'consumer', 'above', { customerCountry: 'FI' }), '2024-08-31').ratePercent).toBe(24);
    expect(taxTreatment(input('AT', 'consumer', 'above', { customerCountry: 'FI' }), '2024-09-01')).toMatchObject({ ratePercent: 25.5, priceLabel: 'inkl. 25,5 % USt.' });
    expect(taxTreatment(input('DE', 'consumer', 'below'), '2020-12-31').ratePercent).toBe(16);
  });

  it('refuses an unknown country with a German message', () => {
    expect(() => taxTreatment(input('XX' as CountryCode, 'consumer', 'below'), DAY)).toThrow('Bitte wählen Sie ein Land aus der Liste.');
    expect(() => taxTreatment(input('XI' as CountryCode, 'consumer', 'below'), DAY)).toThrow('Bitte wählen Sie ein Land aus der Liste.');
  });
});

describe('standardRate', () => {
  it('knows the current standard rate of all 27 member states and Switzerland', () => {
    const today = Object.fromEntries(Object.keys(VAT_RATE_HISTORY).map((c) => [c, standardRate(c as keyof typeof VAT_RATE_HISTORY, DAY)]));
    expect(today).toEqual({
      AT: 20, BE: 21, BG: 20, CY: 19, CZ: 21, DE: 19, DK: 25, EE: 24, ES: 21, FI: 25.5, FR: 20, GR: 24, HR: 25, HU: 27,
      IE: 23, IT: 22, LT: 21, LU: 17, LV: 21, MT: 18, NL: 21, PL: 23, PT: 23, RO: 21, SE: 25, SI: 22, SK: 23, CH: 8.1,
    });
  });

  it.each([
    ['FI', '2024-08-31', 24, '2024-09-01', 25.5],
    ['EE', '2025-06-30', 22, '2025-07-01', 24],
    ['EE', '2023-12-31', 20, '2024-01-01', 22],
    ['SK', '2024-12-31', 20, '2025-01-01', 23],
    ['RO', '2025-07-31', 19, '2025-08-01', 21],
    ['LU', '2023-12-31', 16, '2024-01-01', 17],
    ['DE', '2020-06-30', 19, '2020-07-01', 16],
    ['IE', '2021-02-28', 21, '2021-03-01', 23],
    ['CH', '2023-12-31', 7.7, '2024-01-01', 8.1],
  ] as const)('%s: %s → %d %%, %s → %d %%', (country, before, rateBefore, after, rateAfter) => {
    expect(standardRate(country, before)).toBe(rateBefore);
    expect(standardRate(country, after)).toBe(rateAfter);
  });

  it('reads a point in time as the German calendar day', () => {
    // 31 August 2024, 22:30 UTC is already 1 September in Germany.
    expect(standardRate('FI', new Date('2024-08-31T21:59:59Z'))).toBe(24);
    expect(standardRate('FI', new Date('2024-08-31T22:30:00Z'))).toBe(25.5);
  });

  it('refuses a day before the table starts, a malformed day and a country without a rate', () => {
    expect(() => standardRate('DE', '2006-12-31')).toThrow('Für Deutschland ist für dieses Datum kein Umsatzsteuersatz hinterlegt.');
    expect(() => standardRate('DE', '27.11.2026')).toThrow('Ungültiges Datum');
    expect(() => standardRate('DE', new Date('nonsense'))).toThrow('Ungültiges Datum');
    expect(() => standardRate('US' as 'DE', DAY)).toThrow('Für Vereinigte Staaten ist kein Umsatzsteuersatz hinterlegt.');
  });

  it('lists every country\'s periods oldest first with well-formed days', () => {
    for (const [country, periods] of Object.entries(VAT_RATE_HISTORY)) {
      expect(periods.length, country).toBeGreaterThan(0);
      for (const p of periods) expect(p.from, country).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect([...periods].sort((a, b) => a.from.localeCompare(b.from)), country).toEqual(periods);
    }
  });
});

describe('VAT-ID formats', () => {
  it.each([
    ['DE', 'DE 123 456 789', 'DE123456789'],
    ['DE', '123456789', 'DE123456789'],
    ['AT', 'atu12345678', 'ATU12345678'],
    ['AT', 'U 1234 5678', 'ATU12345678'],
    ['GR', 'EL094014201', 'EL094014201'],
    ['GR', 'gr 094-014-201', 'EL094014201'],
    ['FR', 'FR 40 303 265 045', 'FR40303265045'],
    ['FR', 'FRK7399859412', 'FRK7399859412'],
    ['NL', 'NL123456789B01', 'NL123456789B01'],
    ['IE', 'IE1234567WA', 'IE1234567WA'],
    ['IE', '8Z49289F', 'IE8Z49289F'],
    ['ES', 'ES-B12345678', 'ESB12345678'],
    ['ES', '12345678Z', 'ES12345678Z'],
    ['BE', 'BE 0123.456.789', 'BE0123456789'],
    ['BE', '1123456789', 'BE1123456789'],
    ['SE', 'SE123456789701', 'SE123456789701'],
    ['CY', 'CY12345678X', 'CY12345678X'],
    ['DK', 'DK 12 34 56 78', 'DK12345678'],
  ] as const)('accepts %s %s as %s', (country, id, canonical) => {
    expect(vatIdFormatValid(country, id)).toBe(true);
    expect(normalizeVatId(country, id)).toBe(canonical);
    expect(vatIdFormatMessage(country, id)).toBeNull();
  });

  it.each([
    ['DE', 'DE12345678'],
    ['DE', 'AT123456789'],
    ['AT', 'AT12345678'],
    ['GR', 'EL12345678'],
    ['FR', 'FRIO303265045'],
    ['NL', 'NL123456789A01'],
    ['ES', 'ES123456789'],
    ['SE', 'SE123456789702'],
    ['BE', 'BE2123456789'],
    ['IE', 'IE12345678'],
    ['PL', ''],
  ] as const)('refuses %s %s with a German message', (country, id) => {
    expect(vatIdFormatValid(country, id)).toBe(false);
    expect(normalizeVatId(country, id)).toBeNull();
    expect(vatIdFormatMessage(country, id)).toMatch(/^Die Umsatzsteuer-Identifikationsnummer hat nicht das Format für .+\. Bitte prüfen Sie Ihre Eingabe\.$/);
  });

  it('names the country in the message and refuses countries outside the EU, Northern Ireland included', () => {
    expect(vatIdFormatMessage('AT', 'ATU1234')).toBe('Die Umsatzsteuer-Identifikationsnummer hat nicht das Format für Österreich. Bitte prüfen Sie Ihre Eingabe.');
    for (const country of ['CH', 'GB', 'XI', 'US']) {
      expect(vatIdFormatValid(country, `${country}123456789`)).toBe(false);
      expect(vatIdFormatMessage(country, `${country}123456789`)).toBe('Eine Umsatzsteuer-Identifikationsnummer können wir nur für Unternehmen in der EU prüfen.');
    }
  });
});

describe('priceFor', () => {
  const at = (country: CountryCode, customer: Customer, threshold: 'below' | 'above') => taxTreatment(input(country, customer, threshold), DAY);

  it('keeps the German list price for German VAT and splits it as invoices do', () => {
    // 241 / 1.19 = 202.52 → 203 net, 38 VAT.
    expect(priceFor(241, at('DE', 'consumer', 'below'))).toEqual({ netCents: 203, vatCents: 38, grossCents: 241 });
    expect(priceFor(241, at('AT', 'consumer', 'below'))).toEqual({ netCents: 203, vatCents: 38, grossCents: 241 });
  });

  it('charges the net price without VAT for reverse charge and outside the EU', () => {
    expect(priceFor(241, at('AT', 'business, valid ID', 'below'))).toEqual({ netCents: 203, vatCents: 0, grossCents: 203 });
    expect(priceFor(241, at('CH', 'consumer', 'below'))).toEqual({ netCents: 203, vatCents: 0, grossCents: 203 });
    expect(priceFor(11900, at('US', 'business, valid ID', 'above'))).toEqual({ netCents: 10000, vatCents: 0, grossCents: 10000 });
  });

  it('adds the destination rate to the net price, rounded half up to the cent', () => {
    // 203 × 20 % = 40.6 → 41
    expect(priceFor(241, at('FR', 'consumer', 'above'))).toEqual({ netCents: 203, vatCents: 41, grossCents: 244 });
    // 203 × 25.5 % = 51.765 → 52
    expect(priceFor(241, taxTreatment(input('FI', 'consumer', 'above'), DAY))).toEqual({ netCents: 203, vatCents: 52, grossCents: 255 });
    // 12 / 1.19 = 10.08 → 10 net; 10 × 25 % = 2.5 → 3
    expect(priceFor(12, taxTreatment(input('DK', 'consumer', 'above'), DAY))).toEqual({ netCents: 10, vatCents: 3, grossCents: 13 });
    // 203 × 8.1 % = 16.443 → 16
    expect(priceFor(241, taxTreatment(input('CH', 'consumer', 'below', { swissRegistered: true }), DAY))).toEqual({ netCents: 203, vatCents: 16, grossCents: 219 });
  });
});
