/**
 * Number cells read again where a row of the line table does not add up. Tesseract's page pass
 * now and then leaves a quantity, price or amount out, reads it into the next cell or loses its
 * decimal mark ("250" for 2,50). The row's own arithmetic (quantity × unit price = amount) says
 * which rows hold such a cell, and the table's columns say where each cell's ink is: those cells
 * are read once more with only digits and number marks allowed, and a reading replaces the page's
 * only when it makes its row add up. Runs in the page's helper, where the page image is.
 */
import { Decimal } from 'decimal.js';
import { buildLines, type Line } from '../../../shared/layout/lines.js';
import { parseNumber, voteDecimalMark, type DecimalMark } from '../../../shared/layout/numbers.js';
import type { Word } from '../../../shared/layout/words.js';
import { DECIMAL_COMMA_LANGUAGES, detectLanguage } from '../layout/document.js';
import {
  bandSpan,
  columnOf,
  lenientNumber,
  quantityOf,
  readTable,
  rowArithmetic,
  type Band,
  type TableRow,
} from '../layout/table.js';

/** The cells the arithmetic checks, and so the only ones it can decide for. */
const ARITHMETIC_ROLES = ['quantity', 'unitPrice', 'amount'] as const;
export type ArithmeticRole = (typeof ARITHMETIC_ROLES)[number];

const TWO_DECIMALS = /\d[.,]\d{2}(?!\d)/u;
/** Rows read again per page: each adds three cells to one tesseract run. */
export const MAX_REREAD_ROWS = 24;
/**
 * Readings tried per cell: every combination of the three cells' readings is checked, so a cell
 * of many digit words (a hostile scan) must not multiply them without bound.
 */
const MAX_OPTIONS_PER_CELL = 8;
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
  /** The words the page's reading has in the cell. */
  printed: Word[];
}

export interface RowsToReread {
  mark: DecimalMark;
  rows: TableRow[];
  cells: NumberCell[];
  /**
   * The columns some row of the table prints with two decimals: only there may a number have
   * lost its decimal mark (a quantity column of whole numbers holds a real 100, never 1,00).
   */
  twoDecimals: ReadonlySet<ArithmeticRole>;
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
  const twoDecimals = new Set(
    ARITHMETIC_ROLES.filter((role) => table.rows.some((row) => TWO_DECIMALS.test(row.cells[role] ?? ''))),
  );
  return { mark, rows, cells, twoDecimals };
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
    printed: line.words.filter((word) => columnOf(word, row.bands) === role),
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
  /** The words replace the whole cell, a unit beside the number too (a reading of the printed cell). */
  wholeCell?: boolean;
}

/**
 * The readings that make their row add up, as the words that replace the cells' words: the
 * second reading of a cell, or the page's own reading of it put right where OCR commonly errs
 * (cleanedNumber, withLostDecimalMark). Per row, the fewest cells changed win; a row that two
 * readings would give different numbers keeps the page's reading, since the arithmetic cannot
 * tell which is right.
 */
export function replacementsFor(request: RowsToReread, readings: readonly CellReading[]): CellReading[] {
  const chosen: CellReading[] = [];
  request.rows.forEach((row, index) => {
    const options = ARITHMETIC_ROLES.map((role) => {
      const reading = readings.find((entry) => entry.cell.row === index && entry.cell.role === role);
      return reading ? numberOptions(reading, row.cells[role], request.mark, request.twoDecimals.has(role)) : [];
    });
    const fix = fewestChanges(row, options, request.mark);
    if (fix) chosen.push(...fix);
  });
  return chosen;
}

/**
 * What a cell may read: the page's reading of it put right (first: it keeps the unit printed
 * beside a quantity), then the second reading's words as one number or each alone, each also
 * with a lost decimal mark put back where the column prints two decimals.
 */
