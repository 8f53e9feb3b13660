import { describe, expect, it } from 'vitest';
import { lineArithmeticChecker, totalsArithmeticChecker } from '../../../../src/checks/checkers/index.js';
import { input, invoice, line, type InputOverrides } from './fixtures.js';

describe('line arithmetic', () => {
  const run = (overrides: Parameters<typeof line>[0], extra: InputOverrides['invoice'] = {}) =>
    lineArithmeticChecker.run(input({ invoice: { lines: [line(overrides)], ...extra } }));

  it('accepts exact lines, decimals that floats get wrong, and base quantities', () => {
    expect(run({})).toEqual([]);
    // 3 x 0.1 = 0.3 exactly (0.30000000000000004 in floats)
    expect(run({ quantity: '3', unitPrice: '0.1', netAmount: '0.30' })).toEqual([]);
    expect(run({ quantity: '1000', unitPrice: '125', priceBaseQuantity: '100', netAmount: '1250.00' })).toEqual([]);
    expect(run({ quantity: '2.5', unitPrice: '1234.565', netAmount: '3086.41' })).toEqual([]);
  });

  it('tolerates half a cent either way, not more', () => {
    // 1 x 0.125 = 0.125: 0.13 (half-up) and 0.12 (half-even) are both fine
    expect(run({ quantity: '1', unitPrice: '0.125', netAmount: '0.13' })).toEqual([]);
    expect(run({ quantity: '1', unitPrice: '0.125', netAmount: '0.12' })).toEqual([]);
    expect(run({ quantity: '1', unitPrice: '0.125', netAmount: '0.14' })).toHaveLength(1);
  });

  it('reports a line that nets more than quantity x price, with the difference as impact', () => {
    const [finding] = run({ quantity: '3', unitPrice: '0.1', netAmount: '0.40' });
    expect(finding).toMatchObject({
      checker: 'line_arithmetic',
      impactAmount: '0.10',
      confidence: 'high',
      invoiceItemId: 'line-1',
      correctionType: 'modify_item',
    });
    expect(finding!.explanation).toContain(
      'Line 1 "Copy paper A4" [1]: 3 x 0.10 = 0.30 NOK, but the line states 0.40 NOK (+0.10; up to 0.01 a line is taken as rounding).',
    );
    expect(finding!.explanation).toContain('The line allowances and charges are not known');
  });

  it('uses line allowances and charges when given, and is then certain', () => {
    const allowances = [
      { isCharge: false, amount: '10.00' },
      { isCharge: true, amount: '2.50' },
    ];
    expect(run({ allowanceCharges: allowances, netAmount: '92.50' })).toEqual([]);
    const [finding] = run({ allowanceCharges: allowances, netAmount: '100.00' });
    expect(finding).toMatchObject({ impactAmount: '7.50', confidence: 'certain' });
    expect(finding!.explanation).toContain('10 x 10.00 - 7.50 = 92.50 NOK');
    const [below] = run({ allowanceCharges: [], netAmount: '90.00' });
    expect(below).toMatchObject({ impactAmount: '-10.00', confidence: 'certain' });
  });

  it('claims nothing for a line netting less when its allowances are unknown', () => {
    const [finding] = run({ netAmount: '90.00' });
    expect(finding).toMatchObject({ impactAmount: '0.00', confidence: 'low' });
    expect(finding!.explanation).toContain('probably a line discount');
  });

  it('skips lines it cannot compute', () => {
    expect(run({ quantity: null })).toEqual([]);
    expect(run({ unitPrice: null })).toEqual([]);
    expect(run({ netAmount: null })).toEqual([]);
    expect(run({ priceBaseQuantity: '0' })).toEqual([]);
  });

  it('flips the sign on a credit note with positive amounts, not on one with negative amounts', () => {
    // A credit note that credits 90 where its quantity and price give 100 credits too little.
    const positive = lineArithmeticChecker.run(
      input({ invoice: { documentType: 'credit_note', lines: [line({ allowanceCharges: [], netAmount: '90.00' })] } }),
    );
    expect(positive[0]!.impactAmount).toBe('10.00');
    const negative = lineArithmeticChecker.run(
      input({
        invoice: {
          documentType: 'credit_note',
          lines: [line({ allowanceCharges: [], quantity: '-10', netAmount: '-90.00' })],
        },
      }),
    );
    expect(negative[0]!.impactAmount).toBe('10.00');
  });

  it('uses the minor unit of the currency (JPY has none)', () => {
    const yen = { currencyCode: 'JPY' };
    expect(run({ quantity: '3', unitPrice: '333.4', netAmount: '1000' }, yen)).toEqual([]);
    // One yen off is rounding by default (the organization's line rounding tolerance); two is not.
    expect(run({ quantity: '3', unitPrice: '333', netAmount: '1000' }, yen)).toEqual([]);
    const [finding] = run({ quantity: '3', unitPrice: '333', netAmount: '1001' }, yen);
    expect(finding!.impactAmount).toBe('2.00');
  });
});

