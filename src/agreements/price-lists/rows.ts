import type { Decimal } from 'decimal.js';
import { resolveCurrency } from './currency.js';
import { parseDateText } from './dates.js';
import type { PriceItem, PriceItemPrice, PriceListField, SourceCell, SourceRow } from './model.js';
import { compactText, foldText } from './normalize.js';
import { parseNumberText } from './numbers.js';

// One data row -> accepted price item, or rejected with every reason found, in plain English.

export interface RowContext {
  defaultCurrency: string;
  /** Column index of each field found in the header. */
  indexes: Partial<Record<PriceListField, number>>;
  /** Folded header texts, to spot a header repeated inside the data (page breaks in exports). */
  foldedHeader: string[];
  /** A currency named in the price column's header, e.g. "Price (NOK)". */
  headerCurrency: string | null;
}

export type RowVerdict =
  { outcome: 'accepted'; reason: null; item: PriceItem } | { outcome: 'rejected'; reason: string; item: null };

type Problem = { problem: string };
type PriceReading =
  { kind: 'amount'; amount: Decimal; currencyToken: string | null } | { kind: 'rate'; fraction: Decimal };

// First words of a totals line, in our languages. Such a row has no article number.
const TOTALS_WORDS = new Set(
  [
    'total',
    'totals',
    'subtotal',
    'sum',
    'grand total',
    'totalt',
    'sum total',
    'summa',
    'delsumma',
    'i alt',
    'ialt',
    'yhteensa',
    'valisumma',
    'gesamt',
    'summe',
    'zwischensumme',
    'gesamtsumme',
  ].map(compactText),
);

export function interpretRow(row: SourceRow, context: RowContext): RowVerdict {
  const cellOf = (field: PriceListField) => {
    const index = context.indexes[field];
    return index === undefined ? undefined : row.cells[index];
  };
  const textOf = (field: PriceListField) => cellOf(field)?.text.trim() ?? '';
  if (repeatsHeader(row, context)) return rejected('repeats the header row');
  const description = textOf('description');
  const sellerItemId = textOf('sellerItemId') || null;
  const totalsLabel = totalsRowLabel(row, context, sellerItemId);
  if (totalsLabel !== null) return rejected(`looks like a totals row ('${totalsLabel}'), not an item`);

  // Every problem of the row is reported at once, so the user fixes the file in one go.
  const problems: string[] = [];
  const unlessProblem = <T>(result: T | Problem): T | undefined => {
    if (!isProblem(result)) return result;
    problems.push(result.problem);
    return undefined;
  };
  if (description === '') problems.push('no description');
  const price = unlessProblem(
    readPrice(cellOf('price'), cellOf('rate')) ?? { problem: noPriceReason(row, description) },
  );
  const currency = unlessProblem(
    readCurrency(price?.kind === 'amount' ? price.currencyToken : null, textOf('currency'), context),
  );
  const validUntil = unlessProblem(readDate(cellOf('validUntil'), 'valid until'));
  const validFrom = unlessProblem(readDate(cellOf('validFrom'), 'valid from'));
  if (validFrom && validUntil && validFrom > validUntil)
    problems.push(`valid from ${validFrom} is after valid until ${validUntil}`);
  const basis = textOf('basis');
  if (price?.kind === 'rate' && basis === '') problems.push('a rate needs a basis');
  if (
    problems.length > 0 ||
    price === undefined ||
    currency === undefined ||
    validUntil === undefined ||
    validFrom === undefined
  )
    return rejected(problems.join('; '));

  const itemPrice: PriceItemPrice =
    price.kind === 'amount'
      ? { type: 'amount', amount: price.amount.toFixed() }
      : { type: 'rate', fraction: price.fraction.toFixed(), basis };
  return {
    outcome: 'accepted',
    reason: null,
    item: {
      description,
      sellerItemId,
      unit: textOf('unit') || null,
      currencyCode: currency.code,
      price: itemPrice,
      validFrom,
      validUntil,
    },
  };
}

function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && 'problem' in value;
}

function rejected(reason: string): RowVerdict {
  return { outcome: 'rejected', reason, item: null };
}

function repeatsHeader(row: SourceRow, context: RowContext): boolean {
  const mapped = Object.values(context.indexes);
  return (
    mapped.length > 0 && mapped.every((index) => foldText(row.cells[index]?.text ?? '') === context.foldedHeader[index])
  );
}

// "Total", "Sum", "I alt", "Yhteensä" in the row's first filled cell (whatever column that is) of a row
// with no article number and no unit. A product called "Total cleaner" has both, or at least a unit.
function totalsRowLabel(row: SourceRow, context: RowContext, sellerItemId: string | null): string | null {
  const label = row.cells.find((cell) => cell !== undefined && cell.text.trim() !== '')?.text.trim() ?? '';
  const unitIndex = context.indexes.unit;
  const hasUnit = unitIndex !== undefined && (row.cells[unitIndex]?.text.trim() ?? '') !== '';
  if (hasUnit || (sellerItemId !== null && sellerItemId !== label)) return null;
  const words = foldText(label).split(' ');
  return [1, 2].some((count) => words.length >= count && TOTALS_WORDS.has(words.slice(0, count).join('')))
    ? label
    : null;
}

