/**
 * Price lists from documents (PDF, DOCX): their tables become the same rows of cells the CSV and
 * XLSX readers give the sheet reader, so every row is judged by the same rules (sheet.ts,
 * rows.ts). What documents add:
 * - the currency the document names outside its table ("All prices in EUR") stands in for the
 *   import's default currency;
 * - a row that looks like an item but cannot be read fully (an article number or a price that
 *   is there but unreadable) makes the result incomplete, since a document cannot be fixed and
 *   re-exported the way a spreadsheet can; headings and notes between the rows do not.
 */
import type { Word } from '../../../shared/layout/words.js';
import { LIMITS, type PriceListReadResult, type PriceListRow, type PriceListSheet } from '../model.js';
import { readSheet, type RowBudget, type SheetReading } from '../sheet.js';
import { readDocxTables } from './docx.js';
import { pdfWords } from './pdf.js';
import { tableFromWords } from './word-table.js';
import { isIsoCurrencyCode } from '../currency.js';

const NOT_ITEM_REASONS = [
  'no price (looks like a heading or a note)',
  'repeats the header row',
  'looks like a totals row',
];

export async function readPdfPriceList(bytes: Uint8Array, defaultCurrency: string): Promise<PriceListReadResult> {
  const read = await pdfWords(bytes);
  if (!read.ok) return failed(read.failure.code, read.failure.message);
  if (read.words.length === 0) {
    return {
      ...failed(
        'unreadable',
        'the PDF has no text layer (it is a scan or an image); its words need OCR before its prices can be read',
      ),
      scanned: true,
    };
  }
  return readPriceListWords({ words: read.words, defaultCurrency });
}

/**
 * A price list from positioned words: a PDF's text layer, or OCR words of a scan in the same
 * `Word` shape (the invoice layout reader's input), so OCR plugs in here unchanged.
 */
export function readPriceListWords(input: { words: readonly Word[]; defaultCurrency: string }): PriceListReadResult {
  const table = tableFromWords(input.words, 'PDF');
  if (table === null) {
    return failed(
      'no_header_row',
      'no price table was found: no line of the document names a price column and another known column (description, article number, unit, ...)',
    );
  }
  const currency = table.documentCurrency ?? input.defaultCurrency;
  const reading = readSheet(table.sheet, currency, { remaining: LIMITS.maxDataRows });
  // Rows are shown where the user finds them: page and row of the table on that page.
  const rows = reading.rows.map((row) => {
    const place = table.places.get(row.rowNumber);
    return place ? { ...row, sheet: `page ${place.page}`, rowNumber: place.row } : row;
  });
  return outcome([{ ...reading, rows }], [reading.sheet], []);
}

export async function readDocxPriceList(
  bytes: Uint8Array,
  defaultCurrency: string,
  worksheets: string[] | undefined,
): Promise<PriceListReadResult> {
  const read = await readDocxTables(bytes);
  if (!read.ok) return failed(read.failure.code, read.failure.message);
  if (read.tables.length === 0)
    return failed('no_header_row', 'the Word document has no table; a price list needs its prices in a table');
  const problems: string[] = [];
  let selected = read.tables;
  if (worksheets && worksheets.length > 0) {
    const loose = (text: string) => text.trim().toLowerCase();
    selected = [];
    for (const name of worksheets) {
      const found = read.tables.find(
        (table) =>
          loose(table.sheet.name) === loose(name) || (table.caption !== null && loose(table.caption) === loose(name)),
      );
      if (!found)
        problems.push(
          `table '${name}' was not found; the document has ${read.tables.map((table) => `'${table.sheet.name}'${table.caption ? ` ('${table.caption}')` : ''}`).join(', ')}`,
        );
      else if (!selected.includes(found)) selected.push(found);
    }
  }
  const currency = documentCurrency(read.outsideText) ?? defaultCurrency;
  const budget: RowBudget = { remaining: LIMITS.maxDataRows };
  const readings = selected.map((table) => readSheet(table.sheet, currency, budget));
  const sheets = readings.map((reading) => reading.sheet);
  if (readings.every((reading) => reading.sheet.headerRowNumber === null)) {
    return {
      ...failed(
        'no_header_row',
        'no table of the document has a header row naming a price column and another known column (description, article number, unit, ...)',
      ),
      sheets,
    };
  }
  // Tables without a header are layout (a letterhead, a signature block) unless the user named them.
  const named = worksheets !== undefined && worksheets.length > 0;
  const kept = named ? readings : readings.filter((reading) => reading.sheet.headerRowNumber !== null);
  return outcome(kept, sheets, problems);
}

function outcome(readings: SheetReading[], sheets: PriceListSheet[], fileProblems: string[]): PriceListReadResult {
  const rows = readings.flatMap((reading) => reading.rows);
  const problems = [...fileProblems, ...readings.flatMap((reading) => reading.problems)];
  if (readings.some((reading) => reading.hitRowLimit))
    problems.push(
      `the document has more than ${LIMITS.maxDataRows.toLocaleString('en-US')} rows; only the first were read`,
    );
  const unread = rows.filter(isUnreadItem);
  if (unread.length > 0) {
    const listed = unread.slice(0, 10).map((row) => `${row.sheet} row ${row.rowNumber} (${row.reason})`);
    problems.push(
      `${unread.length} ${unread.length === 1 ? 'row' : 'rows'} could not be read fully: ${listed.join('; ')}${unread.length > 10 ? '; ...' : ''}`,
    );
  }
  const result: PriceListReadResult = { kind: 'read', sheets, rows, complete: problems.length === 0 };
  if (!result.complete) result.failure = { code: 'extraction_incomplete', message: problems.join('; ') };
  return result;
}

function isUnreadItem(row: PriceListRow): boolean {
  return row.outcome === 'rejected' && !NOT_ITEM_REASONS.some((reason) => row.reason?.startsWith(reason));
}

function documentCurrency(texts: string[]): string | null {
  const codes = new Set<string>();
  for (const text of texts)
    for (const token of text.match(/\b[A-Z]{3}\b/gu) ?? []) if (isIsoCurrencyCode(token)) codes.add(token);
  return codes.size === 1 ? [...codes][0]! : null;
}

function failed(code: NonNullable<PriceListReadResult['failure']>['code'], message: string): PriceListReadResult {
  return { kind: 'failed', failure: { code, message }, sheets: [], rows: [], complete: false };
}
