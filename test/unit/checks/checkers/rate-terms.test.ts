import { describe, expect, it } from 'vitest';
import {
  discountChecker,
  feeChecker,
  notInPriceListChecker,
  rateBasis,
  rateTermKind,
  unitPriceChecker,
} from '../../../../src/checks/checkers/index.js';
import { input, line, priceItem, rateItem, type InputOverrides } from './fixtures.js';

const goods = line({ id: 'goods', sellerItemId: 'P-100', quantity: '10', unitPrice: '10.00', netAmount: '100.00' });
const unlisted = line({
  id: 'other',
  position: 1,
  lineNumber: '2',
  sellerItemId: 'Z-9',
  description: 'Stapler',
  unitCode: 'C62',
  quantity: '1',
  unitPrice: '200.00',
  netAmount: '200.00',
});
const discount = rateItem({
  id: 'discount',
  description: 'General discount',
  fraction: '0.05',
  basis: 'invoice_subtotal',
});

describe('rate term vocabulary', () => {
  it('tells discounts, fees and terms settled outside the invoice apart, in several languages', () => {
    expect(rateTermKind({ description: 'General discount', basis: 'invoice_subtotal' })).toBe('discount');
    expect(rateTermKind({ description: 'Kunderabatt', basis: 'fakturabeløp' })).toBe('discount');
    expect(rateTermKind({ description: 'Alennus', basis: 'välisumma' })).toBe('discount');
    expect(rateTermKind({ description: 'Rate', basis: 'discount on invoice subtotal' })).toBe('discount');
    expect(rateTermKind({ description: 'Invoice fee', basis: 'invoice_subtotal' })).toBe('fee');
    expect(rateTermKind({ description: 'Fakturagebyr', basis: 'delsum' })).toBe('fee');
    expect(rateTermKind({ description: 'Freight surcharge', basis: 'line_total' })).toBe('fee');
    expect(rateTermKind({ description: 'Annual bonus', basis: 'yearly purchases' })).toBe('not_per_invoice');
    expect(rateTermKind({ description: 'Skonto 2 % within 10 days', basis: 'invoice_subtotal' })).toBe(
      'not_per_invoice',
    );
    expect(rateTermKind({ description: 'Kontantrabatt', basis: 'fakturabeløp' })).toBe('not_per_invoice');
    expect(rateTermKind({ description: 'Markup on materials', basis: 'invoice_subtotal' })).toBe('unknown');
  });

  it('understands the basis tokens exactly and common free text with less confidence', () => {
    expect(rateBasis('invoice_subtotal')).toEqual({ basis: 'invoice_subtotal', confidence: 'high' });
    expect(rateBasis('Invoice subtotal')).toEqual({ basis: 'invoice_subtotal', confidence: 'high' });
    expect(rateBasis('line_total')).toEqual({ basis: 'line_total', confidence: 'high' });
    expect(rateBasis('Fakturabeløp eks. mva')).toEqual({ basis: 'invoice_subtotal', confidence: 'medium' });
    expect(rateBasis('invoice total excluding VAT')).toEqual({ basis: 'invoice_subtotal', confidence: 'medium' });
    expect(rateBasis('each line')).toEqual({ basis: 'line_total', confidence: 'medium' });
    expect(rateBasis('annual purchases')).toBeNull();
    expect(rateBasis(null)).toBeNull();
  });
});

