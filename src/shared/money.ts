import { Decimal } from 'decimal.js';

// Money stays decimal end to end: decimal.js in logic, Decimal columns in PostgreSQL, decimal
// strings in JSON. These helpers are the only bridge between the three.

export type DecimalLike = { toString(): string } | string | number;

export function toDecimal(value: DecimalLike): Decimal {
  return new Decimal(value.toString());
}

// What formatting needs of a decimal: decimal.js's and Prisma's Decimal (a copy of decimal.js,
// what database reads return) both have it, so a value read is formatted without being parsed
// again from its text (half the time of serializing a list page of invoices).
type Formattable = { toFixed(decimalPlaces?: number): string; decimalPlaces(): number };

function formattable(value: DecimalLike): Formattable {
  if (typeof value === 'object' && typeof (value as Partial<Formattable>).toFixed === 'function' && typeof (value as Partial<Formattable>).decimalPlaces === 'function') return value as Formattable;
  return toDecimal(value);
}

// Amounts render with at least two decimals ("1250.00"), more when recorded with more. (toFixed
// with at least the value's own decimal places only pads: nothing is rounded.)
export function formatAmount(value: DecimalLike | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const decimal = formattable(value);
  return decimal.toFixed(Math.max(2, decimal.decimalPlaces()));
}

// Quantities, prices and rates render exactly as recorded, without forced scale.
export function formatDecimal(value: DecimalLike | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return formattable(value).toFixed();
}

export function sum(values: (DecimalLike | null | undefined)[]): Decimal {
  return values.reduce<Decimal>((total, value) => (value === null || value === undefined ? total : total.plus(toDecimal(value))), new Decimal(0));
}
