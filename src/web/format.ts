import { Decimal } from 'decimal.js';
import type { Locale } from './texts/index.js';

// How the application shows money and dates. Amounts are decimal strings (as the API returns
// them) and stay exact: decimal.js picks the digits, Intl.NumberFormat only groups the integer
// part, given as a BigInt (never a float), and places the currency sign for the locale.
// The locale follows the request's language (English as en-GB, Norwegian as nb-NO: "1 234,56 kr");
// dates are ISO 8601 in every language (docs/decisions.md).

const INTL_LOCALES: Record<Locale, string> = { en: 'en-GB', nb: 'nb-NO' };
export const LOCALE = INTL_LOCALES.en;

interface CurrencyFormat {
  minorDigits: number;
  // The locale's parts around the number (sign, currency symbol), for a positive and a negative amount.
  positive: Intl.NumberFormatPart[];
  negative: Intl.NumberFormatPart[];
}

// Bounded: currency codes are three letters from our own data, but a cache keyed by input stays small.
const MAX_CACHED = 500;

// One locale's number formatting. Formatters are built once per locale: constructing an
// Intl.NumberFormat costs far more than formatting (the invoice page of 1,000 lines formats a few
// thousand amounts; built per call, that was most of its server time).
class NumberStyle {
  readonly grouping: Intl.NumberFormat;
  readonly decimalSeparator: string;
  // The sign of a negative quantity: the locale's minus (U+2212 in both languages here).
  readonly minus: string;
  private readonly formats = new Map<string, CurrencyFormat>();

  constructor(readonly locale: string) {
    this.grouping = new Intl.NumberFormat(locale, { maximumFractionDigits: 0, useGrouping: true });
    this.decimalSeparator =
      new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
    this.minus = '−';
  }

  currencyFormat(currency: string): CurrencyFormat | null {
    const cached = this.formats.get(currency);
    if (cached) return cached;
    let template: Intl.NumberFormat;
    try {
      template = new Intl.NumberFormat(this.locale, {
        style: 'currency',
        currency,
        maximumFractionDigits: 0,
        minimumFractionDigits: 0,
      });
    } catch {
      return null;
    }
    const withMinor = new Intl.NumberFormat(this.locale, { style: 'currency', currency });
    const format: CurrencyFormat = {
      minorDigits: withMinor.resolvedOptions().maximumFractionDigits ?? 2,
      positive: template.formatToParts(1),
      negative: template.formatToParts(-1),
    };
    if (this.formats.size < MAX_CACHED) this.formats.set(currency, format);
    return format;
  }

  money(value: string | number | null | undefined, currency: string | null | undefined): string {
    const decimal = parseDecimal(value);
    if (!decimal) return '—';
    const format = currency ? this.currencyFormat(currency) : null;
    if (!format) return `${decimal.toFixed()}${currency ? ` ${currency}` : ''}`;
    const digits = Math.max(format.minorDigits, decimal.decimalPlaces());
    const [integerPart, fraction] = decimal.abs().toFixed(digits).split('.');
    const grouped = this.grouping.format(BigInt(integerPart!));
    // The sign and currency symbol where the locale puts them, around the exact digits.
    const parts = decimal.isNegative() && !decimal.isZero() ? format.negative : format.positive;
    return parts
      .map((part) =>
        part.type === 'integer' ? grouped + (fraction ? this.decimalSeparator + fraction : '') : part.value,
      )
      .join('');
  }

  decimalText(value: string | number | null | undefined): string {
    const decimal = parseDecimal(value);
    if (!decimal) return '—';
    const [integerPart, fraction] = decimal.abs().toFixed().split('.');
    const grouped = this.grouping.format(BigInt(integerPart!));
    return `${decimal.isNegative() && !decimal.isZero() ? this.minus : ''}${grouped}${fraction ? `${this.decimalSeparator}${fraction}` : ''}`;
  }
}

function parseDecimal(value: string | number | null | undefined): Decimal | null {
  if (value === null || value === undefined || value === '') return null;
  try {
    return new Decimal(String(value));
  } catch {
    return null;
  }
}

// What a view formats with (`it.app.fmt`): the request's language's numbers, the same dates.
export interface Formatter {
  locale: string;
  money: (value: string | number | null | undefined, currency: string | null | undefined) => string;
  decimalText: (value: string | number | null | undefined) => string;
  date: typeof date;
  dateTime: typeof dateTime;
}

