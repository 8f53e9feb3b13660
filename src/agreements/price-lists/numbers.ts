import { Decimal } from 'decimal.js';
import { isWhitespace } from '../../shared/text-scan.js';

// Numbers as people write them in price lists, in any of our languages, turned into exact
// decimals. Floats never carry a price: text goes straight to decimal.js.

export type ParsedNumber =
  | { ok: true; value: Decimal; negative: boolean; percent: boolean; currencyToken: string | null }
  /** `problem` completes a sentence that starts with the value, e.g. "'abc' is not a number". */
  | { ok: false; problem: string };

const NOT_A_NUMBER = { ok: false, problem: 'is not a number' } as const;

// Excel stores doubles and shows 15 significant digits; more than 10 decimals in a price list
// is binary noise (0.1 + 0.2 = 0.30000000000000004), never a price someone typed.
const EXCEL_SIGNIFICANT_DIGITS = 15;
const MAX_DECIMALS = 10;

/** An Excel numeric cell as an exact decimal: 15 significant digits like Excel, at most 10 decimals. */
export function decimalFromExcelNumber(value: number): Decimal | null {
  if (!Number.isFinite(value)) return null;
  return new Decimal(value.toPrecision(EXCEL_SIGNIFICANT_DIGITS)).toDecimalPlaces(MAX_DECIMALS, Decimal.ROUND_HALF_UP);
}

/**
 * Reads "1 234,50", "1.234,50", "1,234.50", "1234.5", "kr 120,00", "€ 12", "12 EUR", "120,-",
 * "5 %", "-12", "(12.00)". A lone separator followed by exactly three digits ("1,234", "1.234")
 * could be a thousands separator or a decimal point, so it is reported as ambiguous.
 */
export function parseNumberText(text: string): ParsedNumber {
  let rest = text.replace(/[\u00a0\u2007\u2009\u202f]/g, ' ').trim();
  const percent = /%$/.test(rest);
  if (percent) rest = rest.slice(0, -1).trim();
  const parenthesised = /^\((.*)\)$/.exec(rest);
  if (parenthesised) rest = parenthesised[1]!.trim();
  const unwrapped = unwrapSignAndCurrency(rest);
  if (unwrapped === null) return NOT_A_NUMBER;
  if (percent && unwrapped.currencyToken !== null) return NOT_A_NUMBER;
  const digits = canonicalDigits(unwrapped.body);
  if (!digits.ok) return digits;
  return {
    ok: true,
    value: new Decimal(digits.canonical),
    negative: parenthesised !== null || unwrapped.negative,
    percent,
    currencyToken: unwrapped.currencyToken,
  };
}

const SIGN = /^[-−+]/;
const LEADING_CURRENCY = /^(\p{L}+\p{Sc}|\p{L}{1,3}\.?|\p{Sc})\s*/u;
const LETTER = /^\p{L}$/u;
const CURRENCY_SYMBOL = /^\p{Sc}$/u;

/**
 * What `/\s*(\p{L}+\p{Sc}|\p{L}{1,3}\.?|\p{Sc})$/u` would find, scanned from the end: that
 * pattern tries every start position and takes quadratic time on a long run of letters.
 * `index` is where the whitespace before the token starts.
 */
export function trailingCurrency(text: string): { token: string; index: number } | null {
  const last = charBefore(text, text.length);
  if (last === '') return null;
  let tokenStart: number;
  if (CURRENCY_SYMBOL.test(last)) tokenStart = lettersBefore(text, text.length - last.length, Infinity);
  else if (last === '.' || LETTER.test(last)) {
    const lettersEnd = last === '.' ? text.length - 1 : text.length;
    tokenStart = lettersBefore(text, lettersEnd, 3);
    if (tokenStart === lettersEnd) return null;
  } else return null;
  let index = tokenStart;
  // Whitespace only joins when the token is not cut out of a longer run of letters.
  if (!LETTER.test(charBefore(text, tokenStart))) {
    while (index > 0 && isWhitespace(text[index - 1])) index -= 1;
  }
  return { token: text.slice(tokenStart), index };
}

