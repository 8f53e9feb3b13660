// 4. Charges dated outside the agreement period (effective date to expiration date, inclusive).
// A line is dated by its own period, else the invoice period, else the issue date. Wholly outside:
// impact = the line net amount. Partly outside: the net amount pro rata by days outside (a
// stated assumption: the charge accrues evenly over its period).
// Confidence: line period wholly outside high, partly outside medium; invoice period medium;
// issue date low (an invoice issued after the end may well bill work done before it).
import { chargePeriod, overlapDays, periodDays, showPeriod, type DatedBy, type Period } from './dates.js';
import { lessSure } from './match.js';
import { isMaterial, lineFigures, money } from './money.js';
import {
  capitalize,
  fingerprint,
  invoiceSource,
  lineKey,
  lineLabel,
  numbered,
  quoteLine,
  suppliedTextSource,
} from './findings.js';
import type { CheckInput, CheckLine, Checker, Confidence, Finding } from './types.js';

const CODE = 'charge_outside_agreement_period';

export const periodChecker: Checker = {
  code: CODE,
  title: 'Charge outside the agreement period',
  run(input) {
    if (input.invoice.documentType === 'credit_note') return [];
    const { effectiveDate, expirationDate } = input.agreement;
    if (!effectiveDate && !expirationDate) return [];
    const agreementPeriod: Period = { start: effectiveDate ?? '0000-01-01', end: expirationDate ?? '9999-12-31' };
    return input.invoice.lines.flatMap((line) => {
      const finding = outsideCharge(input, line, agreementPeriod);
      return finding ? [finding] : [];
    });
  },
};

const BASE_CONFIDENCE: Record<DatedBy, Confidence> = {
  'line period': 'high',
  'invoice period': 'medium',
  'issue date': 'low',
};

function outsideCharge(input: CheckInput, line: CheckLine, agreementPeriod: Period): Finding | null {
  const { invoice, agreement } = input;
  const dated = chargePeriod(line, invoice);
  // Most lines lie wholly inside: decided by comparing the date strings, before any arithmetic.
  if (dated === null || (dated.period.start >= agreementPeriod.start && dated.period.end <= agreementPeriod.end))
    return null;
  const net = lineFigures(line).netAmount;
  if (net === null || net.lte(0)) return null;
  const total = periodDays(dated.period);
  const outside = total - overlapDays(dated.period, agreementPeriod);
  if (outside <= 0) return null;
  const whole = outside === total;
  const impact = whole ? net : net.times(outside).div(total);
  if (!isMaterial(impact, invoice.currencyCode)) return null;

  const side =
    dated.period.start < agreementPeriod.start ? 'before the agreement took effect' : 'after the agreement expired';
  const agreementText = `the agreement "${agreement.title ?? agreement.id}" runs ${agreement.effectiveDate ?? '(no start)'} to ${agreement.expirationDate ?? '(no end)'}`;
  const impactText = whole
    ? `The whole net amount, ${money(impact, invoice.currencyCode)}, is charged ${side}.`
    : `${outside} of its ${total} days fall outside; pro rata that is ${money(impact, invoice.currencyCode)} of ${money(net, invoice.currencyCode)}.`;
  const citations = [
    {
      source: invoiceSource(),
      quote:
        quoteLine(invoice, line) +
        (dated.datedBy === 'line period' ? '' : `; ${dated.datedBy} ${showPeriod(dated.period)}`),
    },
    // The agreement's dates are data entered for it, not a price: cited as supplied text.
    { source: suppliedTextSource(), quote: capitalize(agreementText) },
  ];
  const base = BASE_CONFIDENCE[dated.datedBy];
  return {
    checker: CODE,
    fingerprint: fingerprint(CODE, lineKey(line)),
    title: `Charge outside the agreement period: ${line.description ?? `line ${line.lineNumber ?? line.position + 1}`}`,
    explanation: `${capitalize(lineLabel(line))} is dated by its ${dated.datedBy} ${showPeriod(dated.period)} [1], but ${agreementText} [2]. ${impactText}`,
    citations: numbered(citations),
    impactAmount: money(impact, invoice.currencyCode),
    expected: null,
    confidence: whole || dated.datedBy !== 'line period' ? base : lessSure(base),
    invoiceItemId: line.id,
    correctionType: 'modify_item',
  };
}
