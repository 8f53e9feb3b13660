import { Decimal } from 'decimal.js';
import { RateFileError } from './model.js';

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ECB_DAILY_DAY = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/;
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MS_PER_DAY = 86_400_000;

/** Markers the banks put where a day has no rate (discontinued currency, holiday). */
const NO_VALUE = new Set(['', 'N/A', 'NA', 'NAN', '-']);

/** A YYYY-MM-DD that names a real calendar day, or null. */
export function isoDay(text: string): string | null {
  const match = ISO_DAY.exec(text);
  if (!match) return null;
  return validDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** The ECB daily file writes "21 November 2025"; the history file writes ISO dates. */
export function ecbDay(text: string): string | null {
  const iso = isoDay(text);
  if (iso !== null) return iso;
  const match = ECB_DAILY_DAY.exec(text);
  if (!match) return null;
  const month = MONTHS.indexOf((match[2] ?? '').toLowerCase()) + 1;
  if (month === 0) return null;
  return validDay(Number(match[3]), month, Number(match[1]));
}

function validDay(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/** Whole days from `earlier` to `later` (both YYYY-MM-DD). */
export function daysBetween(earlier: string, later: string): number {
  return Math.round((Date.parse(`${later}T00:00:00Z`) - Date.parse(`${earlier}T00:00:00Z`)) / MS_PER_DAY);
}

export function isMissingValue(text: string): boolean {
  return NO_VALUE.has(text.trim().toUpperCase());
}

// One separator: it is the decimal mark ("10.7155", "10,7155"). Grouped thousands: the other mark
// groups ("1,145.56" in English, "1 145,56" or "1.145,56" in Norwegian).
const PLAIN = /^\d+(?:[.,]\d+)?$/;
const GROUPED_DOT_DECIMAL = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const GROUPED_COMMA_DECIMAL = /^\d{1,3}(?:[ .]\d{3})+(?:,\d+)?$/;

/**
 * A published rate as a canonical decimal string ("10.7155"), accepting a decimal comma and
 * thousands grouping. Throws a RateFileError for anything that is not a positive number.
 */
export function rateValue(text: string, line: number, what: string): Decimal {
  const compact = text.trim().replace(/[\u00a0\u202f]/g, ' ');
  let normalized: string | null = null;
  if (PLAIN.test(compact)) normalized = compact.replace(',', '.');
  else if (GROUPED_DOT_DECIMAL.test(compact)) normalized = compact.replace(/,/g, '');
  else if (GROUPED_COMMA_DECIMAL.test(compact)) normalized = compact.replace(/[ .]/g, '').replace(',', '.');
  if (normalized === null) throw new RateFileError(`${what} "${text}" is not a positive number.`, line);
  const value = new Decimal(normalized);
  if (value.isZero()) throw new RateFileError(`${what} is zero; an exchange rate must be positive.`, line);
  return value;
}

export const CURRENCY_CODE = /^[A-Z]{3}$/;
