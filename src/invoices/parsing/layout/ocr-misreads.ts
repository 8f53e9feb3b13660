/**
 * Lines read by OCR put right where the table itself tells what a cell should look like: a
 * column's codes share one shape ("B175-10" among "A101-20", "X948-50", read as "8175-10"), its
 * units one word ("pes" among "pcs"), its amounts one sign (a speck before "206 914,85" read as
 * a minus where no other row is negative), and no cell ends in a mark a speck left ("kg:",
 * "Std’"). Only a scan's reading gets this (readInvoiceFromWords' `ocr`): a text layer's
 * characters are what the supplier printed.
 */
import { Decimal } from 'decimal.js';
import type { InvoiceLine } from '../model.js';
import { NUMERIC_ROLES, type ColumnRole } from './labels.js';
import type { ReadTable } from './table.js';

/** Characters OCR takes for one another, in letter and digit form. */
const AS_LETTER: Readonly<Record<string, string>> = { '8': 'B', '5': 'S', '0': 'O', '1': 'I', '2': 'Z' };
const AS_DIGIT: Readonly<Record<string, string>> = { B: '8', S: '5', O: '0', I: '1', l: '1', Z: '2', G: '6' };
/** Lower-case letters OCR takes for one another in a short word ("pcs" read as "pes"). */
const SIMILAR_LETTERS = ['ce', 'eo', 'ao', 'il', 'nu', 'hb', 'rt'];
/** A column's most common shape or word wins when at least this many rows show it... */
const MIN_AGREEING = 3;
/** ...and at least this share of the column's cells. */
const MIN_SHARE = 0.6;

