import { describe, expect, it } from 'vitest';
import { notInPriceListChecker, periodChecker } from '../../../../src/checks/checkers/index.js';
import { input, line, priceItem, rateItem } from './fixtures.js';

describe('charges outside the agreement period', () => {
  const run = (overrides: Parameters<typeof input>[0]) => periodChecker.run(input(overrides));

  it('finds nothing inside the period, or when the agreement has no dates', () => {
    expect(run({ invoice: { lines: [line({ periodStart: '2026-01-01', periodEnd: '2026-12-31' })] } })).toEqual([]);
    expect(
      run({
        invoice: { lines: [line({ periodStart: '2025-01-01', periodEnd: '2025-01-31' })] },
        agreement: { effectiveDate: null, expirationDate: null },
      }),
    ).toEqual([]);
  });

  it('claims the whole net amount of a line wholly before the effective date', () => {
    const [finding] = run({
      invoice: { lines: [line({ periodStart: '2025-12-01', periodEnd: '2025-12-31', netAmount: '100.10' })] },
    });
    expect(finding).toMatchObject({
      checker: 'charge_outside_agreement_period',
      impactAmount: '100.10',
      confidence: 'high',
      invoiceItemId: 'line-1',
      correctionType: 'modify_item',
      expected: null,
    });
    expect(finding!.explanation).toBe(
      'Line 1 "Copy paper A4" is dated by its line period 2025-12-01 to 2025-12-31 [1], but the agreement "Office supplies 2026" runs 2026-01-01 to 2026-12-31 [2]. The whole net amount, 100.10, is charged before the agreement took effect.',
    );
  });

  it('claims a line after the expiration date', () => {
    const [finding] = run({ invoice: { lines: [line({ periodStart: '2027-01-01', periodEnd: '2027-01-01' })] } });
    expect(finding!.explanation).toContain('after the agreement expired');
  });

  it('pro-rates a line partly outside by days, with medium confidence', () => {
    // 10 of 31 days in December 2026 are after a 2026-12-21 expiration.
    const [finding] = run({
      invoice: { lines: [line({ periodStart: '2026-12-01', periodEnd: '2026-12-31', netAmount: '310.00' })] },
      agreement: { expirationDate: '2026-12-21' },
    });
    expect(finding).toMatchObject({ impactAmount: '100.00', confidence: 'medium' });
    expect(finding!.explanation).toContain('10 of its 31 days fall outside; pro rata that is 100.00 of 310.00.');
    // 1 of 3 days of 100.00: 33.333... -> 33.33
    expect(
      run({ invoice: { lines: [line({ periodStart: '2025-12-31', periodEnd: '2026-01-02' })] } })[0]!.impactAmount,
    ).toBe('33.33');
  });

  it('falls back to the invoice period (medium), then the issue date (low)', () => {
    const byInvoicePeriod = run({ invoice: { periodStart: '2025-11-01', periodEnd: '2025-11-30' } });
    expect(byInvoicePeriod[0]).toMatchObject({ impactAmount: '100.00', confidence: 'medium' });
    const byIssueDate = run({ invoice: { issueDate: '2027-02-01' } });
    expect(byIssueDate[0]).toMatchObject({ impactAmount: '100.00', confidence: 'low' });
    expect(byIssueDate[0]!.explanation).toContain('dated by its issue date 2027-02-01');
  });

  it('leaves discount lines, undated lines and credit notes alone', () => {
    expect(
      run({ invoice: { lines: [line({ periodStart: '2025-01-01', periodEnd: '2025-01-31', netAmount: '-10.00' })] } }),
    ).toEqual([]);
    expect(run({ invoice: { issueDate: null } })).toEqual([]);
    expect(
      run({
        invoice: { documentType: 'credit_note', lines: [line({ periodStart: '2025-01-01', periodEnd: '2025-01-31' })] },
      }),
    ).toEqual([]);
  });

  it('handles open-ended agreements', () => {
    expect(
      run({
        invoice: { lines: [line({ periodStart: '2030-01-01', periodEnd: '2030-01-31' })] },
        agreement: { expirationDate: null },
      }),
    ).toEqual([]);
    expect(
      run({
        invoice: { lines: [line({ periodStart: '2020-01-01', periodEnd: '2020-01-31' })] },
        agreement: { expirationDate: null },
      }),
    ).toHaveLength(1);
  });
});

describe('item not in the price list', () => {
  const run = (overrides: Parameters<typeof input>[0]) => notInPriceListChecker.run(input(overrides));
  const stapler = line({
    id: 'stapler',
    sellerItemId: 'S-1',
    description: 'Stapler',
    unitCode: 'C62',
    quantity: '1',
    unitPrice: '200.00',
    netAmount: '200.00',
  });

  it('finds nothing for listed items', () => {
    expect(run({})).toEqual([]);
  });

  it('reports an unlisted item with low confidence, no impact, and modify_invoice', () => {
    const [finding] = run({ invoice: { lines: [stapler] } });
    expect(finding).toMatchObject({
      checker: 'item_not_in_agreement',
      impactAmount: '0.00',
      confidence: 'low',
      correctionType: 'modify_invoice',
      invoiceItemId: 'stapler',
      expected: null,
    });
    expect(finding!.citations[1]!.citation).toEqual({
      source: { source_type: 'agreement_prices', document_id: null, price_item_id: null },
      quote:
        'The price list of "Office supplies 2026" (1 item) has no item with article number S-1 or the description "Stapler"',
    });
  });

  it('reports an item whose agreed price ran out, with medium confidence', () => {
    const [finding] = run({ agreement: { priceItems: [priceItem({ validUntil: '2026-01-31' })] } });
    expect(finding).toMatchObject({
      title: 'Agreed price expired: Copy paper A4',
      confidence: 'medium',
      impactAmount: '0.00',
    });
    expect(finding!.explanation).toContain('valid until 2026-01-31, and the invoice is dated 2026-03-01');
  });

  it('reports an item billed in a unit the agreement does not price', () => {
    const [finding] = run({ invoice: { lines: [line({ unitCode: 'C62' })] } });
    expect(finding).toMatchObject({
      title: 'Item billed in a unit the agreement does not price: Copy paper A4',
      confidence: 'low',
    });
  });

  it('does not check agreements without prices, free or discount lines, or credit notes', () => {
    expect(run({ invoice: { lines: [stapler] }, agreement: { priceItems: [] } })).toEqual([]);
    expect(
      run({ invoice: { lines: [stapler] }, agreement: { priceItems: [rateItem({ description: 'Discount' })] } }),
    ).toEqual([]);
    expect(run({ invoice: { lines: [line({ ...stapler, netAmount: '0.00' })] } })).toEqual([]);
    expect(run({ invoice: { lines: [line({ ...stapler, netAmount: '-5.00' })] } })).toEqual([]);
    expect(run({ invoice: { documentType: 'credit_note', lines: [stapler] } })).toEqual([]);
  });

  it('counts a line matched to a rate item (an agreed fee) as listed', () => {
    const fee = rateItem({ description: 'Stapler' });
    expect(
      run({
        invoice: { lines: [line({ ...stapler, sellerItemId: null })] },
        agreement: { priceItems: [priceItem(), fee] },
      }),
    ).toEqual([]);
  });
});
