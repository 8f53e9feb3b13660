/** Confidence per field and the reasons a reading needs a person's review, from its arithmetic. */
import type { DecimalString, ExtractionConfidence } from '../model.js';
import type { TotalsReading } from './totals.js';

export interface ConfidenceInput {
  invoiceNumber: number | null;
  issueDate: number | null;
  dueDate: number | null;
  supplierName: number | null;
  orgNumber: number | null;
  vatId: number | null;
  currencyCode: number | null;
  totals: TotalsReading;
  rowChecks: Array<boolean | null>;
  datesOrdered: boolean | null;
}

export function confidenceOf(input: ConfidenceInput): ExtractionConfidence {
  const { totals } = input;
  const totalsConfidence = totals.balanced ? (totals.linesMatch === false ? 0.7 : 0.97) : 0.5;
  const inferred = (field: string, value: number) => (totals.inferred.includes(field) ? Math.min(value, 0.6) : value);
  const dateBoost = input.datesOrdered === false ? -0.3 : 0;
  const fields: Record<string, number> = {};
  const set = (name: string, value: number | null) => {
    if (value !== null) fields[name] = Math.round(Math.max(0, Math.min(1, value)) * 100) / 100;
  };
  set('invoiceNumber', input.invoiceNumber);
  set('issueDate', input.issueDate === null ? null : input.issueDate + dateBoost);
  set('dueDate', input.dueDate === null ? null : input.dueDate + dateBoost);
  set('supplier.name', input.supplierName);
  set('supplier.orgNumber', input.orgNumber);
  set('supplier.vatId', input.vatId);
  set('currencyCode', input.currencyCode);
  if (totals.net !== null) set('totals.taxExclusive', inferred('totals.taxExclusive', totalsConfidence));
  if (totals.vat !== null) set('totals.vatTotal', inferred('totals.vatTotal', totalsConfidence));
  if (totals.gross !== null) set('totals.taxInclusive', inferred('totals.taxInclusive', totalsConfidence));
  if (totals.due !== null) set('totals.payable', inferred('totals.payable', totalsConfidence));
  const lines =
    input.rowChecks.length === 0
      ? 0
      : rowScore(input.rowChecks) * (totals.linesMatch === true ? 1 : totals.linesMatch === null ? 0.7 : 0.4);
  const keyValues = ['invoiceNumber', 'totals.taxInclusive'].map((name) => fields[name] ?? 0);
  const overall = Math.min(...keyValues, input.rowChecks.length > 0 ? lines : 1);
  return { overall: Math.round(overall * 100) / 100, lines: Math.round(lines * 100) / 100, fields };
}

export function rowScore(checks: ReadonlyArray<boolean | null>): number {
  if (checks.length === 0) return 0;
  const points = checks.reduce((total, check) => total + (check === true ? 1 : check === null ? 0.8 : 0), 0);
  return points / checks.length;
}

export function reviewReasons(
  totals: TotalsReading,
  linesSum: DecimalString | null,
  rowChecks: ReadonlyArray<boolean | null>,
  lineCount: number,
  tableFound: boolean,
  hasNumber: boolean,
): string[] {
  const reasons: string[] = [];
  if (!hasNumber) reasons.push('No invoice number could be read.');
  if (totals.gross === null && totals.due === null) reasons.push('No invoice total could be read.');
  if (totals.net !== null && totals.vat !== null && totals.gross !== null && !totals.balanced) {
    reasons.push(`The totals do not add up: net ${totals.net} + VAT ${totals.vat} ≠ total ${totals.gross}.`);
  }
  if (totals.linesMatch === false)
    reasons.push(`The lines add up to ${linesSum ?? '?'}, not to the net total ${totals.net ?? '?'}.`);
  const failed = rowChecks.filter((check) => check === false).length;
  if (failed > 0) reasons.push(`${failed} line(s) where quantity × unit price − discount ≠ line amount.`);
  if (tableFound && lineCount === 0) reasons.push('A line table was found but no line could be read from it.');
  if (!tableFound && totals.net !== null) reasons.push('No line table was found; the invoice has no lines.');
  return reasons;
}
