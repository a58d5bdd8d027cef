import { describe, expect, it } from 'vitest';
import { formatReleaseDate } from './changelog-badges.tsx';

describe('release dates without Intl', () => {
  it('prints every day of a leap year and of two others as Intl does ("15. März 2024")', () => {
    const intl = new Intl.DateTimeFormat('de-DE', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    for (const year of [2024, 2025, 2031]) {
      for (let t = Date.UTC(year, 0, 1, 12); new Date(t).getUTCFullYear() === year; t += 86_400_000) {
        const iso = new Date(t).toISOString().slice(0, 10);
        expect(formatReleaseDate(iso), iso).toBe(intl.format(new Date(t)));
      }
    }
    expect(formatReleaseDate('2024-03-15')).toBe('15. März 2024');
  });

  it('shows a date it cannot read as it came', () => {
    expect(formatReleaseDate('kein Datum')).toBe('kein Datum');
  });
});
