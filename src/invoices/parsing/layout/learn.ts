/**
 * Learning a supplier's layout from one corrected invoice: each value the person confirmed is
 * looked for among the document's words, and where it stands is remembered relative to its
 * nearest label (the label's words, after it or under it) and to the page; the corrected lines
 * give the x-ranges of the table's columns. Nothing is learned for a value the page does not show.
 */
import { Decimal } from 'decimal.js';
import { dateIn, findDate } from './dates.js';
import { normalizeLabel } from './labels.js';
import { buildLines, type Line, type Segment } from '../../../shared/layout/lines.js';
import {
  REMEMBERED_FIELDS,
  confirmedValueOf,
  kindOf,
  type ColumnRange,
  type ConfirmedValues,
  type FieldKind,
  type LayoutMemory,
  type RememberedColumn,
  type RememberedField,
  type ValueAnchor,
} from './memory.js';
import { parseNumber, voteDecimalMark } from '../../../shared/layout/numbers.js';
import { readTable } from './table.js';
import type { Word } from '../../../shared/layout/words.js';

/** At most this many places are remembered per field (a total printed twice, say). */
const ANCHORS_PER_FIELD = 3;
/** A label is at most this many words ("amount to settle by transfer"). */
const LABEL_WORDS = 5;

/** What the words of one document teach about where its supplier prints the confirmed values. */
export function learnLayout(words: readonly Word[], confirmed: ConfirmedValues): LayoutMemory {
  const lines = buildLines(words);
  const mark = voteDecimalMark(words.map((word) => word.text)) ?? '.';
  const tableLines = readTable(lines, mark)?.tableLines ?? new Set<number>();
  const fields: LayoutMemory['fields'] = {};
  for (const field of REMEMBERED_FIELDS) {
    const value = confirmedValueOf(confirmed, field);
    if (value === null || value === '') continue;
    const anchors = occurrences(lines, kindOf(field), value)
      .filter((found) => !tableLines.has(found.line.index))
      .map((found) => anchorOf(found, lines))
      .filter((anchor): anchor is ValueAnchor => anchor !== null);
    const ordered = orderAnchors(anchors, kindOf(field));
    if (ordered.length > 0) fields[field] = ordered.slice(0, ANCHORS_PER_FIELD);
  }
  return {
    version: 1,
    fields,
    columns: learnColumns(lines, confirmed),
    misread: confirmed.corrected.filter((field): field is RememberedField => field !== 'lines'),
  };
}

export interface Occurrence {
  line: Line;
  /** The value's words on the line. */
  words: Word[];
}

/** Where the page prints a value: a text by its words, a date in any printed form, an amount by its number. */
export function occurrences(lines: readonly Line[], kind: FieldKind, value: string): Occurrence[] {
  const found: Occurrence[] = [];
  for (const line of lines) {
    for (let index = 0; index < line.words.length; index += 1) {
      const used = matchAt(line.words, index, kind, value);
      if (used > 0) found.push({ line, words: line.words.slice(index, index + used) });
    }
  }
  return found;
}

/** How many words from `index` print the value; 0 when they do not. */
function matchAt(words: readonly Word[], index: number, kind: FieldKind, value: string): number {
  const word = words[index]?.text ?? '';
  if (kind === 'amount') return amountEquals(word, value) ? 1 : 0;
  if (kind === 'date') {
    const found = findDate(words.slice(index, index + 4).map((entry) => entry.text));
    if (!found || found.start !== 0) return 0;
    return dateIn(found, 'dmy') === value || dateIn(found, 'mdy') === value ? found.wordCount : 0;
  }
  const tokens = value.trim().split(/\s+/u);
  const printed = words.slice(index, index + tokens.length).map((entry) => entry.text.replace(/[:,;]$/u, ''));
  return printed.length === tokens.length && printed.every((text, at) => sameText(text, tokens[at] ?? ''))
    ? tokens.length
    : 0;
}

function sameText(printed: string, value: string): boolean {
  return printed.toLowerCase() === value.toLowerCase();
}

/** Read under either decimal mark: the correction says which number it is, not how it was printed. */
export function amountEquals(text: string, value: string): boolean {
  if (!/\d/u.test(text)) return false;
  return [',', '.'].some((mark) => {
    const read = parseNumber(text, mark as ',' | '.');
    return read !== null && new Decimal(read).equals(value);
  });
}

/** The value's label: the words before it in its cell or in the cell to its left, else the cell above it. */
function anchorOf(found: Occurrence, lines: readonly Line[]): ValueAnchor | null {
  const first = found.words[0];
  if (!first) return null;
  const position = { page: found.line.page, x: round(first.x), y: round(first.y) };
  const before = labelBefore(found.line, first);
  const h = found.line.height || 1;
  if (before) {
    return { label: before.label, direction: 'right', dx: round((first.x - before.x0) / h), dy: 0, ...position };
  }
  const above = labelAbove(found.line, first, lines);
  if (!above) return null;
  const aboveHeight = above.line.height || 1;
  return {
    label: above.label,
    direction: 'below',
    dx: round((first.x - above.segment.x0) / aboveHeight),
    dy: round((first.y - above.line.y) / aboveHeight),
    ...position,
  };
}

