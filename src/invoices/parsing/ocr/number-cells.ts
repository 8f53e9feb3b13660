/**
 * Number cells read again where a row of the line table does not add up. Tesseract's page pass
 * now and then leaves a quantity, price or amount out, reads it into the next cell or loses its
 * decimal mark ("250" for 2,50). The row's own arithmetic (quantity × unit price = amount) says
 * which rows hold such a cell, and the table's columns say where each cell's ink is: those cells
 * are read once more with only digits and number marks allowed, and a reading replaces the page's
 * only when it makes its row add up. Runs in the page's helper, where the page image is.
 */
import { buildLines, type Line } from '../../../shared/layout/lines.js';
import { parseNumber, voteDecimalMark, type DecimalMark } from '../../../shared/layout/numbers.js';
import type { Word } from '../../../shared/layout/words.js';
import { DECIMAL_COMMA_LANGUAGES, detectLanguage } from '../layout/document.js';
import {
  bandSpan,
  columnOf,
  lenientNumber,
  readTable,
  rowArithmetic,
  type Band,
  type TableRow,
} from '../layout/table.js';

/** The cells the arithmetic checks, and so the only ones it can decide for. */
const ARITHMETIC_ROLES = ['quantity', 'unitPrice', 'amount'] as const;
export type ArithmeticRole = (typeof ARITHMETIC_ROLES)[number];

/** Rows read again per page: each adds three cells to one tesseract run. */
export const MAX_REREAD_ROWS = 24;
/** A cell's ink from this share of the font size above its baseline... */
const CELL_ABOVE = 1.0;
/** ...to this share below it (descenders, a comma). */
const CELL_BELOW = 0.35;

/** One cell to read again, in page units. */
export interface NumberCell {
  row: number;
  role: ArithmeticRole;
  page: number;
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  /** The row line's baseline and font size: a new word is put on that line. */
  baseline: number;
  height: number;
  bands: readonly Band[];
}

export interface RowsToReread {
  mark: DecimalMark;
  rows: TableRow[];
  cells: NumberCell[];
}

/**
 * The page's line table rows that do not add up, and the quantity, price and amount cells of
 * each (null: no table with all three columns, or every row adds up).
 */
export function rowsToReread(words: readonly Word[], pageWidth: number): RowsToReread | null {
  const lines = buildLines(words);
  const voted = voteDecimalMark(words.map((word) => word.text));
  const mark: DecimalMark = voted ?? (DECIMAL_COMMA_LANGUAGES.has(detectLanguage(lines)) ? ',' : '.');
  const table = readTable(lines, mark, true);
  if (!table || !ARITHMETIC_ROLES.every((role) => table.roles.includes(role))) return null;
  const rows = table.rows.filter((row) => rowArithmetic(row.cells, mark) !== true).slice(0, MAX_REREAD_ROWS);
  if (rows.length === 0) return null;
  const cells = rows.flatMap((row, index) =>
    ARITHMETIC_ROLES.flatMap((role) => {
      const cell = cellOf(row, index, role, pageWidth);
      return cell ? [cell] : [];
    }),
  );
  return { mark, rows, cells };
}

function cellOf(row: TableRow, index: number, role: ArithmeticRole, pageWidth: number): NumberCell | null {
  const span = bandSpan(row.bands, role);
  const line = lineHolding(row, role);
  if (!span || !line) return null;
  const x0 = Math.max(0, span.from);
  const x1 = Math.min(pageWidth, span.to);
  if (x1 <= x0) return null;
  return {
    row: index,
    role,
    page: line.page,
    x0,
    x1,
    top: line.y - CELL_ABOVE * line.height,
    bottom: line.y + CELL_BELOW * line.height,
    baseline: line.y,
    height: line.height,
    bands: row.bands,
  };
}

/** The row's line with a word in the column, else its first line (a cell OCR left out). */
function lineHolding(row: TableRow, role: ArithmeticRole): Line | undefined {
  return row.lines.find((line) => line.words.some((word) => columnOf(word, row.bands) === role)) ?? row.lines[0];
}