/** A word of digits, marks and the letters OCR reads for 1 and 0 ("i", "l", "|", "O"). */
const MISREAD_NUMBER = /^[-−(]?[\dilI|oO]+(?:[.,'][\dilI|oO]+)*[-)]?%?$/u;

/**
 * In a column of numbers a word that is one once its 1s and 0s are put back is that number: a
 * quantity "1" read as "i" or "l" (tesseract's number repair, repairNumber, needs two digits to
 * tell a number from a word; the column tells here).
 */
export function repairNumberCells(table: ReadTable): ReadTable {
  const rows = table.rows.map((row) => {
    const cells = { ...row.cells };
    for (const role of Object.keys(cells) as ColumnRole[]) {
      const cell = cells[role];
      if (cell === undefined || !NUMERIC_ROLES.has(role)) continue;
      // One word only: beside a number, "l" is a litre ("2 l").
      const word = cell.trim();
      if (/[ilI|oO]/u.test(word) && MISREAD_NUMBER.test(word) && (/\d/u.test(word) || word.length <= 2))
        cells[role] = word.replace(/[ilI|]/gu, '1').replace(/[oO]/gu, '0');
    }
    return { ...row, cells };
  });
  return { ...table, rows };
}

export function repairOcrMisreads(lines: readonly InvoiceLine[]): InvoiceLine[] {
  const cleaned = lines.map((line) => ({
    ...line,
    description: withoutTrailingMarks(line.description),
    unitCode: withoutTrailingMarks(line.unitCode),
    sellerItemId: withoutTrailingMarks(line.sellerItemId),
  }));
  const codes = byColumnShape(cleaned.map((line) => line.sellerItemId));
  const units = byColumnWord(cleaned.map((line) => line.unitCode));
  const withColumns = cleaned.map((line, index) => ({
    ...line,
    sellerItemId: codes[index] ?? null,
    unitCode: units[index] ?? null,
  }));
  return withPositionsInSequence(withoutStraySigns(withColumns)).map(withVatRateMark);
}

/** No European VAT rate is above this percent (the highest, Hungary's, is 27). */
const MAX_VAT_PERCENT = 30;

/**
 * A VAT rate no country charges whose decimal mark OCR lost is the rate with the mark put back
 * before its last digit: "55" is 5.5 (France), "255" is 25.5 (Finland).
 */
function withVatRateMark(line: InvoiceLine): InvoiceLine {
  const rate = line.vatPercent;
  if (rate === null || !/^\d{2,3}$/u.test(rate) || Number(rate) <= MAX_VAT_PERCENT) return line;
  return { ...line, vatPercent: `${rate.slice(0, -1)}.${rate.slice(-1)}` };
}

/**
 * A position between two that are one apart from it is that number ("1" read for 11 between 10
 * and 12): positions count up, and OCR drops or doubles a narrow digit.
 */
function withPositionsInSequence(lines: readonly InvoiceLine[]): InvoiceLine[] {
  const positions = lines.map((line) => (line.id !== null && /^\d{1,6}$/u.test(line.id) ? Number(line.id) : null));
  return lines.map((line, index) => {
    const before = positions[index - 1];
    const after = positions[index + 1];
    if (before === null || before === undefined || after === null || after === undefined) return line;
    return after === before + 2 && positions[index] !== before + 1 ? { ...line, id: String(before + 1) } : line;
  });
}

const LONE_MARKS = new Set(['-', '|', '·']);

/** "kpl -": a mark standing alone after the last word (no pattern: a run of spaces stays linear). */
function withoutLoneMark(text: string): string {
  if (!LONE_MARKS.has(text.at(-1) ?? '')) return text;
  const before = text.slice(0, -1);
  const trimmed = before.trimEnd();
  return trimmed.length < before.length ? trimmed : text;
}

/**
 * "kg:", "Std’", "Monitor 27 inch’", "kpl -", "Projectmanagement-": a speck after the last word
 * (a hyphen that ends a cell breaks no word: nothing follows it).
 */
function withoutTrailingMarks(text: string | null): string | null {
  if (text === null) return null;
  const trimmed = withoutLoneMark(text)
    .replace(/(?<=\p{L})[’'"`:;,|-]+$/u, '')
    // After a digit a quote may be printed: 'Monitor 27"'.
    .replace(/(?<=\p{N})[’`:;,|]+$/u, '')
    .trim();
  return trimmed === '' ? null : trimmed;
}

function shapeOf(code: string): string {
  return code
    .replace(/\p{Lu}/gu, 'A')
    .replace(/\p{Ll}/gu, 'a')
    .replace(/\d/gu, '9');
}

/** The value most cells of a column share, when enough of them do. */
function consensus(values: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  const [top, count] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? [null, 0];
  return top !== null && count >= MIN_AGREEING && count >= MIN_SHARE * values.length ? top : null;
}

/** Codes that differ from the column's shape only where OCR confuses a letter and a digit take the shape. */
function byColumnShape(codes: readonly (string | null)[]): (string | null)[] {
  const shape = consensus(codes.flatMap((code) => (code ? [shapeOf(code)] : [])));
  if (!shape) return [...codes];
  return codes.map((code) => {
    if (!code || code.length !== shape.length || shapeOf(code) === shape) return code;
    const repaired = [...code]
      .map((char, index) => {
        const wanted = shape[index];
        if (wanted === 'A' && /\d/u.test(char)) return AS_LETTER[char] ?? char;
        if (wanted === 'A' && /\p{Ll}/u.test(char)) return char.toUpperCase();
        if (wanted === '9' && /\p{L}/u.test(char)) return AS_DIGIT[char] ?? char;
        return char;
      })
      .join('');
    return shapeOf(repaired) === shape ? repaired : code;
  });
}

/** A unit one slip from the column's common unit is that unit. */
function byColumnWord(units: readonly (string | null)[]): (string | null)[] {
  const common = consensus(units.flatMap((unit) => (unit ? [unit] : [])));
  if (!common) return [...units];
  // "Std." among "Std": a speck after the unit, or one similar letter ("pes" among "pcs").
  return units.map((unit) => (unit && (oneSimilarLetterApart(unit, common) || unit === `${common}.`) ? common : unit));
}

function oneSimilarLetterApart(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  const differing = [...a].flatMap((char, index) => (char === b[index] ? [] : [`${char}${b[index]}`]));
  if (differing.length !== 1) return false;
  const pair = [...(differing[0] as string)].sort().join('');
  return SIMILAR_LETTERS.includes(pair);
}

type SignedColumn = 'quantity' | 'unitPrice' | 'netAmount';
const SIGNED: readonly SignedColumn[] = ['quantity', 'unitPrice', 'netAmount'];

/**
 * A minus in one row's quantity, price or amount that no other row of the column has, where the
 * row's quantity × price equals its amount without it, is a speck: credit notes print every
 * amount negative, and a discount row has no such product.
 */
function withoutStraySigns(lines: readonly InvoiceLine[]): InvoiceLine[] {
  const checked = lines.filter(multipliesOut);
  if (checked.length < MIN_AGREEING) return [...lines];
  return lines.map((line) => {
    if (!multipliesOut(line)) return line;
    const negative = SIGNED.filter((column) => new Decimal(line[column] as string).isNegative());
    if (negative.length !== 1) return line;
    const column = negative[0] as SignedColumn;
    const othersNegative = checked.some((other) => other !== line && new Decimal(other[column] as string).isNegative());
    return othersNegative ? line : { ...line, [column]: (line[column] as string).replace(/^-/u, '') };
  });
}

function multipliesOut(line: InvoiceLine): boolean {
  if (line.quantity === null || line.unitPrice === null || line.netAmount === null) return false;
  if (line.allowanceCharges.length > 0) return false;
  const product = new Decimal(line.quantity).abs().times(new Decimal(line.unitPrice).abs());
  return product.minus(new Decimal(line.netAmount).abs()).abs().lte('0.011');
}
