/**
 * A price table from positioned words (a PDF's text layer, or OCR words in the same shape):
 * the header line is found by its column names (columns.ts, all our languages), the columns are
 * the header cells' bands, and every line below becomes a row of cells. It hands the sheet
 * reader (sheet.ts) rows of cells, as the CSV and XLSX readers do, so the rows are judged by the
 * same rules.
 *
 * - A line with text only in the description column, close under a row, continues that row's
 *   description (wrapped text).
 * - A header line repeated on a later page is skipped; the table ends on a page at a wide gap
 *   (notes, totals and footers below it are not rows).
 * - A header printed over two lines ("Unit" over "price") is joined.
 */
import { buildLines, type Line, type Segment } from '../../../shared/layout/lines.js';
import { voteDecimalMark, parseNumber, type DecimalMark } from '../../../shared/layout/numbers.js';
import type { Word } from '../../../shared/layout/words.js';
import { Decimal } from 'decimal.js';
import { findHeaderRow, mapColumns, headerScore } from '../columns.js';
import { isIsoCurrencyCode } from '../currency.js';
import type { PriceListField, SourceCell, SourceRow, SourceSheet } from '../model.js';
import { parseNumberText } from '../numbers.js';

/** Lines searched for the header: title blocks above a price table are short. */
const HEADER_SEARCH_LINES = 80;
/** A line further below the previous row than this many row heights ends the table on its page. */
const TABLE_END_GAP = 2.5;
/** A description-only line at most this many line heights below a row continues it. */
const CONTINUATION_GAP = 1.9;

interface Column {
  x0: number;
  x1: number;
  /** Band of the page this column owns (between its neighbours). */
  left: number;
  right: number;
}

export interface WordTable {
  sheet: SourceSheet;
  /** Where each source row is in the document: `rowNumber` -> page and row on that page. */
  places: Map<number, { page: number; row: number }>;
  /** An ISO currency the text outside the table names (one only), e.g. "All prices in EUR". */
  documentCurrency: string | null;
  /** The decimal mark the document's numbers agree on, if they say. */
  decimalMark: DecimalMark | null;
}

export function tableFromWords(words: readonly Word[], name: string): WordTable | null {
  const lines = buildLines(words);
  const header = findHeader(lines);
  if (header === null) return null;
  const columns = columnsOf(header.cells);
  const headerTexts = header.cells.map((cell) => cell.text);
  const body: { line: Line; cells: string[] }[] = [];
  const outside: Line[] = lines.slice(0, header.index - header.extraAbove);
  let page = header.line.page;
  let lastRowLine: Line | null = header.line;
  let ended = false;
  let rowSpacing = header.line.height * 1.6;
  for (const line of lines.slice(header.index + 1 + header.extraBelow)) {
    if (line.page !== page) {
      page = line.page;
      ended = false;
      lastRowLine = null;
    }
    const cells = cellsOf(line, columns);
    if (lastRowLine === null) {
      // A new page: its page header (and a repeated table header) come before the rows.
      if (isRepeatedHeader(cells, headerTexts)) {
        lastRowLine = line;
        continue;
      }
      if (!hasPrice(cells, header.mapping)) {
        outside.push(line);
        continue;
      }
    } else if (ended || line.y - lastRowLine.y > TABLE_END_GAP * Math.max(rowSpacing, line.height)) {
      ended = true;
      outside.push(line);
      continue;
    }
    if (isRepeatedHeader(cells, headerTexts)) continue;
    const previous = body.at(-1);
    if (previous && lastRowLine && continuesDescription(cells, header.mapping, line, lastRowLine)) {
      const index = header.mapping.description!;
      previous.cells[index] = `${previous.cells[index] ?? ''} ${cells[index]}`.trim();
      lastRowLine = line;
      continue;
    }
    if (lastRowLine && lastRowLine !== header.line && lastRowLine.page === line.page)
      rowSpacing = Math.min(rowSpacing * 1.5, Math.max(line.y - lastRowLine.y, line.height));
    body.push({ line, cells });
    lastRowLine = line;
  }

  const decimalMark = voteDecimalMark(body.flatMap((row) => row.cells));
  const rows: SourceRow[] = [{ rowNumber: 1, cells: headerTexts.map((text) => ({ text })) }];
  const places = new Map<number, { page: number; row: number }>();
  const perPage = new Map<number, number>();
  body.forEach((row, index) => {
    const rowNumber = index + 2;
    const onPage = (perPage.get(row.line.page) ?? 0) + 1;
    perPage.set(row.line.page, onPage);
    places.set(rowNumber, { page: row.line.page, row: onPage });
    rows.push({
      rowNumber,
      cells: row.cells.map((text, column) => sourceCell(text, column === header.mapping.price, decimalMark)),
    });
  });
  return {
    sheet: { name, label: 'the document', rows, problems: [] },
    places,
    documentCurrency: currencyNamedIn(outside.map((line) => line.text)),
    decimalMark,
  };
}

interface Header {
  line: Line;
  index: number;
  cells: Segment[];
  mapping: Partial<Record<PriceListField, number>>;
  /** Lines above / below the header line that were joined into its cells. */
  extraAbove: number;
  extraBelow: number;
}

