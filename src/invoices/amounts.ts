import { Decimal } from 'decimal.js';
import { sum, toDecimal, type DecimalLike } from '../shared/money.js';

// amounts.valid: do the lines add up to the totals? (EN 16931 BR-CO-10 .. BR-CO-16, to the cent.)
// It says nothing about whether the prices are right; the compliance checks do that.

export interface AmountsInput {
  lines: { netAmount: DecimalLike | null }[];
  lineExtension: DecimalLike | null;
  allowanceTotal: DecimalLike | null;
  chargeTotal: DecimalLike | null;
  taxExclusive: DecimalLike | null;
  vatTotal: DecimalLike | null;
  taxInclusive: DecimalLike | null;
  prepaid: DecimalLike | null;
  rounding: DecimalLike | null;
  payable: DecimalLike | null;
}

export interface AmountProblem {
  rule: string;
  expected: string;
  actual: string;
}

const CENT = new Decimal('0.01');

function differs(expected: Decimal, actual: DecimalLike): boolean {
  return expected.minus(toDecimal(actual)).abs().greaterThanOrEqualTo(CENT);
}

export function amountProblems(input: AmountsInput): AmountProblem[] {
  const problems: AmountProblem[] = [];
  const check = (rule: string, expected: Decimal, actual: DecimalLike | null) => {
    if (actual !== null && differs(expected, actual))
      problems.push({ rule, expected: expected.toFixed(2), actual: toDecimal(actual).toFixed(2) });
  };
  const lineSum = sum(input.lines.map((line) => line.netAmount));
  if (input.lines.length > 0) check('line net amounts add up to the line total', lineSum, input.lineExtension);
  const lineTotal = input.lineExtension !== null ? toDecimal(input.lineExtension) : lineSum;
  const taxExclusive = lineTotal.minus(sum([input.allowanceTotal])).plus(sum([input.chargeTotal]));
  check('line total - allowances + charges = total excluding VAT', taxExclusive, input.taxExclusive);
  if (input.taxExclusive !== null && input.vatTotal !== null) {
    check(
      'total excluding VAT + VAT = total including VAT',
      toDecimal(input.taxExclusive).plus(toDecimal(input.vatTotal)),
      input.taxInclusive,
    );
  }
  if (input.taxInclusive !== null) {
    check(
      'total including VAT - prepaid + rounding = amount due',
      toDecimal(input.taxInclusive)
        .minus(sum([input.prepaid]))
        .plus(sum([input.rounding])),
      input.payable,
    );
  }
  return problems;
}
