import { describe, expect, it } from 'vitest';
import { DUPLICATE_WINDOW_DAYS, duplicateChargeChecker } from '../../../../src/checks/checkers/index.js';
import { nearEqualNumbers } from '../../../../src/checks/checkers/duplicates.js';
import { input, line, prior, type InputOverrides } from './fixtures.js';

const monthly = line({
  id: 'sub',
  sellerItemId: 'LIC-1',
  description: 'Licence',
  unitCode: 'MON',
  quantity: '10',
  unitPrice: '31.00',
  netAmount: '310.00',
  periodStart: '2026-03-01',
  periodEnd: '2026-03-31',
});
const priorMonthly = (overrides: Parameters<typeof prior>[0] = {}) =>
  prior({
    sellerItemId: 'LIC-1',
    description: 'Licence',
    unitCode: 'MON',
    quantity: '10',
    netAmount: '310.00',
    periodStart: '2026-03-01',
    periodEnd: '2026-03-31',
    ...overrides,
  });
const run = (
  lines: ReturnType<typeof line>[],
  priorCharges: ReturnType<typeof prior>[],
  invoice: InputOverrides['invoice'] = {},
) => duplicateChargeChecker.run(input({ invoice: { lines, ...invoice }, priorCharges }));

describe('duplicate charges', () => {
  it('reports the same article for the same period on another invoice, with the whole net amount', () => {
    const [finding, ...rest] = run([monthly], [priorMonthly()]);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      checker: 'duplicate_charge',
      impactAmount: '310.00',
      confidence: 'high',
      invoiceItemId: 'sub',
      correctionType: 'modify_item',
      expected: null,
    });
    expect(finding!.explanation).toBe(
      'Line 1 "Licence" [1] bills the same article as invoice 0999 [2]: its whole period 2026-03-01 to 2026-03-31 was already billed. Impact 310.00 NOK.',
    );
    expect(finding!.citations[1]!.citation.quote).toBe(
      'Invoice 0999 of 2026-02-25: Licence (article LIC-1), quantity 10 MON, net amount 310.00, period 2026-03-01 to 2026-03-31',
    );
  });

  it('finds nothing for the next period, other articles, or the invoice itself', () => {
    expect(run([monthly], [priorMonthly({ periodStart: '2026-02-01', periodEnd: '2026-02-28' })])).toEqual([]);
    expect(run([monthly], [priorMonthly({ sellerItemId: 'LIC-2' })])).toEqual([]);
    expect(run([monthly], [priorMonthly({ invoiceId: 'inv-1' })])).toEqual([]);
    expect(run([monthly], [])).toEqual([]);
  });

  it('pro-rates a partial overlap by days, counting overlapping prior periods once', () => {
    // 2026-03-01..20 already billed, 20 of 31 days: 310 * 20 / 31 = 200.00
    const [finding] = run([monthly], [priorMonthly({ periodStart: '2026-02-21', periodEnd: '2026-03-20' })]);
    expect(finding).toMatchObject({ impactAmount: '200.00', confidence: 'medium' });
    const two = run(
      [monthly],
      [
        priorMonthly({ lineId: 'x', periodStart: '2026-03-01', periodEnd: '2026-03-10' }),
        priorMonthly({ lineId: 'y', periodStart: '2026-03-05', periodEnd: '2026-03-11' }),
      ],
    );
    // days 1..11 covered once: 310 * 11 / 31 = 110.00
    expect(two[0]!.impactAmount).toBe('110.00');
    expect(two[0]!.citations).toHaveLength(3);
  });

  it('uses the invoice period for lines without their own', () => {
    const plain = line({ ...monthly, periodStart: null, periodEnd: null });
    expect(
      run([plain], [priorMonthly()], { periodStart: '2026-03-01', periodEnd: '2026-03-31' })[0]!.impactAmount,
    ).toBe('310.00');
  });

  it('is less sure with another quantity or by description only', () => {
    expect(run([monthly], [priorMonthly({ quantity: '2' })])[0]!.confidence).toBe('medium');
    const byDescription = run([line({ ...monthly, sellerItemId: null })], [priorMonthly({ sellerItemId: null })]);
    expect(byDescription[0]!.confidence).toBe('medium');
    expect(byDescription[0]!.explanation).toContain('an item of the same description');
    expect(
      run([line({ ...monthly, sellerItemId: null })], [priorMonthly({ sellerItemId: null, unitCode: 'DAY' })]),
    ).toEqual([]);
  });

  it(`without periods: same quantity and amount within ${DUPLICATE_WINDOW_DAYS} days, with evidence of one delivery`, () => {
    const delivery = line();
    const sameOrder = { orderReference: 'PO-77' };
    const [finding] = run([delivery], [prior({ issueDate: '2026-02-15', ...sameOrder })], sameOrder);
    expect(finding).toMatchObject({ impactAmount: '100.00', confidence: 'high' });
    expect(finding!.explanation).toContain(
      'the same quantity for the same amount was billed within 14 days of this invoice, for the same order reference PO-77',
    );
    expect(run([delivery], [prior({ issueDate: '2026-02-14', ...sameOrder })], sameOrder)).toEqual([]);
    expect(run([delivery], [prior({ quantity: '10.5', ...sameOrder })], sameOrder)).toEqual([]);
    expect(run([delivery], [prior({ netAmount: '100.01', ...sameOrder })], sameOrder)).toEqual([]);
    expect(run([delivery], [prior({ sellerItemId: null, ...sameOrder })], sameOrder)[0]!.confidence).toBe('medium');
    expect(
      run([line({ sellerItemId: null })], [prior({ sellerItemId: null, ...sameOrder })], sameOrder)[0]!.confidence,
    ).toBe('medium');
  });

  it('leaves repeat orders alone: the same items 7 or 14 days later under another order number', () => {
    const delivery = line();
    expect(run([delivery], [prior({ issueDate: '2026-02-22' })])).toEqual([]);
    expect(
      run([delivery], [prior({ issueDate: '2026-02-15', orderReference: 'PO-76', deliveryDate: '2026-02-14' })], {
        orderReference: 'PO-77',
        deliveryDate: '2026-02-28',
      }),
    ).toEqual([]);
    // Other order numbers: another order, even delivered the same day.
    expect(
      run([delivery], [prior({ orderReference: 'PO-76', deliveryDate: '2026-02-28' })], {
        orderReference: 'PO-77',
        deliveryDate: '2026-02-28',
      }),
    ).toEqual([]);
    // Sequential invoice numbers are no evidence.
    expect(run([delivery], [prior({ invoiceNumber: '1000' })], { invoiceNumber: '1001' })).toEqual([]);
  });

  it('takes the same delivery date (medium) or a near-equal invoice number (high) as evidence, and says which', () => {
    const delivery = line();
    const byDate = run([delivery], [prior({ deliveryDate: '2026-02-20' })], { deliveryDate: '2026-02-20' });
    expect(byDate[0]).toMatchObject({ confidence: 'medium', impactAmount: '100.00' });
    expect(byDate[0]!.explanation).toContain('for the same delivery date 2026-02-20');
    const resent = run([delivery], [prior({ invoiceNumber: 'INV-1001', orderReference: 'PO-1' })], {
      invoiceNumber: 'INV-1001-2',
      orderReference: 'PO-2',
    });
    expect(resent[0]).toMatchObject({ confidence: 'high' });
    expect(resent[0]!.explanation).toContain('under a near-equal invoice number (INV-1001-2 and INV-1001)');
  });

  it('reads near-equal invoice numbers as a re-sent invoice, and sequences as new invoices', () => {
    expect(nearEqualNumbers('INV-1001', 'inv 1001')).toBe(true);
    expect(nearEqualNumbers('1001', '1001-2')).toBe(true);
    expect(nearEqualNumbers('1001', '1001B')).toBe(true);
    expect(nearEqualNumbers('R1001', '1001')).toBe(true);
    expect(nearEqualNumbers('1001', '1002')).toBe(false);
    expect(nearEqualNumbers('1001', '10012')).toBe(false);
    expect(nearEqualNumbers('INV-1001', 'INV-10012')).toBe(false);
    expect(nearEqualNumbers('2026-0101', '2026-0102')).toBe(false);
    expect(nearEqualNumbers(null, '1001')).toBe(false);
  });

  it('compares equal decimals, not strings (10 = 10.000, 100 = 100.00)', () => {
    expect(
      run([line({ quantity: '10.000', netAmount: '100' })], [prior({ orderReference: 'PO-1' })], {
        orderReference: 'PO-1',
      }),
    ).toHaveLength(1);
  });

  it('does not compare a line with a period to one without', () => {
    expect(run([monthly], [priorMonthly({ periodStart: null, periodEnd: null, issueDate: '2026-03-01' })])).toEqual([]);
    expect(run([line()], [prior({ periodStart: '2026-03-01', periodEnd: '2026-03-31' })])).toEqual([]);
  });

  it('leaves credit notes, negative lines and credits among prior charges alone', () => {
    expect(run([monthly], [priorMonthly()], { documentType: 'credit_note' })).toEqual([]);
    expect(
      run([line({ netAmount: '-100.00', quantity: '-10' })], [prior({ netAmount: '-100.00', quantity: '-10' })]),
    ).toEqual([]);
    expect(run([monthly], [priorMonthly({ netAmount: '-310.00' })])).toEqual([]);
  });

  it('cites at most five earlier invoices and says how many more there are', () => {
    const priors = Array.from({ length: 7 }, (_, index) =>
      priorMonthly({ invoiceId: `p${index}`, invoiceNumber: `P${index}`, lineId: `l${index}` }),
    );
    const [finding] = run([monthly], priors);
    expect(finding!.citations).toHaveLength(6);
    expect(finding!.explanation).toContain('and 2 more');
    expect(finding!.impactAmount).toBe('310.00');
  });
});
