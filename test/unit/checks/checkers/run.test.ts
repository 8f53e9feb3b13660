import { describe, expect, it } from 'vitest';
import { defaultCheckers, runCheckers, type Checker, type Finding } from '../../../../src/checks/checkers/index.js';
import { input, line, priceItem, prior, rateItem } from './fixtures.js';

// An invoice with one of everything: an overpriced line, an unlisted item, a line before the
// agreement, a missing discount, an excessive fee, a wrong line sum and a double billing.
function eventful() {
  return input({
    invoice: {
      lines: [
        line({ id: 'paper', quantity: '4', unitPrice: '12.50', netAmount: '50.00' }),
        line({
          id: 'stapler',
          position: 1,
          lineNumber: '2',
          sellerItemId: 'S-1',
          description: 'Stapler',
          unitCode: 'C62',
          quantity: '1',
          unitPrice: '200.00',
          netAmount: '200.00',
        }),
        line({
          id: 'service',
          position: 2,
          lineNumber: '3',
          sellerItemId: 'SRV',
          description: 'Service',
          unitCode: 'MON',
          quantity: '1',
          unitPrice: '100.00',
          netAmount: '100.00',
          periodStart: '2025-12-01',
          periodEnd: '2025-12-31',
        }),
        line({
          id: 'toner',
          position: 3,
          lineNumber: '4',
          sellerItemId: 'T-1',
          description: 'Toner',
          unitCode: 'C62',
          quantity: '2',
          unitPrice: '50.00',
          netAmount: '110.00',
        }),
      ],
      orderReference: 'PO-9',
      allowanceCharges: [
        { isCharge: true, amount: '20.00', baseAmount: null, reason: 'Invoice fee', reasonCode: null },
      ],
      totals: {
        lineExtension: '460.00',
        allowanceTotal: null,
        chargeTotal: '20.00',
        taxExclusive: '480.00',
        vatTotal: '120.00',
        taxInclusive: '600.00',
        prepaid: null,
        payableRounding: null,
        payable: '600.00',
      },
    },
    agreement: {
      priceItems: [
        priceItem(),
        priceItem({ id: 'service', sellerItemId: 'SRV', description: 'Service', unit: 'month', amount: '100.00' }),
        priceItem({ id: 'toner', sellerItemId: 'T-1', description: 'Toner', unit: 'pcs', amount: '50.00' }),
        rateItem({ id: 'discount', description: 'Framework discount', fraction: '0.02' }),
        rateItem({ id: 'fee', description: 'Invoice fee', fraction: '0.01' }),
      ],
    },
    priorCharges: [
      prior({
        sellerItemId: 'T-1',
        description: 'Toner',
        unitCode: 'C62',
        quantity: '2',
        netAmount: '110.00',
        issueDate: '2026-02-27',
        orderReference: 'PO-9',
      }),
    ],
  });
}

const MARKER = /\[(\d+)\]/g;

function assertWellFormed(finding: Finding) {
  expect(finding.impactAmount).toMatch(/^-?\d+\.\d{2,}$/);
  expect(finding.fingerprint).toMatch(new RegExp(`^${finding.checker}:[0-9a-f]{32}$`));
  const refs = finding.citations.map((citation) => citation.source_ref);
  expect(refs).toEqual(refs.map((_, index) => index + 1));
  for (const [, ref] of finding.explanation.matchAll(MARKER)) expect(refs).toContain(Number(ref));
  expect(finding.title.length).toBeGreaterThan(0);
}

describe('runCheckers', () => {
  it('runs the default checkers in a fixed order', () => {
    expect(defaultCheckers.map((checker) => checker.code)).toEqual([
      'unit_price_above_agreed',
      'exchange_rate_missing',
      'agreed_discount_missing',
      'fee_above_agreed',
      'charge_outside_agreement_period',
      'item_not_in_agreement',
      'fee_not_agreed',
      'line_arithmetic',
      'totals_arithmetic',
      'duplicate_charge',
    ]);
  });

  it('finds each problem of an eventful invoice once, well formed', () => {
    const findings = runCheckers(eventful());
    expect(findings.map((finding) => [finding.checker, finding.invoiceItemId, finding.impactAmount])).toEqual([
      ['unit_price_above_agreed', 'paper', '10.00'],
      // 2 % of the subtotal 460.00 (the stapler is unlisted, so the line nets are the basis); fee 20.00 - 1 % of 460.00
      ['agreed_discount_missing', null, '9.20'],
      ['fee_above_agreed', null, '15.40'],
      ['charge_outside_agreement_period', 'service', '100.00'],
      ['item_not_in_agreement', 'stapler', '0.00'],
      ['line_arithmetic', 'toner', '10.00'],
      ['duplicate_charge', 'toner', '110.00'],
    ]);
    findings.forEach(assertWellFormed);
  });

  it('gives the same findings for the same input, whatever the order of the lines', () => {
    const first = runCheckers(eventful());
    const shuffled = eventful();
    shuffled.invoice.lines.reverse();
    expect(runCheckers(shuffled)).toEqual(first);
    expect(runCheckers(eventful())).toEqual(first);
  });

  it('keeps fingerprints when the figures or line ids change, and tells lines apart', () => {
    const fingerprintOf = (overrides: Parameters<typeof line>[0]) =>
      runCheckers(input({ invoice: { lines: [line({ quantity: '4', netAmount: '50.00', ...overrides })] } }))[0]!
        .fingerprint;
    const base = fingerprintOf({ unitPrice: '12.50' });
    expect(fingerprintOf({ unitPrice: '13.00', netAmount: '52.00' })).toBe(base);
    expect(fingerprintOf({ unitPrice: '12.50', id: 'reimported-line' })).toBe(base);
    expect(fingerprintOf({ unitPrice: '12.50', lineNumber: '7' })).not.toBe(base);
  });

  it('runs the checkers it is given and keeps a fingerprint once', () => {
    const twice: Checker = {
      code: 'twice',
      title: 'Twice',
      run: () =>
        [1, 2].map((n) => ({
          checker: 'twice',
          fingerprint: 'twice:same',
          title: `Finding ${n}`,
          explanation: '',
          citations: [],
          impactAmount: '0.00',
          expected: null,
          confidence: 'low',
          invoiceItemId: null,
          correctionType: 'modify_invoice',
        })),
    };
    expect(runCheckers(input({}), [twice]).map((finding) => finding.title)).toEqual(['Finding 1']);
    expect(runCheckers(eventful(), [])).toEqual([]);
  });

  it('checks only the arithmetic of a credit note', () => {
    const credit = eventful();
    credit.invoice.documentType = 'credit_note';
    expect(runCheckers(credit).map((finding) => finding.checker)).toEqual(['line_arithmetic']);
  });

  it('finds nothing on a clean invoice', () => {
    expect(runCheckers(input({}))).toEqual([]);
  });
});
