import { Decimal } from 'decimal.js';

// Money stays decimal end to end: decimal.js in logic, Decimal columns in PostgreSQL, decimal
// strings in JSON. These helpers are the only bridge between the three.

export type DecimalLike = { toString(): string } | string | number;

export function toDecimal(value: DecimalLike): Decimal {
  return new Decimal(value.toString());
}

// Amounts render with at least two decimals ("1250.00"), more when recorded with more.
export function formatAmount(value: DecimalLike | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const decimal = toDecimal(value);
  return decimal.toFixed(Math.max(2, decimal.decimalPlaces()));
}

// Quantities, prices and rates render exactly as recorded, without forced scale.
export function formatDecimal(value: DecimalLike | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return toDecimal(value).toFixed();
}

export function sum(values: (DecimalLike | null | undefined)[]): Decimal {
  return values.reduce<Decimal>((total, value) => (value === null || value === undefined ? total : total.plus(toDecimal(value))), new Decimal(0));
}
