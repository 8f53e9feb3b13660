import { buffer } from 'node:stream/consumers';
import { PassThrough, Readable } from 'node:stream';
import { stringify as csvStream } from 'csv-stringify';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { CLAIM_COLUMNS, neutraliseFormula, type ClaimColumn } from './columns.js';
import { decimalPlaces, isDecimalString, showPeriod, utcDate } from './format.js';
import type { ClaimLetter } from './letter.js';

// The claim as a table for the supplier's spreadsheet or system: XLSX with typed cells (amounts
// are numbers a spreadsheet can add up, dates are dates) and CSV with exact decimal strings. Both
// have the columns of `columns.ts`, one row per alert, in the letter's order.
//
// Both are streamed to the client as they are written (the API answers with the stream): each
// XLSX row is committed to the zip stream as soon as it is set, and CSV rows go through
// csv-stringify's stream, so the file is never held whole in memory beside the letter. The letter
// itself is bounded (CLAIM_EXPORT_MAX_LINES, docs/claims.md).

const HEADER_FONT: Partial<ExcelJS.Font> = { bold: true };
const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8EDF3' } };

export function streamClaimXlsx(letter: ClaimLetter): Readable {
  const output = new PassThrough();
  // Shared strings: text cells are never formulas (setTypedCell); styles for the typed formats.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useSharedStrings: true, useStyles: true });
  workbook.creator = letter.organization.name;
  workbook.title = `Claim ${letter.reference}`;
  // The same letter gives the same workbook contents (the zip container still stamps its entries).
  workbook.created = new Date(letter.generatedAt);
  workbook.modified = new Date(letter.generatedAt);

  addLinesSheet(workbook, letter);
  addTotalsSheet(workbook, letter);
  addRefundsSheet(workbook, letter);
  addClaimSheet(workbook, letter);
  workbook
    .commit()
    .catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  return output;
}

export async function renderClaimXlsx(letter: ClaimLetter): Promise<Buffer> {
  return buffer(streamClaimXlsx(letter));
}

const CSV_OPTIONS = {
  bom: true,
  header: true,
  columns: CLAIM_COLUMNS.map((column) => column.header),
  record_delimiter: 'windows',
} as const;

function csvRow(line: ClaimLetter['lines'][number]): string[] {
  return CLAIM_COLUMNS.map((column) => csvCell(column, column.value(line)));
}

export function renderClaimCsv(letter: ClaimLetter): string {
  // The byte order mark makes spreadsheet programs read the file as UTF-8 (ÆØÅ, äöüß) instead of
  // the local code page; CSV readers that know UTF-8 skip it.
  return stringify(letter.lines.map(csvRow), CSV_OPTIONS);
}

// The same bytes as renderClaimCsv, row by row as the client reads them.
export function streamClaimCsv(letter: ClaimLetter): Readable {
  const rows = Readable.from(
    (function* () {
      for (const line of letter.lines) yield csvRow(line);
    })(),
  );
  return rows.pipe(csvStream(CSV_OPTIONS));
}

function csvCell(column: ClaimColumn, value: string | null): string {
  if (value === null) return '';
  // Amounts and quantities stay the exact decimal string, sign included; anything else in a
  // number column (never expected) is treated as the text it is.
  return column.kind === 'number' && isDecimalString(value) ? value : neutraliseFormula(value);
}

function addLinesSheet(workbook: ExcelJS.Workbook, letter: ClaimLetter): void {
  const sheet = workbook.addWorksheet('Claim lines', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = CLAIM_COLUMNS.map((column) => ({ header: column.header, key: column.key, width: column.width }));
  styleHeader(sheet.getRow(1));
  for (const line of letter.lines) {
    const row = sheet.addRow([]);
    CLAIM_COLUMNS.forEach((column, index) => setTypedCell(row.getCell(index + 1), column, column.value(line)));
    row.commit();
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: CLAIM_COLUMNS.length } };
}

