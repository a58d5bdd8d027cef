import { describe, expect, it } from 'vitest';
import { OSS_THRESHOLD_NET_CENTS } from './tax.ts';
import { quarterLabel, quarterMonths, quarterOf, recentQuarters, TaxReportQuery, taxReportMessages, taxThresholdOf } from './tax-reports.ts';

describe('tax report quarters', () => {
  it('maps days to quarters and quarters to their month indexes', () => {
    expect(['2026-01-01', '2026-03-31', '2026-04-01', '2026-06-30', '2026-07-01', '2026-12-31'].map(quarterOf)).toEqual(['2026-Q1', '2026-Q1', '2026-Q2', '2026-Q2', '2026-Q3', '2026-Q4']);
    expect(quarterMonths('2026-Q2')).toEqual({ from: 2026 * 12 + 3, to: 2026 * 12 + 5 });
    expect(quarterLabel('2026-Q4')).toBe('4. Quartal 2026');
  });

  it('lists the last 8 quarters newest first, across years', () => {
    expect(recentQuarters('2026-02-15', 8)).toEqual(['2026-Q1', '2025-Q4', '2025-Q3', '2025-Q2', '2025-Q1', '2024-Q4', '2024-Q3', '2024-Q2']);
  });

  it('accepts only YYYY-Qn, with a German message', () => {
    expect(TaxReportQuery.safeParse({ quarter: '2026-Q4' }).success).toBe(true);
    for (const quarter of ['2026-Q0', '2026-Q5', '2026-q1', '2026-4', ' 2026-Q1', undefined]) {
      const parsed = TaxReportQuery.safeParse({ quarter });
      expect(parsed.success, String(quarter)).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(taxReportMessages.quarterFormat);
    }
  });
});

describe('threshold figure', () => {
  const at = (previousYear: number, currentYear: number) => taxThresholdOf({ previousYear, currentYear }, 2026, false);

  it('warns from exactly 80 % of 10,000 € in either year; exactly 10,000 € is not yet above', () => {
    expect(at(0, 799_999).level).toBe('ok');
    expect(at(0, 799_999).message).toBeNull();
    expect(at(0, 800_000).level).toBe('warning');
    expect(at(0, 800_000).message).toBe('Achtung: Die Verkäufe an Verbraucher in anderen EU-Staaten haben im laufenden Jahr (2026) 80 % der Lieferschwelle von 10.000 € erreicht. Wird sie überschritten, gilt ab diesem Verkauf die Umsatzsteuer des Kundenlandes (OSS).');
    expect(at(851_000, 0).message).toContain('im Vorjahr (2025) 85,1 %');
    expect(at(0, OSS_THRESHOLD_NET_CENTS).level).toBe('warning');
  });

  it('reports a threshold passed in the previous or the current year', () => {
    expect(at(0, OSS_THRESHOLD_NET_CENTS + 1).level).toBe('exceeded');
    expect(at(0, OSS_THRESHOLD_NET_CENTS + 1).message).toBe('Die Lieferschwelle von 10.000 € ist im laufenden Jahr (2026) überschritten: Verbraucher in anderen EU-Staaten zahlen die Umsatzsteuer ihres Landes, erklärt über das One-Stop-Shop-Verfahren (OSS).');
    expect(at(1_200_000, 100).message).toContain('im Vorjahr (2025) überschritten');
    expect(at(1_200_000, 1_100_000).message).toContain('im Vorjahr (2025) und im laufenden Jahr (2026) überschritten');
    expect(at(1_200_000, 0).previousYear).toEqual({ year: 2025, netCents: 1_200_000, percent: 120 });
  });

  it('names the setting VAT_EU_CONSUMERS', () => {
    expect(at(0, 0).setting).toBe('threshold');
    expect(taxThresholdOf({ previousYear: 0, currentYear: 0 }, 2026, true).setting).toBe('destination');
    // Opted for destination taxation: the figure still counts (returning to 'threshold' needs two years below), the texts say what applies.
    expect(taxThresholdOf({ previousYear: 0, currentYear: 900_000 }, 2026, true).message).toBe('Achtung: Die Verkäufe an Verbraucher in anderen EU-Staaten haben im laufenden Jahr (2026) 90 % der Lieferschwelle von 10.000 € erreicht. Sie zahlen bereits die Umsatzsteuer ihres Landes (VAT_EU_CONSUMERS=destination).');
    expect(taxThresholdOf({ previousYear: 1_000_001, currentYear: 0 }, 2026, true).message).toContain('zur Einstellung threshold können Sie erst zurückkehren');
  });
});