function findHeader(lines: Line[]): Header | null {
  const candidates = lines.slice(0, HEADER_SEARCH_LINES);
  const found = findHeaderRow(candidates.map((line) => line.segments.map((segment) => segment.text)));
  const single =
    found === null
      ? null
      : { index: found.position, cells: candidates[found.position]!.segments, extraAbove: 0, extraBelow: 0 };
  // A header printed over two lines names its columns only when the lines are read together.
  let best = single;
  let bestScore = found === null ? 0 : headerScore(found.mapping);
  for (let index = 0; index + 1 < candidates.length; index++) {
    const upper = candidates[index]!;
    const lower = candidates[index + 1]!;
    if (upper.page !== lower.page || lower.y - upper.y > 1.6 * Math.max(upper.height, lower.height)) continue;
    if (hasNumbers(upper) || hasNumbers(lower)) continue;
    const cells = mergeHeaderLines(upper.segments, lower.segments);
    const score = headerScore(mapColumns(cells.map((cell) => cell.text)));
    if (score > bestScore) {
      best = { index: index + 1, cells, extraAbove: 1, extraBelow: 0 };
      bestScore = score;
    }
  }
  if (best === null || bestScore === 0) return null;
  const mapping = mapColumns(best.cells.map((cell) => cell.text)).indexes;
  return { ...best, line: candidates[best.index]!, mapping };
}

function hasNumbers(line: Line): boolean {
  return line.segments.some((segment) => /\d/u.test(segment.text));
}

/** Cells of two header lines, those that overlap horizontally joined top to bottom. */
function mergeHeaderLines(upper: Segment[], lower: Segment[]): Segment[] {
  const merged: Segment[] = lower.map((segment) => ({ ...segment }));
  for (const top of upper) {
    const below = merged.find((segment) => overlap(segment.x0, segment.x1, top.x0, top.x1) > 0);
    if (below) {
      below.text = `${top.text} ${below.text}`;
      below.words = [...top.words, ...below.words];
      below.x0 = Math.min(below.x0, top.x0);
      below.x1 = Math.max(below.x1, top.x1);
    } else merged.push({ ...top });
  }
  return merged.sort((a, b) => a.x0 - b.x0);
}

function columnsOf(cells: Segment[]): Column[] {
  return cells.map((cell, index) => {
    const previous = cells[index - 1];
    const next = cells[index + 1];
    return {
      x0: cell.x0,
      x1: cell.x1,
      left: previous ? (previous.x1 + cell.x0) / 2 : -Infinity,
      right: next ? (cell.x1 + next.x0) / 2 : Infinity,
    };
  });
}

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
}

function columnAt(x: number, columns: Column[]): number {
  const index = columns.findIndex((column) => x >= column.left && x < column.right);
  return index === -1 ? columns.length - 1 : index;
}

/**
 * A line's text per column. A cell belongs to the column its first word starts in; words of a
 * segment that reach into a later column are split off when they are numbers or short tokens
 * (a unit and a price printed close together), never out of a description's running text.
 */
function cellsOf(line: Line, columns: Column[]): string[] {
  const cells: string[] = columns.map(() => '');
  const add = (column: number, text: string) => (cells[column] = cells[column] ? `${cells[column]} ${text}` : text);
  for (const segment of line.segments) {
    let column = columnAt(centre(segment.words[0]!), columns);
    let text = '';
    for (const word of segment.words) {
      const at = columnAt(centre(word), columns);
      if (at > column && text !== '' && splitsOff(word.text)) {
        add(column, text);
        column = at;
        text = word.text;
      } else text = text ? `${text} ${word.text}` : word.text;
    }
    if (text !== '') add(column, text);
  }
  return cells;
}

function centre(word: Word): number {
  return word.x + word.width / 2;
}

function splitsOff(text: string): boolean {
  return /^[-−(]?[\d€$£]/u.test(text) || text.length <= 4;
}

function isRepeatedHeader(cells: string[], headerTexts: string[]): boolean {
  const filled = cells.filter((cell) => cell !== '').length;
  return filled >= 2 && cells.every((cell, index) => cell === '' || cell === headerTexts[index]);
}

function hasPrice(cells: string[], mapping: Partial<Record<PriceListField, number>>): boolean {
  const index = mapping.price ?? mapping.rate;
  return index !== undefined && /\d/u.test(cells[index] ?? '');
}

// Text only in the description column, close under the row above: the description wraps.
function continuesDescription(
  cells: string[],
  mapping: Partial<Record<PriceListField, number>>,
  line: Line,
  previous: Line,
): boolean {
  const index = mapping.description;
  if (index === undefined || cells[index] === '') return false;
  if (cells.some((cell, column) => column !== index && cell !== '')) return false;
  return (
    line.page === previous.page && line.y - previous.y <= CONTINUATION_GAP * Math.max(line.height, previous.height)
  );
}

/**
 * A price cell's text, with its value when the text alone is ambiguous ("1,234") and the
 * document's other numbers say which mark is the decimal one.
 */
function sourceCell(text: string, isPrice: boolean, mark: DecimalMark | null): SourceCell {
  if (!isPrice || mark === null || text === '') return { text };
  const parsed = parseNumberText(text);
  if (parsed.ok || !parsed.problem.includes('ambiguous')) return { text };
  const value = parseNumber(text, mark);
  return value === null ? { text } : { text, number: new Decimal(value) };
}

// "All prices in EUR", "Priser i NOK eks. mva", "Währung: EUR": one ISO code named in capitals.
function currencyNamedIn(texts: string[]): string | null {
  const codes = new Set<string>();
  for (const text of texts) {
    for (const token of text.match(/\b[A-Z]{3}\b/gu) ?? [])
      if (isIsoCurrencyCode(token) && token !== 'VAT') codes.add(token);
  }
  return codes.size === 1 ? [...codes][0]! : null;
}
