// The compliance checkers: pure functions from one invoice, one agreement, the rates and the
// supplier's earlier charges to findings. No I/O; rules and confidence levels in docs/checks.md.
import { lineArithmeticChecker, totalsArithmeticChecker } from './arithmetic.js';
import { duplicateChargeChecker } from './duplicates.js';
import { exchangeRateMissingChecker } from './exchange-rate.js';
import { feeNotAgreedChecker, notInPriceListChecker } from './not-in-list.js';
import { periodChecker } from './period.js';
import { discountChecker, feeChecker } from './rate-terms.js';
import { unitPriceChecker } from './unit-price.js';
import { lowerOf } from './match.js';
import type { CheckInput, Checker, Finding } from './types.js';

export type * from './types.js';
export { matchPriceItem, type MatchOptions, type MatchedBy, type PriceItemMatch } from './match.js';
export { convertToInvoiceCurrency, type Conversion } from './currency.js';
export { rateBasis, rateTermKind, type RateBasis, type RateTermKind } from './rate-terms.js';
export { chargeConcepts, namesCharge, type ChargeConcept } from './vocabulary.js';
export { DUPLICATE_WINDOW_DAYS } from './duplicates.js';
export {
  discountChecker,
  duplicateChargeChecker,
  exchangeRateMissingChecker,
  feeChecker,
  feeNotAgreedChecker,
  lineArithmeticChecker,
  notInPriceListChecker,
  periodChecker,
  totalsArithmeticChecker,
  unitPriceChecker,
};

/** In the order findings are listed: prices first, then terms, dates, coverage, arithmetic, duplicates. */
export const defaultCheckers: Checker[] = [
  unitPriceChecker,
  exchangeRateMissingChecker,
  discountChecker,
  feeChecker,
  periodChecker,
  notInPriceListChecker,
  feeNotAgreedChecker,
  lineArithmeticChecker,
  totalsArithmeticChecker,
  duplicateChargeChecker,
];

/**
 * Every checker's findings, in checker order and, within a checker, in line order. The same
 * input always gives the same list. A fingerprint found twice is kept once (the first).
 */
export function runCheckers(input: CheckInput, checkers: readonly Checker[] = defaultCheckers): Finding[] {
  const ordered: CheckInput = {
    ...input,
    invoice: { ...input.invoice, lines: [...input.invoice.lines].sort((a, b) => a.position - b.position) },
  };
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const checker of checkers) {
    for (const finding of checker.run(ordered)) {
      if (seen.has(finding.fingerprint)) continue;
      seen.add(finding.fingerprint);
      findings.push(asReadingOf(input, finding));
    }
  }
  return findings;
}

// Figures read from a PDF may be misread: a finding on them is never certain, and says so; a
// reading that did not add up (held for review) gives nothing above medium.
function asReadingOf(input: CheckInput, finding: Finding): Finding {
  if (input.invoice.extraction?.needsReview) {
    return {
      ...finding,
      confidence: lowerOf(finding.confidence, 'medium'),
      explanation: `${finding.explanation} The invoice was read from its PDF and the reading does not add up (it awaits review), so its figures may be misread.`,
    };
  }
  return input.invoice.readFrom === 'pdf_text' ? asPdfReading(finding) : finding;
}

function asPdfReading(finding: Finding): Finding {
  return {
    ...finding,
    confidence: lowerOf(finding.confidence, 'high'),
    explanation: `${finding.explanation} The invoice's figures were read from the text of its PDF, not from structured data, and may be misread.`,
  };
}