/** What the second reading saw in a cell: its words in page units. */
export interface CellReading {
  cell: NumberCell;
  words: Word[];
}

/**
 * The second readings that make their row add up, as the words that replace the cells' number
 * words. Per row, the fewest cells changed win; a row two readings would fix differently keeps
 * the page's reading, since the arithmetic cannot tell which is right.
 */
export function replacementsFor(request: RowsToReread, readings: readonly CellReading[]): CellReading[] {
  const chosen: CellReading[] = [];
  request.rows.forEach((row, index) => {
    const options = ARITHMETIC_ROLES.map((role) => {
      const reading = readings.find((entry) => entry.cell.row === index && entry.cell.role === role);
      return reading ? numberOptions(reading, row.cells[role], request.mark) : [];
    });
    const fix = fewestChanges(row, options, request.mark);
    if (fix) chosen.push(...fix);
  });
  return chosen;
}

/** The numbers a cell's second reading may be: all its words as one number, or one of them. */
function numberOptions(reading: CellReading, original: string | undefined, mark: DecimalMark): CellReading[] {
  const words = reading.words.filter((word) => /\d/u.test(word.text));
  const groups = words.length > 1 ? [words, ...words.map((word) => [word])] : [words];
  const negative = /^[-−]/u.test(original?.trim() ?? '');
  const options: CellReading[] = [];
  for (const group of groups) {
    const first = group[0];
    const last = group.at(-1);
    if (!first || !last) continue;
    const joined = group.map((word) => word.text).join(' ');
    // A credit note's minus is printed small and apart; the digit-only reading may not see it.
    const text = negative && !joined.startsWith('-') ? `-${joined}` : joined;
    if (lenientNumber(text, mark) === null && parseNumber(text, mark) === null) continue;
    if (text === original?.trim()) continue;
    const confidence = Math.min(...group.map((word) => word.confidence ?? 1));
    options.push({
      cell: reading.cell,
      words: [{ ...first, text, width: last.x + last.width - first.x, confidence }],
    });
  }
  return options;
}

function fewestChanges(row: TableRow, options: readonly CellReading[][], mark: DecimalMark): CellReading[] | null {
  let best: CellReading[] | null = null;
  let ambiguous = false;
  const walk = (index: number, picked: CellReading[]) => {
    if (index === ARITHMETIC_ROLES.length) {
      if (picked.length === 0) return;
      const cells = { ...row.cells };
      for (const reading of picked) cells[reading.cell.role] = reading.words[0]?.text ?? '';
      if (rowArithmetic(cells, mark) !== true) return;
      if (!best || picked.length < best.length) [best, ambiguous] = [picked, false];
      else if (picked.length === best.length) ambiguous = true;
      return;
    }
    walk(index + 1, picked);
    for (const option of options[index] ?? []) walk(index + 1, [...picked, option]);
  };
  walk(0, []);
  return ambiguous ? null : best;
}

/**
 * The page's words with each replaced cell's number words taken out and its second reading put
 * on the row's baseline; the cell's other words (a unit beside a quantity) stay.
 */
export function withReplacedCells(words: readonly Word[], replacements: readonly CellReading[]): Word[] {
  if (replacements.length === 0) return [...words];
  // A unit written in the quantity's cell ("12 stk") is not part of the number read again.
  const kept = words.filter(
    (word) => /^\p{L}{2,}\.?$/u.test(word.text) || !replacements.some(({ cell }) => isInCell(word, cell)),
  );
  const added = replacements.flatMap(({ cell, words: read }) =>
    read.map((word) => ({ ...word, page: cell.page, y: cell.baseline, height: cell.height })),
  );
  return [...kept, ...added];
}

function isInCell(word: Word, cell: NumberCell): boolean {
  return (
    word.page === cell.page &&
    Math.abs(word.y - cell.baseline) <= 0.45 * Math.max(cell.height, word.height) &&
    columnOf(word, cell.bands) === cell.role
  );
}
