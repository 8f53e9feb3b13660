import { Decimal } from 'decimal.js';

// Money stays decimal end to end: decimal.js in logic, Decimal columns in PostgreSQL, decimal
// strings in JSON. These helpers are the only bridge between the three.

/** A decimal number as a string: optional "-", digits, optional "." and digits. */
export type DecimalString = string;

export type DecimalLike = { toString(): string } | string | number;

export function toDecimal(value: DecimalLike): Decimal {
  return new Decimal(value.toString());
}

// What formatting needs of a decimal: decimal.js's and Prisma's Decimal (a copy of decimal.js,
// what database reads return) both have it, so a value read is formatted without being parsed
// again from its text (half the time of serializing a list page of invoices).
type Formattable = { toFixed(decimalPlaces?: number): string; decimalPlaces(): number };

function formattable(value: DecimalLike): Formattable {
  if (
    typeof value === 'object' &&
    typeof (value as Partial<Formattable>).toFixed === 'function' &&
    typeof (value as Partial<Formattable>).decimalPlaces === 'function'
  )
    return value as Formattable;
  return toDecimal(value);
}

// A decimal in the plain text PostgreSQL gives a numeric (a list page's lines carry them so):
// no leading zeros, no exponent. Rendered from its text, without a Decimal (an invoice page has
// some 600 of them).
const PLAIN_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

// `text` (PLAIN_DECIMAL) without the zeros that end its fraction, then padded to `minDecimals`:
// what decimal.js's toFixed gives with at least the value's own decimal places.
function formatPlain(text: string, minDecimals: number): string {
  const point = text.indexOf('.');
  let end = text.length;
  if (point >= 0) while (end > point + 1 && text.charCodeAt(end - 1) === 48 /* 0 */) end--;
  const decimals = point >= 0 ? end - point - 1 : 0;
  const kept = decimals > 0 ? text.slice(0, end) : point >= 0 ? text.slice(0, point) : text;
  if (kept === '-0') return formatPlain('0', minDecimals);
  if (decimals >= minDecimals) return kept;
  return `${kept}${decimals === 0 ? '.' : ''}${'0'.repeat(minDecimals - decimals)}`;
}

const isPlain = (value: DecimalLike): value is string => typeof value === 'string' && PLAIN_DECIMAL.test(value);

// Amounts render with at least two decimals ("1250.00"), more when recorded with more. (toFixed
// with at least the value's own decimal places only pads: nothing is rounded.)
export function formatAmount(value: DecimalLike | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (isPlain(value)) return formatPlain(value, 2);
  const decimal = formattable(value);
  return decimal.toFixed(Math.max(2, decimal.decimalPlaces()));
}

// Quantities, prices and rates render exactly as recorded, without forced scale.
export function formatDecimal(value: DecimalLike | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (isPlain(value)) return formatPlain(value, 0);
  return formattable(value).toFixed();
}

export function sum(values: (DecimalLike | null | undefined)[]): Decimal {
  return values.reduce<Decimal>(
    (total, value) => (value === null || value === undefined ? total : total.plus(toDecimal(value))),
    new Decimal(0),
  );
}
