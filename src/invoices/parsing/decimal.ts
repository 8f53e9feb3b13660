import { Decimal } from 'decimal.js';
import type { DecimalString } from './model.js';

/** Digits with an optional fraction, as XML schema decimals are written (no exponent, no grouping). */
const PLAIN_DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
/** Longer inputs are not money; refusing them keeps Decimal work bounded on hostile input. */
const MAX_DECIMAL_LENGTH = 64;

/**
 * Normalizes a decimal as written in an invoice to a canonical decimal string while keeping
 * the written scale: "1656.25" → "1656.25", "7125" → "7125", "+0.50" → "0.50",
 * Finvoice's decimal comma "1116,00" → "1116.00". Returns null for anything that is not a
 * plain decimal (exponents, thousands separators, text).
 */
export function normalizeDecimal(raw: string | null | undefined): DecimalString | null {
  if (raw === null || raw === undefined) return null;
  const compact = raw.replace(/\s+/g, '');
  if (compact === '' || compact.length > MAX_DECIMAL_LENGTH) return null;
  const dotted = decimalCommaToDot(compact);
  if (dotted === null || !PLAIN_DECIMAL.test(dotted)) return null;
  return toCanonical(dotted);
}

/** A single decimal comma becomes a dot; a value mixing both separators is ambiguous. */
function decimalCommaToDot(value: string): string | null {
  if (!value.includes(',')) return value;
  if (value.includes('.') || value.indexOf(',') !== value.lastIndexOf(',')) return null;
  return value.replace(',', '.');
}

function toCanonical(plain: string): DecimalString {
  const fraction = plain.split('.')[1] ?? '';
  const value = new Decimal(plain);
  // Decimal keeps the sign of "-0.00"; a signed zero means nothing in an invoice.
  return (value.isZero() ? new Decimal(0) : value).toFixed(fraction.length);
}

/** Sum of decimal strings at the largest scale among them ("75.04" + "0.5" = "75.54"); null when any is null. */
export function sumDecimals(values: ReadonlyArray<DecimalString | null>): DecimalString | null {
  let total = new Decimal(0);
  let scale = 0;
  for (const value of values) {
    if (value === null) return null;
    total = total.plus(value);
    scale = Math.max(scale, value.split('.')[1]?.length ?? 0);
  }
  return total.toFixed(scale);
}

/** |a - b| <= tolerance, for cross-checking amounts read by heuristics. */
export function decimalsClose(a: DecimalString, b: DecimalString, tolerance: string): boolean {
  return new Decimal(a).minus(b).abs().lte(tolerance);
}

export function isNegative(value: DecimalString | null): boolean {
  return value !== null && new Decimal(value).isNegative() && !new Decimal(value).isZero();
}

export function multiplyPercent(base: DecimalString, percent: DecimalString): DecimalString {
  return new Decimal(base).times(percent).dividedBy(100).toString();
}
