// Renewal terms and what is due next. Pure: dates in, dates out (UTC calendar days).
//
// An agreement that renews by itself must be cancelled by (expiration - notice) to end:
// `cancel_by`. One that does not renew must be renewed by then to go on: `renew_by`.

export type RenewalActionKind = 'cancel_by' | 'renew_by';

export interface RenewalTerms {
  expirationDate: Date | null;
  autoRenews: boolean;
  renewalPeriodMonths: number | null;
  noticePeriodDays: number | null;
}

export interface RenewalAction {
  kind: RenewalActionKind | null;
  deadline: Date | null;
}

const DAY_MS = 86_400_000;

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

// Calendar months, clamped to the month's last day (31 Jan + 1 month = 28/29 Feb).
export function addMonths(date: Date, months: number): Date {
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay)));
}

export function renewalActionOf(terms: RenewalTerms): RenewalAction {
  if (!terms.expirationDate) return { kind: null, deadline: null };
  return {
    kind: terms.autoRenews ? 'cancel_by' : 'renew_by',
    deadline: addDays(terms.expirationDate, -(terms.noticePeriodDays ?? 0)),
  };
}

export class RenewalError extends Error {}

// { type: extend }: one renewal period more.
export function extended(terms: RenewalTerms): Date {
  if (!terms.expirationDate) throw new RenewalError('An agreement without an expiration date cannot be extended.');
  if (!terms.renewalPeriodMonths) throw new RenewalError('Set renewal.period_months before extending the agreement.');
  return addMonths(terms.expirationDate, terms.renewalPeriodMonths);
}