function formatterOf(locale: Locale): Formatter {
  const style = new NumberStyle(INTL_LOCALES[locale]);
  return {
    locale: style.locale,
    money: (value, currency) => style.money(value, currency),
    decimalText: (value) => style.decimalText(value),
    date,
    dateTime,
  };
}

// Built on first use, once per language.
const formatters = new Map<Locale, Formatter>();

export function formatterFor(locale: Locale): Formatter {
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = formatterOf(locale);
    formatters.set(locale, formatter);
  }
  return formatter;
}

// "1234567.5" EUR → "€1,234,567.50"; extra recorded digits are kept ("0.0125" → "€0.0125").
// English; a page in the request's language uses `formatterFor(locale).money`.
export function money(value: string | number | null | undefined, currency: string | null | undefined): string {
  return formatterFor('en').money(value, currency);
}

// Quantities and prices without a currency: exact, grouped.
export function decimalText(value: string | number | null | undefined): string {
  return formatterFor('en').decimalText(value);
}

// Dates as ISO (yyyy-mm-dd); timestamps as yyyy-mm-dd hh:mm UTC.
export function date(value: string | Date | null | undefined): string {
  if (!value) return '—';
  const text = value instanceof Date ? value.toISOString() : value;
  return text.slice(0, 10);
}

export function dateTime(value: string | Date | null | undefined): string {
  if (!value) return '—';
  const text = value instanceof Date ? value.toISOString() : value;
  return text.length >= 16 ? `${text.slice(0, 10)} ${text.slice(11, 16)} UTC` : text;
}

// An amount typed into a form, in the way people write money: "12,50" and "12.50", grouped
// "1 234,50", "1.234,50", "1,234.50", "1'234.50". The organization has no locale setting (see
// above), so both decimal separators are read; a single separator followed by exactly three digits
// ("1,234", "1.234") means a thousand in one locale and a decimal in another, and is refused rather
// than guessed. Answers the API's decimal string ("1234.50"), or why the text is not an amount.
export type AmountInput = { ok: true; value: string } | { ok: false; message: string };

// Digits grouped by threes with the given separator: "1.234.567" or "1,234,567".
const GROUPED_BY: Record<'.' | ',', RegExp> = { '.': /^[1-9]\d{0,2}(?:\.\d{3})+$/, ',': /^[1-9]\d{0,2}(?:,\d{3})+$/ };
const GROUPED = (separator: '.' | ',') => GROUPED_BY[separator];

export function readAmount(text: string): AmountInput {
  const compact = text.trim().replace(/[\s\u00a0\u202f']/g, '');
  const refused = (message: string): AmountInput => ({ ok: false, message });
  if (!/^\d[\d.,]*$/.test(compact) || /[.,]$/.test(compact))
    return refused('must be an amount such as 1250,00 or 1250.00');
  const dot = compact.lastIndexOf('.');
  const comma = compact.lastIndexOf(',');
  let integer = compact;
  let fraction = '';
  if (dot >= 0 && comma >= 0) {
    // Both: the last one is the decimal separator, the other groups thousands.
    const decimal = dot > comma ? '.' : ',';
    const at = Math.max(dot, comma);
    integer = compact.slice(0, at);
    fraction = compact.slice(at + 1);
    if (!GROUPED(decimal === '.' ? ',' : '.').test(integer) || /[.,]/.test(fraction))
      return refused('mixes separators; write it as 1234,50 or 1234.50');
    integer = integer.replace(/[.,]/g, '');
  } else if (dot >= 0 || comma >= 0) {
    const separator = dot >= 0 ? '.' : ',';
    const parts = compact.split(separator);
    if (parts.length > 2) {
      if (!GROUPED(separator).test(compact)) return refused('must be an amount such as 1250,00 or 1250.00');
      integer = parts.join('');
    } else {
      [integer, fraction] = parts as [string, string];
      if (fraction.length === 3 && /^[1-9]\d{0,2}$/.test(integer)) {
        return refused(
          `is ambiguous: “${text.trim()}” can mean ${integer}${fraction} or ${integer}.${fraction}; write ${integer}${fraction},00 (or ${integer}${fraction}.00) for ${integer}${fraction}`,
        );
      }
    }
  }
  const value = fraction ? `${integer.replace(/^0+(?=\d)/, '')}.${fraction}` : integer.replace(/^0+(?=\d)/, '');
  return { ok: true, value };
}
