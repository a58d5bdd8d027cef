/**
 * CSV for spreadsheets (German Excel and LibreOffice): semicolon-separated, CRLF, UTF-8 with a byte order
 * mark. Cells that a spreadsheet would read as a formula (starting with = + - @, a tab or a carriage
 * return) get a leading apostrophe (OWASP "CSV injection"); cells with a separator, quote or line break
 * are quoted.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (cells: (string | number | null | undefined)[]) => `${cells.map(csvCell).join(';')}\r\n`;

export const CSV_BOM = '\uFEFF';
