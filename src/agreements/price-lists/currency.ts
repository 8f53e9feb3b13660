import { removeDelimited, trimCharsEnd, trimCharsStart } from '../../shared/text-scan.js';
// Currency codes and the symbols people write instead of them.

const ISO_4217_CODES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/**
 * Symbols and local abbreviations, with every currency each may stand for. Where one symbol
 * has several candidates ("kr", "$") the reader uses the one the file or the caller already
 * names, and otherwise rejects the row instead of guessing.
 */
const CURRENCY_SYMBOLS: Readonly<Record<string, readonly string[]>> = {
  '€': ['EUR'],
  '£': ['GBP'],
  $: ['USD', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'MXN'],
  us$: ['USD'],
  '¥': ['JPY', 'CNY'],
  kr: ['NOK', 'SEK', 'DKK', 'ISK'],
  nkr: ['NOK'],
  skr: ['SEK'],
  dkr: ['DKK'],
  fr: ['CHF'],
  zł: ['PLN'],
  kč: ['CZK'],
  ft: ['HUF'],
};

export function isIsoCurrencyCode(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && ISO_4217_CODES.has(code);
}

export type CurrencyResolution = { code: string } | { problem: string };

/**
 * The ISO code a written currency stands for. `preferred` lists codes already in force for the
 * row (a currency column, then the default), tried in order when the token is ambiguous.
 */
export function resolveCurrency(token: string, preferred: readonly string[]): CurrencyResolution {
  const written = token.trim();
  const upper = written.toUpperCase();
  if (isIsoCurrencyCode(upper)) return { code: upper };
  const candidates = CURRENCY_SYMBOLS[written.toLowerCase().replace(/\.$/, '')];
  if (candidates === undefined) return { problem: `currency '${written}' is not an ISO 4217 code` };
  if (candidates.length === 1) return { code: candidates[0]! };
  const chosen = preferred.find((code) => candidates.includes(code));
  if (chosen !== undefined) return { code: chosen };
  return { problem: `currency '${written}' could be ${listCodes(candidates)}; write the currency code` };
}

/** Whether a short word reads as a currency (code or known symbol), for spotting one in a header. */
export function looksLikeCurrencyToken(token: string): boolean {
  return isIsoCurrencyCode(token) || CURRENCY_SYMBOLS[token.toLowerCase().replace(/\.$/, '')] !== undefined;
}

/**
 * The currency an Excel number format displays: `[$€-407]`, `[$NOK]`, `"kr" #,##0.00`, `#,##0 €`.
 * Only the symbol is returned; resolve it like any written currency.
 */
export function currencyInNumberFormat(numberFormat: string | undefined): string | null {
  if (numberFormat === undefined || numberFormat === '') return null;
  const bracketed = bracketedCurrency(numberFormat);
  if (bracketed !== undefined && bracketed.trim() !== '') return bracketed.trim();
  for (const quoted of numberFormat.matchAll(/"([^"]+)"/g)) {
    const text = quoted[1]!.trim();
    if (looksLikeCurrencyToken(text)) return text;
  }
  const symbol = /[€£¥$]/.exec(removeDelimited(numberFormat, QUOTED_OR_BRACKETED))?.[0];
  return symbol ?? null;
}

const QUOTED_OR_BRACKETED = [
  ['"', '"'],
  ['[', ']'],
] as const;
const HEX_DIGITS = '0123456789abcdefABCDEF';

/**
 * The symbol of the first `[$<symbol>]` / `[$<symbol>-<hex locale>]` in a number format, as
 * `/\[\$([^\]-]+)(?:-[0-9A-Fa-f]+)?\]/` would find it, scanned once (that pattern re-reads the
 * rest of the text from every `[$`).
 */
export function bracketedCurrency(numberFormat: string): string | undefined {
  let open = numberFormat.indexOf('[$');
  while (open !== -1) {
    let end = open + 2;
    while (end < numberFormat.length && numberFormat[end] !== ']' && numberFormat[end] !== '-') end += 1;
    if (end === numberFormat.length) return undefined; // no "]" or "-" left for any later "[$" either
    if (end > open + 2) {
      const symbol = numberFormat.slice(open + 2, end);
      if (numberFormat[end] === ']') return symbol;
      let locale = end + 1;
      while (locale < numberFormat.length && HEX_DIGITS.includes(numberFormat[locale]!)) locale += 1;
      if (locale > end + 1 && numberFormat[locale] === ']') return symbol;
    }
    // Every "[$" before `end` stops at the same "-" or "]" and fails the same way.
    open = numberFormat.indexOf('[$', end === open + 2 ? open + 1 : end);
  }
  return undefined;
}

/** A currency named in a price column's header, e.g. "Price (NOK)" or "Preis €"; codes must be in capitals. */
export function currencyInHeader(header: string): string | null {
  const tokens = header.split(/[^\p{L}\p{Sc}.]+/u).map((token) => trimCharsStart(trimCharsEnd(token, '.'), '.'));
  const found = tokens.find(
    (token) => (/^[A-Z]{3}$/.test(token) && isIsoCurrencyCode(token)) || /^\p{Sc}$/u.test(token) || /^kr$/i.test(token),
  );
  return found ?? null;
}

function listCodes(codes: readonly string[]): string {
  return codes.length === 1 ? codes[0]! : `${codes.slice(0, -1).join(', ')} or ${codes[codes.length - 1]}`;
}
