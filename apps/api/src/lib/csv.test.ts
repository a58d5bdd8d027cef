import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv.ts';

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
});
