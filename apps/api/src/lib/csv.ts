/**
 * CSV for spreadsheets (German Excel and LibreOffice): semicolon-separated, CRLF, UTF-8 with a byte order
 * mark. Cells that a spreadsheet would read as a formula (starting with = + - @, a tab or a carriage
 * return) get a leading apostrophe (OWASP "CSV injection"); cells with a separator, quote or line break
 * are quoted.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A number written with a decimal comma, as German spreadsheets read it. Built from a number, so it can
 * only hold digits, a minus and a comma: a negative amount is not a formula and keeps its sign unescaped.
 */
export class CsvDecimal {
  constructor(readonly value: number, readonly digits = 2) {}
  toString() {
    return this.value.toFixed(this.digits).replace('.', ',');
  }
}

export type CsvValue = string | number | CsvDecimal | null | undefined;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof CsvDecimal) return value.toString();
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (cells: CsvValue[]) => `${cells.map(csvCell).join(';')}\r\n`;

export const CSV_BOM = '\uFEFF';