function addTotalsSheet(workbook: ExcelJS.Workbook, letter: ClaimLetter): void {
  const sheet = workbook.addWorksheet('Totals', { views: [{ state: 'frozen', ySplit: 1 }] });
  const columns: ClaimColumn[] = [
    { key: 'currency', header: 'Currency', kind: 'text', width: 10, value: () => null },
    { key: 'claimed', header: 'Claimed', kind: 'number', minDecimals: 2, width: 16, value: () => null },
    { key: 'refunded', header: 'Refunds received', kind: 'number', minDecimals: 2, width: 18, value: () => null },
    { key: 'outstanding', header: 'Outstanding', kind: 'number', minDecimals: 2, width: 16, value: () => null },
  ];
  addPlainRows(
    sheet,
    columns,
    letter.totals.map((t) => [t.currencyCode, t.claimed, t.refunded, t.outstanding]),
  );
}

function addRefundsSheet(workbook: ExcelJS.Workbook, letter: ClaimLetter): void {
  const sheet = workbook.addWorksheet('Refunds received', { views: [{ state: 'frozen', ySplit: 1 }] });
  const columns: ClaimColumn[] = [
    { key: 'date', header: 'Date', kind: 'date', width: 12, value: () => null },
    { key: 'amount', header: 'Amount', kind: 'number', minDecimals: 2, width: 16, value: () => null },
    { key: 'currency', header: 'Currency', kind: 'text', width: 10, value: () => null },
    { key: 'reference', header: 'Reference', kind: 'text', width: 30, value: () => null },
  ];
  addPlainRows(
    sheet,
    columns,
    letter.refunds.map((r) => [r.date, r.amount, r.currencyCode, r.reference]),
  );
}

/** The letter's facts, so the workbook stands on its own when forwarded without the PDF. */
function addClaimSheet(workbook: ExcelJS.Workbook, letter: ClaimLetter): void {
  const sheet = workbook.addWorksheet('Claim');
  sheet.columns = [{ width: 22 }, { width: 70 }];
  const contact = letter.supplierContact;
  const facts: [string, string | null][] = [
    ['Reference to quote', letter.reference],
    ['Claim', letter.title],
    ['Status', letter.status],
    ['From', letter.organization.name],
    ['To', letter.supplier.name],
    ['Contact', contact ? [contact.name, contact.email].filter(Boolean).join(', ') || null : null],
    ['Agreement', letter.agreement.title],
    ['Agreement period', showPeriod(letter.agreement.startDate, letter.agreement.endDate)],
    ['Note', letter.note],
    ['Generated at', letter.generatedAt],
  ];
  for (const [label, value] of facts) {
    const row = sheet.addRow([label, value ?? '']);
    row.getCell(1).font = HEADER_FONT;
    row.getCell(2).alignment = { wrapText: true, vertical: 'top' };
    row.commit();
  }
}

function addPlainRows(sheet: ExcelJS.Worksheet, columns: ClaimColumn[], rows: (string | null)[][]): void {
  sheet.columns = columns.map((column) => ({ header: column.header, key: column.key, width: column.width }));
  styleHeader(sheet.getRow(1));
  for (const values of rows) {
    const row = sheet.addRow([]);
    columns.forEach((column, index) => setTypedCell(row.getCell(index + 1), column, values[index] ?? null));
    row.commit();
  }
}

// The header row is written (committed) once styled; rows after it follow in order.
function styleHeader(row: ExcelJS.Row): void {
  row.font = HEADER_FONT;
  row.eachCell((cell) => (cell.fill = HEADER_FILL));
  row.commit();
}

/**
 * Numbers are numbers (with a format showing every recorded decimal), dates are dates, and text is
 * a string cell: exceljs writes strings as shared strings, never as formulas, so a description
 * starting with `=` stays text in the spreadsheet.
 */
function setTypedCell(cell: ExcelJS.Cell, column: ClaimColumn, value: string | null): void {
  if (value === null) return;
  if (column.kind === 'number' && isDecimalString(value)) {
    // A spreadsheet number holds 15 significant digits: every realistic amount exactly.
    cell.value = Number(value);
    cell.numFmt = numberFormat(Math.max(column.minDecimals ?? 0, decimalPlaces(value)));
    cell.alignment = { horizontal: 'right' };
    return;
  }
  if (column.kind === 'date') {
    const date = utcDate(value);
    if (date !== null) {
      cell.value = date;
      cell.numFmt = 'yyyy-mm-dd';
      return;
    }
  }
  cell.value = value;
}

function numberFormat(decimals: number): string {
  return decimals === 0 ? '#,##0' : `#,##0.${'0'.repeat(decimals)}`;
}