/** The code point that ends at `end` (a surrogate pair counts as one), or ''. */
function charBefore(text: string, end: number): string {
  if (end <= 0) return '';
  const low = text.charCodeAt(end - 1);
  const high = end >= 2 ? text.charCodeAt(end - 2) : 0;
  const pair = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff;
  return text.slice(pair ? end - 2 : end - 1, end);
}

/** Where a run of at most `max` letters ending at `end` starts. */
function lettersBefore(text: string, end: number, max: number): number {
  let start = end;
  for (let count = 0; count < max; count += 1) {
    const char = charBefore(text, start);
    if (char === '' || !LETTER.test(char)) break;
    start -= char.length;
  }
  return start;
}

function unwrapSignAndCurrency(text: string): { body: string; negative: boolean; currencyToken: string | null } | null {
  let rest = text;
  let negative = false;
  let currencyToken: string | null = null;
  const takeSign = () => {
    const sign = SIGN.exec(rest)?.[0];
    if (sign === undefined) return;
    negative ||= sign !== '+';
    rest = rest.slice(sign.length).trim();
  };
  takeSign();
  const leading = LEADING_CURRENCY.exec(rest);
  if (leading) {
    currencyToken = leading[1]!;
    rest = rest.slice(leading[0].length);
    takeSign();
  }
  const trailing = trailingCurrency(rest);
  if (trailing) {
    if (currencyToken !== null) return null;
    currencyToken = trailing.token;
    rest = rest.slice(0, trailing.index).trim();
  }
  rest = rest.replace(/[.,]-$/, ''); // "120,-" is the Nordic way to write 120 whole kroner
  if (/-$/.test(rest)) {
    negative = true; // "12.00-" is how some ERPs print credits
    rest = rest.slice(0, -1).trim();
  }
  return { body: rest, negative, currencyToken };
}

type CanonicalDigits = { ok: true; canonical: string } | { ok: false; problem: string };

/** "1 234,50" -> "1234.50": decides which separator is the decimal point. */
function canonicalDigits(body: string): CanonicalDigits {
  if (!/^[\d.,][\d.,' ]*$/.test(body) || !/\d/.test(body)) return NOT_A_NUMBER;
  const spaced = /[ ']/.test(body);
  const compact = body.replace(/(\d)[ '](?=\d{3}(?:\D|$))/g, '$1');
  if (/[ ']/.test(compact)) return NOT_A_NUMBER;
  const lastComma = compact.lastIndexOf(',');
  const lastDot = compact.lastIndexOf('.');
  if (lastComma === -1 && lastDot === -1) return { ok: true, canonical: compact };
  if (lastComma !== -1 && lastDot !== -1) {
    const decimalAt = Math.max(lastComma, lastDot);
    return withDecimalPoint(
      compact.slice(0, decimalAt),
      compact.slice(decimalAt + 1),
      compact[decimalAt] === ',' ? '.' : ',',
    );
  }
  const separator = lastComma !== -1 ? ',' : '.';
  const parts = compact.split(separator);
  if (parts.length > 2) return groupedInteger(compact, separator);
  const [whole, fraction] = parts as [string, string];
  if (!spaced && fraction.length === 3 && /^[1-9]\d{0,2}$/.test(whole)) {
    return { ok: false, problem: `is ambiguous: ${whole}${fraction} or ${whole}.${fraction}?` };
  }
  return withDecimalPoint(whole, fraction, null);
}

function withDecimalPoint(whole: string, fraction: string, thousandsSeparator: string | null): CanonicalDigits {
  if (!/^\d*$/.test(fraction) || fraction === '') return NOT_A_NUMBER;
  let integer = whole === '' ? '0' : whole;
  if (thousandsSeparator !== null && integer.includes(thousandsSeparator)) {
    const grouped = groupedInteger(integer, thousandsSeparator);
    if (!grouped.ok) return grouped;
    integer = grouped.canonical;
  }
  if (!/^\d+$/.test(integer)) return NOT_A_NUMBER;
  return { ok: true, canonical: `${integer}.${fraction}` };
}

function groupedInteger(text: string, separator: string): CanonicalDigits {
  const groups = text.split(separator);
  const valid = /^\d{1,3}$/.test(groups[0]!) && groups.slice(1).every((group) => /^\d{3}$/.test(group));
  return valid ? { ok: true, canonical: groups.join('') } : NOT_A_NUMBER;
}