function labelBefore(line: Line, first: Word): { label: string; x0: number } | null {
  const segmentIndex = line.segments.findIndex((segment) => segment.words.includes(first));
  const segment = line.segments[segmentIndex];
  if (!segment) return null;
  const inCell = segment.words.slice(0, segment.words.indexOf(first));
  const words = inCell.length > 0 ? inCell : (line.segments[segmentIndex - 1]?.words ?? []);
  return labelOf(words.slice(-LABEL_WORDS));
}

function labelAbove(
  line: Line,
  first: Word,
  lines: readonly Line[],
): { label: string; line: Line; segment: Segment } | null {
  for (let index = line.index - 1; index >= 0 && index >= line.index - 2; index -= 1) {
    const above = lines[index];
    if (!above || above.page !== line.page || line.y - above.y > 3.2 * above.height) return null;
    const segment = above.segments
      .map((candidate) => ({ candidate, overlap: overlap(candidate, first, above.height) }))
      .filter(({ overlap: shared }) => shared > 0)
      .sort((a, b) => b.overlap - a.overlap)[0]?.candidate;
    if (!segment) continue;
    const label = labelOf(segment.words.slice(0, LABEL_WORDS));
    return label ? { label: label.label, line: above, segment } : null;
  }
  return null;
}

function overlap(segment: Segment, word: Word, height: number): number {
  return Math.min(segment.x1, word.x + word.width + 2 * height) - Math.max(segment.x0, word.x - 2 * height);
}

/** Words are a label when they hold letters and are not themselves a date or an amount. */
function labelOf(words: readonly Word[]): { label: string; x0: number } | null {
  const label = normalizeLabel(words.map((word) => word.text).join(' '));
  if (!/\p{L}{2}/u.test(label) || findDate(words.map((word) => word.text))) return null;
  return { label, x0: words[0]?.x ?? 0 };
}

/** After-the-label before under-the-label; totals from the bottom of the document up, the rest top-down. */
function orderAnchors(anchors: ValueAnchor[], kind: FieldKind): ValueAnchor[] {
  const unique = new Map<string, ValueAnchor>();
  for (const anchor of anchors) unique.set(`${anchor.direction}|${anchor.label}`, anchor);
  const place = (anchor: ValueAnchor) => anchor.page * 10_000 + anchor.y;
  return [...unique.values()].sort(
    (a, b) =>
      (a.direction === 'right' ? 0 : 1) - (b.direction === 'right' ? 0 : 1) ||
      (kind === 'amount' ? place(b) - place(a) : place(a) - place(b)),
  );
}

// A column's x-range is clear from a few lines. Each corrected line is sought among all the page's
// lines, so the lines learned from are bounded: a 10,000-line invoice must not make it quadratic.
export const MAX_LINES_LEARNED_FROM = 50;

/** The x-ranges of the columns that print the corrected lines' quantities, prices, amounts and descriptions. */
function learnColumns(lines: readonly Line[], confirmed: ConfirmedValues): LayoutMemory['columns'] {
  const ranges: Partial<Record<RememberedColumn, ColumnRange>> = {};
  const widen = (column: RememberedColumn, words: readonly Word[]) => {
    for (const word of words) {
      const range = ranges[column];
      ranges[column] = {
        x0: round(Math.min(range?.x0 ?? word.x, word.x)),
        x1: round(Math.max(range?.x1 ?? word.x + word.width, word.x + word.width)),
      };
    }
  };
  const used = new Set<number>();
  for (const corrected of confirmed.lines.slice(0, MAX_LINES_LEARNED_FROM)) {
    if (corrected.netAmount === null) continue;
    for (const line of lines) {
      if (used.has(line.index)) continue;
      const amount = line.words.findLast((word) => amountEquals(word.text, corrected.netAmount as string));
      const quantity = corrected.quantity
        ? line.words.find((word) => word !== amount && amountEquals(word.text, corrected.quantity as string))
        : undefined;
      const price = corrected.unitPrice
        ? line.words.find((word) => word !== amount && amountEquals(word.text, corrected.unitPrice as string))
        : undefined;
      if (!amount || (!quantity && !price)) continue;
      used.add(line.index);
      widen('amount', [amount]);
      if (quantity) widen('quantity', [quantity]);
      if (price) widen('unitPrice', [price]);
      const description = corrected.description ? occurrences([line], 'text', corrected.description)[0] : undefined;
      if (description) widen('description', description.words);
      break;
    }
  }
  return ranges.amount ? ranges : null;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