describe('totals arithmetic', () => {
  const run = (overrides: Parameters<typeof invoice>[0]) => totalsArithmeticChecker.run(input({ invoice: overrides }));
  const totals = invoice().totals;

  it('accepts totals that add up, with allowances, charges, prepaid and rounding', () => {
    expect(run({})).toEqual([]);
    expect(
      run({
        lines: [
          line({ netAmount: '0.1' }),
          line({ id: 'b', position: 1, netAmount: '0.2', quantity: '1', unitPrice: '0.2' }),
        ],
        allowanceCharges: [
          { isCharge: false, amount: '0.05', baseAmount: null, reason: 'Discount', reasonCode: null },
          { isCharge: true, amount: '1.00', baseAmount: null, reason: 'Freight', reasonCode: 'FC' },
        ],
        totals: {
          lineExtension: '0.30',
          allowanceTotal: '0.05',
          chargeTotal: '1.00',
          taxExclusive: '1.25',
          vatTotal: '0.31',
          taxInclusive: '1.56',
          prepaid: '0.50',
          payableRounding: '-0.06',
          payable: '1.00',
        },
      }),
    ).toEqual([]);
  });

  it('reports lines that do not add up to the line total, once, not again in every later total', () => {
    const findings = run({
      totals: {
        ...totals,
        lineExtension: '110.00',
        taxExclusive: '110.00',
        vatTotal: '27.50',
        taxInclusive: '137.50',
        payable: '137.50',
      },
    });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      checker: 'totals_arithmetic',
      title: 'Line amounts do not add up to the line total',
      impactAmount: '10.00',
      confidence: 'certain',
      invoiceItemId: null,
      correctionType: 'modify_invoice',
    });
    expect(findings[0]!.explanation).toBe(
      'The invoice states a line total of 110.00 [1], but the 1 line net amounts add up to 100.00 (difference +10.00).',
    );
  });

  it('reports each broken rule with the signed difference', () => {
    expect(
      run({ totals: { ...totals, taxExclusive: '99.00', vatTotal: '26.00' } }).map((f) => [f.title, f.impactAmount]),
    ).toEqual([['Total excluding VAT does not add up', '-1.00']]);
    expect(
      run({ totals: { ...totals, taxInclusive: '125.01', payable: '125.01' } }).map((f) => [f.title, f.impactAmount]),
    ).toEqual([['Total including VAT does not add up', '0.01']]);
    expect(run({ totals: { ...totals, payable: '130.00' } }).map((f) => [f.title, f.impactAmount])).toEqual([
      ['Amount due does not add up', '5.00'],
    ]);
    expect(run({ totals: { ...totals, prepaid: '25.00' } }).map((f) => [f.title, f.impactAmount])).toEqual([
      ['Amount due does not add up', '25.00'],
    ]);
  });

  it('checks allowance and charge totals against the document entries', () => {
    const allowanceCharges = [
      { isCharge: false, amount: '10.00', baseAmount: null, reason: 'Discount', reasonCode: null },
    ];
    // The allowance total takes off only 5 of the 10 allowed: the buyer pays 5 more.
    const findings = run({
      allowanceCharges,
      totals: {
        ...totals,
        allowanceTotal: '5.00',
        taxExclusive: '95.00',
        vatTotal: '23.75',
        taxInclusive: '118.75',
        payable: '118.75',
      },
    });
    expect(findings.map((f) => [f.title, f.impactAmount])).toEqual([
      ['Document allowances do not add up to the allowance total', '5.00'],
    ]);
    const charges = [{ isCharge: true, amount: '10.00', baseAmount: null, reason: 'Freight', reasonCode: null }];
    const chargeFindings = run({
      allowanceCharges: charges,
      totals: {
        ...totals,
        chargeTotal: '12.00',
        taxExclusive: '112.00',
        vatTotal: '28.00',
        taxInclusive: '140.00',
        payable: '140.00',
      },
    });
    expect(chargeFindings.map((f) => [f.title, f.impactAmount])).toEqual([
      ['Document charges do not add up to the charge total', '2.00'],
    ]);
  });

  it('computes the total excluding VAT from the lines when the line total is not stated', () => {
    expect(run({ totals: { ...totals, lineExtension: null } })).toEqual([]);
    expect(
      run({ totals: { ...totals, lineExtension: null, taxExclusive: '101.00', vatTotal: '24.00' } })[0]!.impactAmount,
    ).toBe('1.00');
  });

  it('skips rules whose figures are missing, and tolerates sub-cent differences', () => {
    expect(
      run({
        totals: {
          lineExtension: null,
          allowanceTotal: null,
          chargeTotal: null,
          taxExclusive: null,
          vatTotal: null,
          taxInclusive: null,
          prepaid: null,
          payableRounding: null,
          payable: null,
        },
      }),
    ).toEqual([]);
    expect(run({ totals: { ...totals, taxInclusive: '125.004', payable: '125.004' } })).toEqual([]);
  });

  it('quotes the stated totals', () => {
    const [finding] = run({ totals: { ...totals, payable: '130.00' } });
    expect(finding!.explanation).toBe(
      'The invoice states an amount due of 130.00 [1], but total including VAT 125.00 - prepaid 0.00 + rounding 0.00 = 125.00 (difference +5.00).',
    );
    expect(finding!.citations[0]!.citation.quote).toBe(
      'Invoice 1001 (NOK): line total 100.00, total excl. VAT 100.00, VAT 25.00, total incl. VAT 125.00, amount due 130.00',
    );
  });
});