function numberOptions(
  reading: CellReading,
  original: string | undefined,
  mark: DecimalMark,
  twoDecimals: boolean,
): CellReading[] {
  const printed = original?.trim() ?? '';
  // A credit note's minus is printed small and apart; the digit-only reading may not see it.
  const negative = /^\W?[-−(]/u.test(printed);
  const signed = (text: string) => (negative && !/^[-−(]/u.test(text) ? `-${text}` : text);
  const texts = new Map<string, CellReading>();
  const add = (text: string, words: readonly Word[], wholeCell: boolean) => {
    if (text === printed || texts.has(text) || !/\d/u.test(text)) return;
    const first = words[0];
    const last = words.at(-1);
    if (!first || !last) return;
    const confidence = Math.min(...words.map((word) => word.confidence ?? 1));
    texts.set(text, {
      cell: reading.cell,
      words: [{ ...first, text, width: last.x + last.width - first.x, confidence }],
      wholeCell,
    });
  };
  const printedWords = reading.cell.printed;
  if (printed !== '' && printedWords.length > 0) {
    const cleaned = cleanedNumber(printed, mark);
    add(cleaned, printedWords, true);
    if (twoDecimals) add(withLostDecimalMark(cleaned, mark), printedWords, true);
  }
  const words = reading.words.filter((word) => /\d/u.test(word.text));
  const groups = words.length > 1 ? [words, ...words.map((word) => [word])] : [words];
  for (const group of groups) {
    const joined = signed(group.map((word) => word.text).join(' '));
    add(joined, group, false);
    if (twoDecimals) add(withLostDecimalMark(joined, mark), group, false);
  }
  return [...texts.values()].slice(0, MAX_OPTIONS_PER_CELL);
}

/**
 * A number cell without the marks specks and OCR add to it: before its first digit (".149,00",
 * "“40 720,78"; a minus or an opening parenthesis stays), after its last ("149.00:", "(6,094.54):";
 * a closing parenthesis or a trailing minus stays), between the number and its unit ("7.50'ea");
 * a decimal mark read as a colon ("8,507:55"), and a 1 read as "l" before a short unit ("lea").
 */
export function cleanedNumber(text: string, mark: DecimalMark): string {
  return (
    text
      .replace(/^[^\d\p{L}(−-]+/u, '')
      // Only after a digit, letter or sign: a run of marks is scanned once, not once from each mark.
      .replace(/(?<=[\d\p{L})−-])[^\d\p{L})−-]+$/u, '')
      .replace(/(?<=\d)[^\d\p{L}\s.,]+(?=\p{L})/u, ' ')
      .replace(/(?<=\d)[:;](?=\d{2}(?:\D|$))/u, mark)
      .replace(/^[lI|](?=\p{L}{1,3}\.?$|\s|$)/u, '1')
  );
}

/**
 * A number printed with two decimals whose decimal mark OCR lost ("250" for 2,50, "143892" for
 * 1 438,92): its digits with the mark put back before the last two. Only the row's arithmetic
 * can say whether the mark was there.
 */
export function withLostDecimalMark(text: string, mark: DecimalMark): string {
  const match = /^([-−(]?)([\d.,' ]+)([)]?)$/u.exec(text);
  if (!match) return text;
  const digits = (match[2] ?? '').replace(/\D/gu, '');
  if (digits.length < 3) return text;
  return `${match[1] ?? ''}${digits.slice(0, -2)}${mark}${digits.slice(-2)}${match[3] ?? ''}`;
}

function fewestChanges(row: TableRow, options: readonly CellReading[][], mark: DecimalMark): CellReading[] | null {
  let best: CellReading[] | null = null;
  let bestValues = '';
  let ambiguous = false;
  const walk = (index: number, picked: CellReading[]) => {
    if (index === ARITHMETIC_ROLES.length) {
      if (picked.length === 0) return;
      const cells = { ...row.cells };
      for (const reading of picked) cells[reading.cell.role] = reading.words[0]?.text ?? '';
      if (rowArithmetic(cells, mark) !== true) return;
      const values = valuesOf(cells, mark);
      if (!best || picked.length < best.length) [best, bestValues, ambiguous] = [picked, values, false];
      else if (picked.length === best.length && values !== bestValues) ambiguous = true;
      return;
    }
    walk(index + 1, picked);
    for (const option of options[index] ?? []) walk(index + 1, [...picked, option]);
  };
  walk(0, []);
  return ambiguous ? null : best;
}

/** The row's quantity, price and amount as numbers: two readings that agree on them are one. */
function valuesOf(cells: TableRow['cells'], mark: DecimalMark): string {
  return [
    cells.quantity === undefined ? null : quantityOf(cells.quantity, mark).quantity,
    cells.unitPrice === undefined ? null : lenientNumber(cells.unitPrice, mark),
    cells.amount === undefined ? null : parseNumber(cells.amount, mark),
  ]
    .map((value) => (value === null ? '-' : new Decimal(value).toString()))
    .join('|');
}

/**
 * The page's words with each replaced cell's number words taken out and its second reading put
 * on the row's baseline; the cell's other words (a unit beside a quantity) stay.
 */
export function withReplacedCells(words: readonly Word[], replacements: readonly CellReading[]): Word[] {
  if (replacements.length === 0) return [...words];
  // A unit written in the quantity's cell ("12 stk") is not part of a number read again.
  const kept = words.filter(
    (word) =>
      !replacements.some(
        ({ cell, wholeCell }) => isInCell(word, cell) && (wholeCell === true || !/^\p{L}{2,}\.?$/u.test(word.text)),
      ),
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
