// Dates as written in price lists. Day and month are never swapped silently: "03/04/2026"
// may be 3 April or March 4, so it is rejected; "31/12/2026" and "12/31/2026" are not.

export type ParsedDate = { ok: true; date: string } | { ok: false; problem: string };

const FORMATS_HINT = 'use YYYY-MM-DD, dd.mm.yyyy or dd/mm/yyyy';

/** Reads YYYY-MM-DD (a time after it is ignored), YYYY/MM/DD, dd.mm.yyyy, dd/mm/yyyy and dd-mm-yyyy. */
export function parseDateText(text: string): ParsedDate {
  const value = text.trim();
  const yearFirst = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value);
  if (yearFirst) return calendarDate(Number(yearFirst[1]), Number(yearFirst[2]), Number(yearFirst[3]), value);
  const dotted = /^(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})\.?$/.exec(value);
  if (dotted) return dayFirst(dotted[1]!, dotted[2]!, dotted[3]!, value);
  const slashed = /^(\d{1,2})[/-](\d{1,2})[/-](\d{2}|\d{4})$/.exec(value);
  if (slashed) return dayOrMonthFirst(slashed[1]!, slashed[2]!, slashed[3]!, value);
  return { ok: false, problem: `'${value}' is not a date (${FORMATS_HINT})` };
}

/** An Excel date cell (exceljs gives a JS Date at UTC midnight of the serial day). */
export function dateFromExcel(value: Date): string | null {
  if (Number.isNaN(value.getTime())) return null;
  // Serial days carry float noise: a day minus a millisecond is still that day, so round to the minute first.
  const rounded = new Date(Math.round(value.getTime() / 60_000) * 60_000);
  return rounded.toISOString().slice(0, 10);
}

function dayFirst(day: string, month: string, year: string, written: string): ParsedDate {
  if (year.length === 2) return { ok: false, problem: `'${written}' has a two-digit year; write the year in full` };
  return calendarDate(Number(year), Number(month), Number(day), written);
}

function dayOrMonthFirst(first: string, second: string, year: string, written: string): ParsedDate {
  if (year.length === 2) return { ok: false, problem: `'${written}' has a two-digit year; write the year in full` };
  const [a, b] = [Number(first), Number(second)];
  if (a === 0 || b === 0) return { ok: false, problem: `'${written}' is not a real date` };
  if (a > 12 || a === b) return calendarDate(Number(year), b, a, written);
  if (b > 12) return calendarDate(Number(year), a, b, written); // only month/day/year reads: US style
  return {
    ok: false,
    problem: `'${written}' is ambiguous: ${a} ${MONTHS[b - 1]} or ${b} ${MONTHS[a - 1]} ${year}? write it as YYYY-MM-DD`,
  };
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function calendarDate(year: number, month: number, day: number, written: string): ParsedDate {
  const date = new Date(Date.UTC(year, month - 1, day));
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  if (!real || year < 1900 || year > 9999) return { ok: false, problem: `'${written}' is not a real date` };
  return { ok: true, date: date.toISOString().slice(0, 10) };
}
