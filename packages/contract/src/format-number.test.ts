import { describe, expect, it } from 'vitest';
import { formatNumberDe } from './format-number.ts';

describe('formatNumberDe', () => {
  it('prints what toLocaleString(de-DE) prints, for integers, fractions, halves and every decimal limit', () => {
    const values = [0, 1, 12, 999, 1000, 1234.5, 1500, 99_999.995, 0.5, 1.005, 2.675, 9.995, 0.0004, 0.0005, 123_456_789.123_4, 1 / 3, 2 / 3, 35.96, 7.45];
    for (let i = 0; i < 3000; i++) values.push(Math.random() * 10 ** (i % 10), Math.floor(Math.random() * 10 ** (i % 13)) / 10 ** (i % 4));
    for (const v of values.flatMap((x) => [x, -x])) {
      for (const digits of [0, 1, 2, 3]) {
        const intl = v.toLocaleString('de-DE', { maximumFractionDigits: digits });
        if (intl === '-0') continue; // ours prints "0" (below)
        expect(formatNumberDe(v, digits), `${v} with ${digits}`).toBe(intl);
      }
      expect(formatNumberDe(v)).toBe(v.toLocaleString('de-DE') === '-0' ? '0' : v.toLocaleString('de-DE'));
      const two = v.toLocaleString('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      if (two !== '-0,00') expect(formatNumberDe(v, 2, 2), `${v} with exactly 2`).toBe(two);
    }
  });

  it('prints no minus sign for a negative value that rounds to zero', () => {
    expect(formatNumberDe(-0.0004)).toBe('0');
    expect(formatNumberDe(-0.4, 0)).toBe('0');
  });
});
