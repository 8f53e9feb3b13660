import { stringify } from 'csv-stringify/sync';

// Every CSV and XLSX export writes its cells through here, so text a customer or a supplier
// wrote (an alert title, a price description, a cell of an imported price list) can never run as
// a formula when the file is opened in a spreadsheet ("CSV injection"). A text cell starting
// with = + - @ (or their full-width forms), a tab or a carriage return gets a leading apostrophe,
// which spreadsheets read as "this is text". Number columns are left alone as long as they hold
// a plain decimal such as -12.50; anything else in them is treated as text.

const FORMULA_STARTS = new Set(['=', '+', '-', '@', '\t', '\r', '\n', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']);
// Linear: anchored, no nested quantifiers.
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

export function neutraliseText(value: string): string {
  return value.length > 0 && FORMULA_STARTS.has(value[0]!) ? `'${value}` : value;
}

export function isPlainDecimal(value: string): boolean {
  return value.length <= 64 && PLAIN_DECIMAL.test(value);
}

// A cell of a number column: a plain decimal stays as it is (a spreadsheet reads -12.50 as a
// negative number); anything else is text.
export function neutraliseNumberCell(value: string): string {
  return isPlainDecimal(value) ? value : neutraliseText(value);
}

export interface CsvColumns<K extends string> {
  columns: readonly K[];
  // Columns holding decimal strings (amounts, prices, rates); every other column is text.
  numberColumns?: readonly K[];
}

export function safeCell(value: string | number | null | undefined, numeric: boolean): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return numeric ? neutraliseNumberCell(text) : neutraliseText(text);
}

// CSV with a header row; values are strings (or numbers), null and undefined become empty cells.
export function toSafeCsv<K extends string>(
  rows: readonly Partial<Record<K, string | number | null | undefined>>[],
  spec: CsvColumns<K>,
): string {
  const numeric = new Set<string>(spec.numberColumns ?? []);
  const safeRows = rows.map((row) => spec.columns.map((column) => safeCell(row[column], numeric.has(column))));
  return stringify(safeRows, { header: true, columns: [...spec.columns] });
}
