import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addMonthsClamped, billingPeriodLabel, durationDiscountPercent, formatDecimalCents, formatEuro, paymentLabel, priceCents, splitGross } from './pricing.ts';

/** The spec's formula in plain floating point, as the reference (public spec §9). */
const reference = (c: { os: 'linux' | 'windows'; cpu: number; ram: number; storage: number; months: number }) => {
  const base = (c.os === 'windows' ? 5 : 0) + 1.15 * c.cpu + 0.1 * c.ram + 0.025 * c.storage;
  const discount = c.months >= 9 ? 0.15 : c.months >= 6 ? 0.1 : c.months >= 3 ? 0.05 : 0;
  return base * c.months * 1.22 * (1 - discount);
};

describe('price formula (§9)', () => {
  it('matches hand-computed prices', () => {
    // 1.975 € × 1.22 = 2.4095 € → 2,41 €
    expect(priceCents({ os: 'linux', cpu: 1, ram: 2, storage: 25, months: 1 })).toBe(241);
    // 1.975 × 3 × 1.22 × 0.95 = 6.867075 → 6,87 €
    expect(priceCents({ os: 'linux', cpu: 1, ram: 2, storage: 25, months: 3 })).toBe(687);
    // Windows, everything at the maximum: 169.9 × 12 × 1.22 × 0.85 = 2114.2356 → 2.114,24 €
    expect(priceCents({ os: 'windows', cpu: 88, ram: 512, storage: 500, months: 12 })).toBe(211424);
  });

  it.each([
    [1, 0], [2, 0], [3, 5], [5, 5], [6, 10], [8, 10], [9, 15], [12, 15],
  ])('%i months → %i %% discount, price follows', (months, percent) => {
    expect(durationDiscountPercent(months)).toBe(percent);
    const config = { os: 'linux' as const, cpu: 4, ram: 8, storage: 100, months };
    // base 4.6 + 0.8 + 2.5 = 7.90 €
    const expected = Math.round(7.9 * months * 1.22 * (1 - percent / 100) * 100);
    expect(priceCents(config)).toBe(expected);
  });

  it('the discount steps down exactly at 3, 6 and 9 months', () => {
    const at = (months: number) => priceCents({ os: 'linux', cpu: 2, ram: 4, storage: 50, months }) / months;
    expect(at(3)).toBeLessThan(at(2));
    expect(at(6)).toBeLessThan(at(5));
    expect(at(9)).toBeLessThan(at(8));
    expect(at(4)).toBeCloseTo(at(3), 0);
  });

  it('Windows adds 5 € per month before factor and discount', () => {
    const linux = priceCents({ os: 'linux', cpu: 2, ram: 4, storage: 50, months: 1 });
    const windows = priceCents({ os: 'windows', cpu: 2, ram: 4, storage: 50, months: 1 });
    expect(windows - linux).toBe(610);
  });

  it('is the float formula rounded to the cent for every configuration', () => {
    fc.assert(fc.property(
      fc.constantFrom('linux' as const, 'windows' as const), fc.integer({ min: 1, max: 88 }), fc.integer({ min: 1, max: 256 }),
      fc.integer({ min: 5, max: 100 }), fc.integer({ min: 1, max: 12 }),
      (os, cpu, ramHalf, storageFifth, months) => {
        const config = { os, cpu, ram: ramHalf * 2, storage: storageFifth * 5, months };
        expect(Math.abs(priceCents(config) - reference(config) * 100)).toBeLessThanOrEqual(0.5 + 1e-6);
        expect(Number.isInteger(priceCents(config))).toBe(true);
      },
    ), { numRuns: 2000 });
  });
});

describe('money helpers', () => {
  it('splits gross into net and 19 % VAT that add up', () => {
    expect(splitGross(11900)).toEqual({ netCents: 10000, vatCents: 1900, grossCents: 11900 });
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000 }), (gross) => {
      const s = splitGross(gross);
      expect(s.netCents + s.vatCents).toBe(gross);
      expect(Math.abs(s.netCents - gross / 1.19)).toBeLessThanOrEqual(0.5 + 1e-9);
    }));
  });

  it('labels and formats like the spec', () => {
    expect(paymentLabel(1)).toBe('Abrechnung');
    expect(paymentLabel(3)).toBe('alle 3 Monate');
    expect(billingPeriodLabel(1)).toBe('Monatlich');
    expect(billingPeriodLabel(6)).toBe('alle 6 Monate');
    expect(formatEuro(123456)).toBe('1.234,56\u00a0€');
    expect(formatEuro(-5)).toBe('-0,05\u00a0€');
    expect(formatEuro(0)).toBe('0,00\u00a0€');
    expect(formatDecimalCents(123456789012)).toBe('1.234.567.890,12');
  });

  it('next billing date is clamped to the month end', () => {
    expect(addMonthsClamped(new Date('2026-01-31T10:00:00Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonthsClamped(new Date('2028-01-31T10:00:00Z'), 1).toISOString()).toBe('2028-02-29T10:00:00.000Z');
    expect(addMonthsClamped(new Date('2026-08-31T10:00:00Z'), 1).toISOString()).toBe('2026-09-30T10:00:00.000Z');
    expect(addMonthsClamped(new Date('2026-11-15T10:00:00Z'), 12).toISOString()).toBe('2027-11-15T10:00:00.000Z');
    expect(() => addMonthsClamped(new Date('x'), 1)).toThrow('Ungültiges Datum');
    expect(() => addMonthsClamped(new Date(), -1)).toThrow('Ungültige Monatsangabe');
  });
});

describe('formatEuro and formatDecimalCents without Intl', () => {
  const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const plain = new Intl.NumberFormat('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  it('print what Intl prints for de-DE, for every size and sign (half-cents round away from zero)', () => {
    const values = [0, 1, 9, 10, 99, 100, 101, 999, 1000, 99_999, 100_000, 123_456, 99_999_999, 100_000_000, 123_456_789_012, 12.5, 14.5, 0.4];
    for (let i = 0; i < 2000; i++) values.push(Math.floor(Math.random() * 10 ** (1 + (i % 12))));
    // Intl prints "-0,00 €" for a negative amount that rounds to nothing; ours prints no sign (below).
    for (const v of values.flatMap((x) => [x, -x]).filter((x) => !(x <= 0 && Math.round(-x) === 0 && !Object.is(x, 0)))) {
      expect(formatEuro(v)).toBe(euro.format(v / 100));
      expect(formatDecimalCents(v)).toBe(plain.format(v / 100));
    }
    expect(formatEuro(-0.4)).toBe('0,00\u00a0€');
  });
});
