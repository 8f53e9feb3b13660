import type { IsoDate } from './model.js';

/**
 * UBL dates: "2017-11-13", optionally with a time zone ("2017-11-13Z", "2017-11-13+01:00")
 * that does not change the calendar date the issuer meant.
 */
export function parseIsoDate(raw: string | null): IsoDate | null {
  const match = raw?.trim().match(/^(\d{4})-(\d{2})-(\d{2})(?:Z|[+-]\d{2}:\d{2})?$/);
  return match ? calendarDate(match[1], match[2], match[3]) : null;
}

/**
 * UN/CEFACT format codes used by CII (udt:DateTimeString/@format) and Finvoice (@Format):
 * 102 / CCYYMMDD = "20180305". Month (610) or week (616) precision cannot be a date.
 */
export function parseCompactDate(raw: string | null, format?: string | null): IsoDate | null {
  const isDayFormat = format === undefined || format === null || format === '102' || format === 'CCYYMMDD';
  if (!isDayFormat) return null;
  const match = raw?.trim().match(/^(\d{4})(\d{2})(\d{2})$/);
  return match ? calendarDate(match[1], match[2], match[3]) : null;
}

function calendarDate(year?: string, month?: string, day?: string): IsoDate | null {
  if (year === undefined || month === undefined || day === undefined) return null;
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null;
  return `${year.padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
