import { findHeaderRow } from './columns.js';
import { currencyInHeader } from './currency.js';
import {
  LIMITS,
  type PriceListField,
  type PriceListRow,
  type PriceListSheet,
  type SourceRow,
  type SourceSheet,
} from './model.js';
import { foldText } from './normalize.js';
import { interpretRow, type RowContext } from './rows.js';
import { readTiers } from './tiers.js';

// One sheet (a worksheet, or the whole CSV): find its header, then judge every data row below it.

export interface SheetReading {
  sheet: PriceListSheet;
  rows: PriceListRow[];
  /** What could not be read; any entry makes the result incomplete. */
  problems: string[];
  /** Whether the sheet was cut short because the data-row limit was reached. */
  hitRowLimit: boolean;
}

/** Data rows still allowed across the whole file; shared by its sheets. */
export interface RowBudget {
  remaining: number;
}

export function readSheet(source: SourceSheet, defaultCurrency: string, budget: RowBudget): SheetReading {
  const filled = source.rows.filter((row) => !isEmptyRow(row));
  const scanned = filled.slice(0, LIMITS.headerScanRows);
  const header = findHeaderRow(scanned.map(rowTexts));
  if (header === null) return withoutHeader(source, filled.length > 0);

  const headerRow = scanned[header.position]!;
  const headerTexts = rowTexts(headerRow).map((text) => text.trim());
  const keys = headerKeys(headerTexts);
  const context = rowContext(header.mapping.indexes, headerTexts, defaultCurrency);
  const rows: PriceListRow[] = [];
  let hitRowLimit = false;
  for (const row of filled.slice(header.position + 1)) {
    if (budget.remaining <= 0) {
      hitRowLimit = true;
      break;
    }
    budget.remaining--;
    rows.push(...readRow(source.name, row, keys, context));
  }
  return {
    sheet: {
      name: source.name,
      headerRowNumber: headerRow.rowNumber,
      columns: columnsAsWritten(header.mapping.indexes, headerTexts),
    },
    rows,
    problems: [...source.problems],
    hitRowLimit,
  };
}

/** One data row; a price cell with quantity tiers gives one row per tier (tiers.ts). */
function readRow(sheet: string, row: SourceRow, keys: string[], context: RowContext): PriceListRow[] {
  const raw = rawCells(row, keys);
  const priceIndex = context.indexes.price;
  const priceCell = priceIndex === undefined ? undefined : row.cells[priceIndex];
  const tiers = priceCell && priceCell.number === undefined ? readTiers(priceCell.text) : null;
  if (priceIndex === undefined || !priceCell || tiers === null)
    return [{ sheet, rowNumber: row.rowNumber, raw, ...interpretRow(row, context) }];
  return tiers.map((tier) => {
    const cells = [...row.cells];
    cells[priceIndex] = { text: tier.price };
    return {
      sheet,
      rowNumber: row.rowNumber,
      raw: { ...raw, [TIER_KEY]: tier.range },
      ...interpretRow({ rowNumber: row.rowNumber, cells }, context),
    };
  });
}

/** The cell the download shows a tier's quantity range under. */
export const TIER_KEY = 'quantity tier';

// A sheet with nothing on it lost nothing; one with content but no header could not be read.
function withoutHeader(source: SourceSheet, hasContent: boolean): SheetReading {
  const problems = hasContent
    ? [
        `${source.label} has no header row: none of its first ${LIMITS.headerScanRows} rows names a price column and another known column (description, article number, unit, ...)`,
      ]
    : [];
  return {
    sheet: { name: source.name, headerRowNumber: null, columns: {} },
    rows: [],
    problems: [...problems, ...source.problems],
    hitRowLimit: false,
  };
}

function rowContext(
  indexes: Partial<Record<PriceListField, number>>,
  headerTexts: string[],
  defaultCurrency: string,
): RowContext {
  const priceHeader = indexes.price === undefined ? undefined : headerTexts[indexes.price];
  return {
    defaultCurrency,
    indexes,
    foldedHeader: headerTexts.map(foldText),
    headerCurrency: priceHeader === undefined ? null : currencyInHeader(priceHeader),
  };
}

function isEmptyRow(row: SourceRow): boolean {
  return row.cells.every((cell) => cell === undefined || (cell.text.trim() === '' && !cell.formulaWithoutResult));
}

function rowTexts(row: SourceRow): string[] {
  return Array.from(row.cells, (cell) => cell?.text ?? '');
}

/** Keys for `raw`: the header as written; blank or repeated headers get their column named. */
function headerKeys(headerTexts: string[]): string[] {
  const seen = new Set<string>();
  return headerTexts.map((text, index) => {
    let key = text === '' ? `column ${columnName(index)}` : text;
    if (seen.has(key)) key = `${key} (column ${columnName(index)})`;
    seen.add(key);
    return key;
  });
}

function rawCells(row: SourceRow, keys: string[]): Record<string, string> {
  const raw: Record<string, string> = {};
  keys.forEach((key, index) => (raw[key] = row.cells[index]?.text ?? ''));
  // Cells right of the header are kept too: a note written beside a row is still what the user wrote.
  for (let index = keys.length; index < row.cells.length; index++) {
    const text = row.cells[index]?.text;
    if (text !== undefined && text !== '') raw[`column ${columnName(index)}`] = text;
  }
  return raw;
}

function columnsAsWritten(
  indexes: Partial<Record<PriceListField, number>>,
  headerTexts: string[],
): Partial<Record<PriceListField, string>> {
  const columns: Partial<Record<PriceListField, string>> = {};
  for (const [field, index] of Object.entries(indexes) as [PriceListField, number][])
    columns[field] = headerTexts[index]!;
  return columns;
}

/** Spreadsheet column letters, which users see in Excel and most CSV viewers: 0 -> A, 26 -> AA. */
export function columnName(index: number): string {
  let name = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26))
    name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  return name;
}