describe('agreed discount', () => {
  const run = (invoice: InputOverrides['invoice'], items = [priceItem(), discount]) =>
    discountChecker.run(input({ invoice, agreement: { priceItems: items } }));

  it('reports a missing discount as fraction * subtotal, to be added', () => {
    const [finding, ...rest] = run({ lines: [goods, unlisted] });
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      checker: 'agreed_discount_missing',
      title: 'Agreed discount not given',
      impactAmount: '15.00',
      correctionType: 'add_item',
      invoiceItemId: null,
      // Nothing given while a line is not priced by the agreement: the discount could hide in its price.
      confidence: 'medium',
      expected: [
        {
          description: 'General discount',
          unit: null,
          currency_code: 'NOK',
          price: { type: 'rate', fraction: '0.05', basis: 'invoice_subtotal' },
        },
      ],
    });
    expect(finding!.explanation).toBe(
      'The agreement gives 5 % "General discount" [1] of the invoice subtotal of 300.00 NOK: 15.00 NOK; the invoice gives no discount [2]. The shortfall is 15.00 NOK.',
    );
    expect(finding!.citations[0]!.citation.source).toEqual({
      source_type: 'agreement_prices',
      document_id: 'doc-prices',
      price_item_id: 'discount',
    });
  });

  it('reports a discount that is too small with the shortfall', () => {
    const [finding] = run({
      lines: [goods, unlisted],
      allowanceCharges: [
        { isCharge: false, amount: '10.00', baseAmount: '300.00', reason: 'Discount', reasonCode: '95' },
      ],
    });
    expect(finding).toMatchObject({
      title: 'Agreed discount too small',
      impactAmount: '5.00',
      correctionType: 'modify_invoice',
      confidence: 'high',
    });
    expect(finding!.citations[1]!.citation.quote).toBe(
      'Invoice 1001: lines 300.00; document allowances Discount 10.00',
    );
  });

  it('accepts the discount as a document allowance, as a discount line, or in the prices', () => {
    expect(
      run({
        lines: [goods, unlisted],
        allowanceCharges: [{ isCharge: false, amount: '15.00', baseAmount: null, reason: null, reasonCode: null }],
      }),
    ).toEqual([]);
    const discountLine = line({
      id: 'minus',
      position: 2,
      lineNumber: '3',
      sellerItemId: null,
      description: 'Rabatt 5 %',
      quantity: '1',
      unitPrice: '-15.00',
      netAmount: '-15.00',
    });
    expect(run({ lines: [goods, unlisted, discountLine] })).toEqual([]);
    // Every line priced by the agreement, 5 % below it: the discount is in the price.
    expect(run({ lines: [line({ unitPrice: '9.50', netAmount: '95.00' })] })).toEqual([]);
  });

  it('counts a discount partly put into the prices', () => {
    const [finding] = run({ lines: [line({ unitPrice: '9.60', netAmount: '96.00' })] });
    expect(finding).toMatchObject({ impactAmount: '1.00', title: 'Agreed discount too small', confidence: 'high' });
    expect(finding!.explanation).toContain('the agreed prices of the lines, 100.00 NOK');
    expect(finding!.explanation).toContain('(4.00 NOK of it in prices below the agreed ones)');
  });

  it('adds several discount terms up, exactly (0.1 + 0.2 of 100.10 = 30.03)', () => {
    const ten = rateItem({ id: 'd10', description: 'Volume discount', fraction: '0.1' });
    const twenty = rateItem({ id: 'd20', description: 'Framework discount', fraction: '0.2' });
    const [finding] = run(
      {
        lines: [
          line({ sellerItemId: null, description: 'Service', netAmount: '100.10', unitPrice: '100.10', quantity: '1' }),
        ],
      },
      [ten, twenty],
    );
    expect(finding!.impactAmount).toBe('30.03');
    expect(finding!.expected).toHaveLength(2);
  });

  it('rounds half-up at the end (2.5 % of 333.30 = 8.3325 -> 8.33; of 333.40 = 8.335 -> 8.34)', () => {
    const small = rateItem({ id: 'd', description: 'Discount', fraction: '0.025' });
    const lineOf = (amount: string) => [
      line({ sellerItemId: null, description: 'Service', netAmount: amount, unitPrice: amount, quantity: '1' }),
    ];
    expect(run({ lines: lineOf('333.30') }, [small])[0]!.impactAmount).toBe('8.33');
    expect(run({ lines: lineOf('333.40') }, [small])[0]!.impactAmount).toBe('8.34');
  });

  it('skips expired discounts, unknown bases, terms settled outside the invoice, and credit notes', () => {
    expect(
      run({ lines: [goods, unlisted] }, [rateItem({ description: 'Discount', validUntil: '2026-02-01' })]),
    ).toEqual([]);
    expect(
      run({ lines: [goods, unlisted] }, [rateItem({ description: 'Discount', basis: 'annual purchases' })]),
    ).toEqual([]);
    expect(
      run({ lines: [goods, unlisted] }, [rateItem({ description: 'Year-end bonus', basis: 'invoice_subtotal' })]),
    ).toEqual([]);
    expect(run({ documentType: 'credit_note', lines: [goods, unlisted] })).toEqual([]);
  });
});