// A lone text with nothing else on the row is a heading or a note ("Cables", "Prices excl. VAT").
function noPriceReason(row: SourceRow, description: string): string {
  const filled = row.cells.filter((cell) => cell !== undefined && cell.text.trim() !== '').length;
  return description !== '' && filled === 1 ? 'no price (looks like a heading or a note)' : 'no price';
}

// ---- price and rate ----

/** The row's price: an amount or a rate, a problem, or null when neither column has a value. */
function readPrice(priceCell: SourceCell | undefined, rateCell: SourceCell | undefined): PriceReading | Problem | null {
  const price = isFilled(priceCell) ? readPriceCell(priceCell) : null;
  const rate = isFilled(rateCell) ? readRateCell(rateCell) : null;
  if (rate === null || price === null) return price ?? rate;
  if (isProblem(price)) return price;
  if (isProblem(rate)) return rate;
  // A "Discount %" column of zeros next to the prices changes nothing; any other rate next to a
  // price would need us to guess how the two combine, so the row is rejected instead.
  if (price.kind === 'amount' && rate.kind === 'rate' && rate.fraction.isZero()) return price;
  return {
    problem: `has both a price ('${priceCell!.text.trim()}') and a rate ('${rateCell!.text.trim()}'); a price item is either an amount or a rate`,
  };
}

function isFilled(cell: SourceCell | undefined): cell is SourceCell {
  return cell !== undefined && (cell.text.trim() !== '' || cell.formulaWithoutResult === true);
}

function readPriceCell(cell: SourceCell): PriceReading | Problem {
  const written = `price '${cell.text.trim()}'`;
  const unusable = unusableNumberCell(cell, written);
  if (unusable !== null) return unusable;
  if (cell.number !== undefined) {
    if (cell.number.isNegative()) return { problem: `${written} is negative` };
    return cell.percentFormat
      ? { kind: 'rate', fraction: cell.number }
      : { kind: 'amount', amount: cell.number, currencyToken: cell.formatCurrency ?? null };
  }
  const parsed = parseNumberText(cell.text);
  if (!parsed.ok) return { problem: `${written} ${parsed.problem}` };
  if (parsed.negative && !parsed.value.isZero()) return { problem: `${written} is negative` };
  return parsed.percent
    ? { kind: 'rate', fraction: parsed.value.dividedBy(100) }
    : { kind: 'amount', amount: parsed.value, currencyToken: parsed.currencyToken };
}

// A rate column holds percents: "5", "5 %" and "5,5" mean 5 % and 5.5 %. An Excel cell formatted
// as a percent already stores the fraction (0.05 shown as 5 %).
function readRateCell(cell: SourceCell): PriceReading | Problem {
  const written = `rate '${cell.text.trim()}'`;
  const unusable = unusableNumberCell(cell, written);
  if (unusable !== null) return unusable;
  if (cell.number !== undefined) {
    if (cell.number.isNegative()) return { problem: `${written} is negative` };
    return { kind: 'rate', fraction: cell.percentFormat ? cell.number : cell.number.dividedBy(100) };
  }
  const parsed = parseNumberText(cell.text);
  if (!parsed.ok) return { problem: `${written} ${parsed.problem}` };
  if (parsed.currencyToken !== null) return { problem: `${written} is an amount, not a percent` };
  if (parsed.negative && !parsed.value.isZero()) return { problem: `${written} is negative` };
  return { kind: 'rate', fraction: parsed.value.dividedBy(100) };
}

function unusableNumberCell(cell: SourceCell, written: string): Problem | null {
  if (cell.formulaWithoutResult)
    return { problem: `${written} is a formula with no saved result; open and save the file in Excel first` };
  if (cell.date !== undefined) return { problem: `${written} is a date, not a number` };
  return null;
}

// ---- currency and dates ----

/**
 * Every currency the row names must agree: one in the price cell ("12 EUR", an Excel currency
 * format), one in the currency column, one in the price header. None named: the default.
 */
function readCurrency(priceToken: string | null, columnText: string, context: RowContext): { code: string } | Problem {
  const named: [token: string | null, source: string][] = [
    [columnText, 'the currency column'],
    [context.headerCurrency, 'the price header'],
    [priceToken, 'the price'],
  ];
  const claims: { source: string; code: string }[] = [];
  for (const [token, source] of named) {
    if (token === null || token === '') continue;
    // An ambiguous symbol ("kr") takes a code already in force: one named before it, else the default.
    const resolved = resolveCurrency(token, [...claims.map((claim) => claim.code), context.defaultCurrency]);
    if (isProblem(resolved)) return resolved;
    claims.push({ source, code: resolved.code });
  }
  if (new Set(claims.map((claim) => claim.code)).size > 1) {
    return {
      problem: `currency is unclear: ${claims.map((claim) => `${claim.source} says ${claim.code}`).join(', ')}`,
    };
  }
  return { code: claims[0]?.code ?? context.defaultCurrency };
}

/** YYYY-MM-DD, null when the row has none. `label` names the column in problems ("valid until"). */
function readDate(cell: SourceCell | undefined, label: string): string | null | Problem {
  if (!isFilled(cell)) return null;
  if (cell.date !== undefined) return cell.date;
  if (cell.formulaWithoutResult) return { problem: `${label} '${cell.text}' is a formula with no saved result` };
  if (cell.number !== undefined) return { problem: `${label} '${cell.text}' is a number, not a date` };
  const parsed = parseDateText(cell.text);
  return parsed.ok ? parsed.date : { problem: `${label} ${parsed.problem}` };
}
