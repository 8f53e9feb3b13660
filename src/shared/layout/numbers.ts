/**
 * Printed numbers, read under one convention per document: `1 234,56`, `1.234,56`,
 * `1,234.56`, `1'234.56`, and the negatives `-100,00`, `100,00-`, `(100.00)`.
 */
import { Decimal } from 'decimal.js';
import type { DecimalString } from '../money.js';

/** Which character separates the decimals. */
export type DecimalMark = ',' | '.';

const CURRENCY_AFFIX = /^(?:€|£|\$|EUR|USD|GBP|SEK|NOK|DKK|CHF|kr\.?|Kr\.?)/u;
const CURRENCY_SUFFIX = /(?:€|£|\$|EUR|USD|GBP|SEK|NOK|DKK|CHF|kr\.?|:-|,-)$/u;
const NUMBER_BODY = /^\d{1,3}(?:[ .,'’]\d{3})*(?:[.,]\d{1,6})?$|^\d+(?:[.,]\d{1,6})?$/u;

export interface NumberShape {
  /** Digits and separators without sign, currency or percent. */
  body: string;
  negative: boolean;
  percent: boolean;
}

/** The number a token shows, without deciding its separators; null for anything else. */
export function numberShape(raw: string): NumberShape | null {
  let text = raw.trim().replace(/−/gu, '-');
  if (text.length === 0 || text.length > 40) return null;
  let negative = false;
  let percent = false;
  if (text.startsWith('(') && text.endsWith(')')) {
    negative = true;
    text = text.slice(1, -1).trim();
  }
  if (text.startsWith('-')) {
    negative = !negative;
    text = text.slice(1).trim();
  } else if (text.startsWith('+')) text = text.slice(1).trim();
  text = text.replace(CURRENCY_AFFIX, '').trim();
  if (text.startsWith('-')) {
    negative = !negative;
    text = text.slice(1).trim();
  }
  if (text.endsWith('%')) {
    percent = true;
    text = text.slice(0, -1).trim();
  }
  text = text.replace(CURRENCY_SUFFIX, '').trim();
  if (text.endsWith('-') && text.length > 1) {
    negative = !negative;
    text = text.slice(0, -1).trim();
  }
  if (!NUMBER_BODY.test(text)) return null;
  return { body: text, negative, percent };
}

/**
 * Reads a shape under the document's decimal mark: "1.234" is 1234 under ",", 1.234 under ".".
 * A comma or point that cannot be the mark must separate groups of three digits.
 */
export function decimalOf(shape: NumberShape, mark: DecimalMark): DecimalString | null {
  const { body } = shape;
  const markAt = body.lastIndexOf(mark);
  let integer = body;
  let fraction = '';
  if (markAt !== -1) {
    const tail = body.slice(markAt + 1);
    // A single mark followed by three digits in a number with other groups is a group separator
    // only when the other convention explains the whole number; here the mark is the mark.
    integer = body.slice(0, markAt);
    fraction = tail;
    if (!/^\d+$/u.test(fraction)) return null;
  }
  const groups = integer.split(/[ .,'’]/u);
  if (groups.length > 1) {
    if (integer.includes(mark)) return null;
    if (!/^\d{1,3}$/u.test(groups[0] ?? '') || groups.slice(1).some((group) => !/^\d{3}$/u.test(group))) return null;
  }
  const digits = groups.join('');
  if (!/^\d+$/u.test(digits)) return null;
  const value = new Decimal(`${digits}${fraction ? `.${fraction}` : ''}`);
  const signed = shape.negative && !value.isZero() ? value.negated() : value;
  return signed.toFixed(fraction.length);
}

export function parseNumber(raw: string, mark: DecimalMark): DecimalString | null {
  const shape = numberShape(raw);
  return shape ? decimalOf(shape, mark) : null;
}

/** A money amount: exactly two decimals (or none with a ",-" / ":-" suffix) under the mark. */
export function parseAmount(raw: string, mark: DecimalMark): DecimalString | null {
  const shape = numberShape(raw);
  if (!shape || shape.percent) return null;
  const value = decimalOf(shape, mark);
  if (value === null) return null;
  const fraction = shape.body.lastIndexOf(mark) === -1 ? '' : shape.body.slice(shape.body.lastIndexOf(mark) + 1);
  if (fraction.length === 2) return value;
  if (fraction.length === 0 && /(?:,-|:-)$/u.test(raw.trim())) return value;
  return null;
}

/**
 * Votes for the decimal mark over every number of the document: "1.234,56" and "12,50" say
 * comma, "1,234.56" and "12.50" say point, "1'234.56" says point. Null when nothing says.
 */
export function voteDecimalMark(tokens: Iterable<string>): DecimalMark | null {
  let comma = 0;
  let point = 0;
  for (const token of tokens) {
    const shape = numberShape(token);
    if (!shape) continue;
    const { body } = shape;
    const lastComma = body.lastIndexOf(',');
    const lastPoint = body.lastIndexOf('.');
    if (lastComma !== -1 && lastPoint !== -1) {
      if (lastComma > lastPoint) comma += 2;
      else point += 2;
    } else if (lastComma !== -1) {
      if (body.length - lastComma - 1 !== 3) comma += 1;
    } else if (lastPoint !== -1) {
      if (body.length - lastPoint - 1 !== 3) point += 1;
    } else if (body.includes("'") || body.includes('’')) point += 1;
  }
  if (comma === point) return null;
  return comma > point ? ',' : '.';
}

/** A rate as "25", "25 %", "25,0%", "12.5". */
export function parseRate(raw: string, mark: DecimalMark): DecimalString | null {
  const shape = numberShape(raw);
  if (!shape || shape.negative) return null;
  const value = decimalOf(shape, mark) ?? decimalOf(shape, mark === ',' ? '.' : ',');
  if (value === null) return null;
  const number = new Decimal(value);
  return number.gte(0) && number.lte(100) ? new Decimal(value).toString() : null;
}
