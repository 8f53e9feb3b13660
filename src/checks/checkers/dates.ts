// Calendar days as "YYYY-MM-DD" strings; periods are inclusive at both ends.
import type { CheckInvoice, CheckLine, IsoDate } from './types.js';

export interface Period {
  start: IsoDate;
  end: IsoDate;
}

const DAY_MS = 86_400_000;

export function dayNumber(date: IsoDate): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

export function daysBetween(from: IsoDate, to: IsoDate): number {
  return dayNumber(to) - dayNumber(from);
}

/** Days in an inclusive period. */
export function periodDays(period: Period): number {
  return daysBetween(period.start, period.end) + 1;
}

/** A period from two optional ends; one end alone is a single day. */
export function periodOf(start: IsoDate | null, end: IsoDate | null): Period | null {
  const first = start ?? end;
  const last = end ?? start;
  if (!first || !last) return null;
  return first <= last ? { start: first, end: last } : { start: last, end: first };
}

/** Days two periods share (0 when they do not overlap). */
export function overlapDays(a: Period, b: Period): number {
  const start = a.start > b.start ? a.start : b.start;
  const end = a.end < b.end ? a.end : b.end;
  return start <= end ? daysBetween(start, end) + 1 : 0;
}

export type DatedBy = 'line period' | 'invoice period' | 'issue date';

/** When a line's charge falls: its own period, else the invoice period, else the issue date. */
export function chargePeriod(line: CheckLine, invoice: CheckInvoice): { period: Period; datedBy: DatedBy } | null {
  const own = periodOf(line.periodStart, line.periodEnd);
  if (own) return { period: own, datedBy: 'line period' };
  const invoicePeriod = periodOf(invoice.periodStart, invoice.periodEnd);
  if (invoicePeriod) return { period: invoicePeriod, datedBy: 'invoice period' };
  const issued = periodOf(invoice.issueDate, null);
  return issued ? { period: issued, datedBy: 'issue date' } : null;
}

export function showPeriod(period: Period): string {
  return period.start === period.end ? period.start : `${period.start} to ${period.end}`;
}