describe('agreed fees', () => {
  const invoiceFee = rateItem({ id: 'fee', description: 'Invoice fee', fraction: '0.02', basis: 'invoice_subtotal' });
  const run = (invoice: InputOverrides['invoice'], items = [priceItem(), invoiceFee]) =>
    feeChecker.run(input({ invoice, agreement: { priceItems: items } }));
  const charge = (amount: string, reason: string | null, reasonCode: string | null = null) => ({
    isCharge: true,
    amount,
    baseAmount: null,
    reason,
    reasonCode,
  });

  it('reports a document charge above fraction * subtotal', () => {
    const [finding] = run({ lines: [goods], allowanceCharges: [charge('5.00', 'Invoicing fee')] });
    expect(finding).toMatchObject({
      checker: 'fee_above_agreed',
      impactAmount: '3.00',
      confidence: 'high',
      invoiceItemId: null,
      correctionType: 'modify_invoice',
    });
    expect(finding!.explanation).toContain(
      'allows 2 % "Invoice fee" [1] of the invoice subtotal of 100.00 NOK: 2.00 NOK. The invoice charges 5.00 NOK for it [2]',
    );
    expect(finding!.citations[1]!.citation.quote).toBe('Invoice 1001, document charge: Invoicing fee 5.00');
  });

  it('accepts a fee within the agreed rate, and leaves unrelated charges alone', () => {
    expect(run({ lines: [goods], allowanceCharges: [charge('2.00', 'Invoice fee')] })).toEqual([]);
    expect(run({ lines: [goods], allowanceCharges: [charge('50.00', 'Pallet deposit')] })).toEqual([]);
    expect(run({ lines: [goods] })).toEqual([]);
  });

  it('finds the fee as an invoice line, leaving that line out of the subtotal', () => {
    const feeLine = line({
      id: 'fee-line',
      position: 1,
      lineNumber: '2',
      sellerItemId: null,
      description: 'Invoice fee',
      unitCode: null,
      quantity: '1',
      unitPrice: '5.00',
      netAmount: '5.00',
    });
    const checked = input({
      invoice: { lines: [goods, feeLine] },
      agreement: { priceItems: [priceItem(), invoiceFee] },
    });
    const [finding] = feeChecker.run(checked);
    expect(finding).toMatchObject({ impactAmount: '3.00', invoiceItemId: 'fee-line', correctionType: 'modify_item' });
    // The fee line is an agreed term, not an unlisted item, and has no unit price to compare.
    expect(notInPriceListChecker.run(checked)).toEqual([]);
    expect(unitPriceChecker.run(checked)).toEqual([]);
  });

  it('takes an unnamed charge for the only fee of the agreement, with medium confidence', () => {
    const [finding] = run({ lines: [goods], allowanceCharges: [charge('5.00', null)] });
    expect(finding).toMatchObject({ impactAmount: '3.00', confidence: 'medium' });
    expect(finding!.explanation).toContain(
      'a charge without a reason is taken to be "Invoice fee", the only fee the agreement has (a guess)',
    );
  });

  it('knows the freight charge reason code, and compound words', () => {
    const freight = rateItem({
      id: 'freight',
      description: 'Freight surcharge',
      fraction: '0.05',
      basis: 'Line total',
    });
    expect(run({ lines: [goods], allowanceCharges: [charge('8.00', null, 'FC')] }, [freight])[0]!.impactAmount).toBe(
      '3.00',
    );
    const gebyr = rateItem({ id: 'gebyr', description: 'Fakturagebyr', fraction: '0.01', basis: 'fakturabeløp' });
    const [finding] = run({ lines: [goods], allowanceCharges: [charge('2.00', 'Faktura gebyr')] }, [gebyr]);
    expect(finding).toMatchObject({ impactAmount: '1.00', confidence: 'medium' });
  });

  it('treats a fee agreed at 0 % as not to be charged at all', () => {
    const none = rateItem({ id: 'no-fee', description: 'Invoice fee', fraction: '0', basis: 'invoice_subtotal' });
    expect(run({ lines: [goods], allowanceCharges: [charge('49.00', 'Invoice fee')] }, [none])[0]!.impactAmount).toBe(
      '49.00',
    );
  });

  it('is exact with decimal fractions (1.5 % of 0.1 + 0.2 ...)', () => {
    const lines = [
      line({ id: 'a', sellerItemId: null, description: 'A', netAmount: '0.1', unitPrice: '0.1', quantity: '1' }),
      line({
        id: 'b',
        position: 1,
        sellerItemId: null,
        description: 'B',
        netAmount: '0.2',
        unitPrice: '0.2',
        quantity: '1',
      }),
    ];
    // allowed 0.0045, charged 0.02 -> 0.0155 -> 0.02
    expect(
      run({ lines, allowanceCharges: [charge('0.02', 'Invoice fee')] }, [
        rateItem({ id: 'fee', description: 'Invoice fee', fraction: '0.015' }),
      ])[0]!.impactAmount,
    ).toBe('0.02');
  });
});
