/**
 * Printed dates in the eight languages: numeric ("19.01.2016", "03/04/2025", "2025-07-08",
 * "8.7.25") and with month names ("8 Jul 2025", "8. juli 2025", "July 8, 2025", "1er mars 2025",
 * "8. heinäkuuta 2025"). The order of an ambiguous numeric date (03/04) is decided per document.
 */
import type { IsoDate } from '../model.js';

export type DateOrder = 'dmy' | 'mdy';

export interface FoundDate {
  /** Day-first reading (or the only reading). */
  dayFirst: IsoDate | null;
  /** Month-first reading, for numeric dates with "/" or "-" only. */
  monthFirst: IsoDate | null;
  /** How many words of the text the date used, from its first word. */
  wordCount: number;
  /** Index of the date's first word. */
  start: number;
}

const MONTHS: ReadonlyArray<readonly string[]> = [
  ['january', 'jan', 'januar', 'jänner', 'januari', 'tammikuu', 'tammi', 'janvier', 'janv'],
  ['february', 'feb', 'febr', 'februar', 'februari', 'helmikuu', 'helmi', 'février', 'fevrier', 'févr', 'fev', 'fév'],
  ['march', 'mar', 'märz', 'maerz', 'mrz', 'mär', 'mars', 'marts', 'maaliskuu', 'maalis', 'maart', 'mrt'],
  ['april', 'apr', 'huhtikuu', 'huhti', 'avril', 'avr'],
  ['may', 'mai', 'maj', 'toukokuu', 'touko', 'mei'],
  ['june', 'jun', 'juni', 'kesäkuu', 'kesä', 'juin'],
  ['july', 'jul', 'juli', 'heinäkuu', 'heinä', 'juillet', 'juil'],
  ['august', 'aug', 'augusti', 'elokuu', 'elo', 'août', 'aout', 'augustus'],
  ['september', 'sep', 'sept', 'syyskuu', 'syys', 'septembre'],
  ['october', 'oct', 'okt', 'oktober', 'lokakuu', 'loka', 'octobre'],
  ['november', 'nov', 'marraskuu', 'marras', 'novembre'],
  ['december', 'dec', 'dez', 'dezember', 'desember', 'joulukuu', 'joulu', 'décembre', 'decembre', 'déc'],
];

const MONTH_BY_NAME = new Map<string, number>(
  MONTHS.flatMap((names, index) => names.map((name) => [name, index + 1] as const)),
);

/** "Jul", "juli", "juil.", "heinäkuuta" (Finnish partitive) → 7. */
export function monthNumber(word: string): number | null {
  const name = word.toLowerCase().replace(/[.,]$/u, '');
  const direct = MONTH_BY_NAME.get(name);
  if (direct !== undefined) return direct;
  if (name.endsWith('ta')) return MONTH_BY_NAME.get(name.slice(0, -2)) ?? null;
  return null;
}

const NUMERIC_DATE = /^(\d{1,4})([./-])(\d{1,2})\2(\d{2,4})\.?$/u;
const NAMED_NUMERIC = /^(\d{1,2})[-.]([A-Za-zÀ-ÿ]{3,10})[-.](\d{2,4})$/u;
const DAY = /^(\d{1,2})(?:\.|er|st|nd|rd|th)?,?$/u;
const YEAR = /^(\d{4})[.,]?$/u;

/** The first date among the words, or null. */
export function findDate(words: readonly string[]): FoundDate | null {
  for (let start = 0; start < words.length; start += 1) {
    const found = dateAt(words, start);
    if (found) return found;
  }
  return null;
}

export function findDateInText(text: string): FoundDate | null {
  return findDate(text.split(' ').filter((word) => word !== ''));
}

function dateAt(words: readonly string[], start: number): FoundDate | null {
  const word = (words[start] ?? '').replace(/[,;:)]$/u, '').replace(/^\(/u, '');
  const numeric = NUMERIC_DATE.exec(word);
  if (numeric) return numericDate(numeric, start);
  const named = NAMED_NUMERIC.exec(word);
  if (named) {
    const month = monthNumber(named[2] ?? '');
    const date = month ? calendarDate(fullYear(named[3] ?? ''), month, Number(named[1])) : null;
    if (date) return { dayFirst: date, monthFirst: null, wordCount: 1, start };
  }
  // 8 Jul 2025 · 8. juli 2025 · 1er mars 2025
  const day = DAY.exec(word);
  if (day) {
    const month = monthNumber(words[start + 1] ?? '');
    const year = YEAR.exec(words[start + 2] ?? '');
    const date = month && year ? calendarDate(Number(year[1]), month, Number(day[1])) : null;
    if (date) return { dayFirst: date, monthFirst: null, wordCount: 3, start };
  }
  // July 8, 2025
  const month = monthNumber(word);
  if (month) {
    const dayAfter = DAY.exec(words[start + 1] ?? '');
    const year = YEAR.exec(words[start + 2] ?? '');
    const date = dayAfter && year ? calendarDate(Number(year[1]), month, Number(dayAfter[1])) : null;
    if (date) return { dayFirst: date, monthFirst: null, wordCount: 3, start };
  }
  return null;
}

function numericDate(match: RegExpExecArray, start: number): FoundDate | null {
  const [, first = '', separator, second = '', third = ''] = match;
  if (first.length === 4) {
    const date = calendarDate(Number(first), Number(second), Number(third));
    return date && third.length <= 2 ? { dayFirst: date, monthFirst: null, wordCount: 1, start } : null;
  }
  if (first.length > 2) return null;
  const year = fullYear(third);
  const dayFirst = calendarDate(year, Number(second), Number(first));
  // Dotted dates are day-first everywhere; slashes and dashes may be month-first (US).
  const monthFirst = separator === '.' ? null : calendarDate(year, Number(first), Number(second));
  if (!dayFirst && !monthFirst) return null;
  return { dayFirst, monthFirst: monthFirst === dayFirst ? null : monthFirst, wordCount: 1, start };
}

function fullYear(raw: string): number {
  const year = Number(raw);
  return raw.length === 2 ? 2000 + year : year;
}

function calendarDate(year: number, month: number, day: number): IsoDate | null {
  if (!Number.isInteger(year) || year < 1990 || year > 2100 || month < 1 || month > 12 || day < 1) return null;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return `${String(year)}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function dateIn(found: FoundDate, order: DateOrder): IsoDate | null {
  if (order === 'mdy') return found.monthFirst ?? found.dayFirst;
  return found.dayFirst ?? found.monthFirst;
}
