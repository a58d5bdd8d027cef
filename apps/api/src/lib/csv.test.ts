import { describe, expect, it } from 'vitest';
import { CsvDecimal, csvCell, csvRow } from './csv.ts';

describe('csv', () => {
  it('neutralises formulas and quotes separators, quotes and line breaks', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    for (const start of ['+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(csvCell(start).replace(/^"/, '').startsWith(`'`)).toBe(true);
    expect(csvCell('Müller; Söhne')).toBe('"Müller; Söhne"');
    expect(csvCell('Zeile 1\nZeile 2')).toBe('"Zeile 1\nZeile 2"');
    expect(csvCell('normal')).toBe('normal');
    // Numbers are numbers, not formulas (a negative amount stays a number).
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
    expect(csvRow(['a', 1, null])).toBe('a;1;\r\n');
  });

  it('writes amounts with a decimal comma and keeps the minus of a negative one', () => {
    expect(csvCell(new CsvDecimal(-160))).toBe('-160,00');
    expect(csvCell(new CsvDecimal(1234.5))).toBe('1234,50');
    expect(csvCell(new CsvDecimal(0.14, 2))).toBe('0,14');
    // The same text as a string is still defused.
    expect(csvCell('-160,00')).toBe("'-160,00");
  });
});
