import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, COUNTRY_OPTIONS, EU_COUNTRY_CODES, countryName, isCountryCode, isEuMember, vatPrefix } from './countries.ts';

const collator = new Intl.Collator('de');
const isSorted = (labels: string[]) => labels.every((label, i) => i === 0 || collator.compare(labels[i - 1]!, label) < 0);

describe('country list', () => {
  it('holds the 249 ISO 3166-1 countries once each', () => {
    expect(COUNTRY_OPTIONS).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    for (const code of COUNTRY_CODES) expect(code).toMatch(/^[A-Z]{2}$/);
  });

  it('lists the 27 EU member states first, then the rest, each alphabetical by German name', () => {
    const eu = COUNTRY_OPTIONS.slice(0, 27);
    const rest = COUNTRY_OPTIONS.slice(27);
    expect(eu.every((c) => c.eu)).toBe(true);
    expect(rest.some((c) => c.eu)).toBe(false);
    expect(eu.map((c) => c.code).sort()).toEqual([...EU_COUNTRY_CODES].sort());
    expect(isSorted(eu.map((c) => c.label))).toBe(true);
    expect(isSorted(rest.map((c) => c.label))).toBe(true);
    expect(eu.slice(0, 4).map((c) => c.label)).toEqual(['Belgien', 'Bulgarien', 'Dänemark', 'Deutschland']);
    expect(eu.at(-1)?.label).toBe('Zypern');
    // Umlauts sort as their base letter (DIN 5007-1).
    expect(rest.slice(0, 4).map((c) => c.label)).toEqual(['Afghanistan', 'Ägypten', 'Ålandinseln', 'Albanien']);
  });

  it('names countries in German', () => {
    expect(countryName('AT')).toBe('Österreich');
    expect(countryName('CH')).toBe('Schweiz');
    expect(countryName('GB')).toBe('Vereinigtes Königreich');
    expect(countryName('HK')).toBe('Hongkong');
    expect(countryName('US')).toBe('Vereinigte Staaten');
  });

  it('knows the EU member states, Greece by its ISO code with the VAT prefix EL', () => {
    expect(isEuMember('GR')).toBe(true);
    expect(vatPrefix('GR')).toBe('EL');
    expect(vatPrefix('AT')).toBe('AT');
    expect(isEuMember('EL')).toBe(false);
    for (const code of ['CH', 'GB', 'XI', 'NO', 'US', 'AX', 'RE', 'MC']) expect(isEuMember(code), code).toBe(false);
  });

  it('has no entry for Northern Ireland (XI) or Kosovo (XK): neither is an ISO 3166-1 country', () => {
    expect(isCountryCode('XI')).toBe(false);
    expect(isCountryCode('XK')).toBe(false);
    expect(isCountryCode('GB')).toBe(true);
  });
});
