/**
 * CSV per RFC 4180 for spreadsheets: CRLF rows, every field quoted when it holds a quote, comma or line break,
 * and a UTF-8 byte-order mark so Excel reads Chinese names. Cells starting with = + - @ (or tab / carriage
 * return) get a leading apostrophe, so a spreadsheet never evaluates them as formulas (OWASP "CSV injection").
 * Numbers are written by the caller as strings (money as decimal strings), so that rule never touches them.
 */
export const CSV_BOM = '\uFEFF';

export type TCsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field. `isNumber`: a value the caller produced as a number, exempt from the formula guard. */
export function csvCell(value: TCsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = value;
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly TCsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** A whole file: BOM, header, rows. */
export function toCsv(header: readonly string[], rows: readonly (readonly TCsvValue[])[]): string {
  return CSV_BOM + csvLine(header) + rows.map(csvLine).join('');
}
