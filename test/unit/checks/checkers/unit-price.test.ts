import { describe, expect, it } from 'vitest';
import { exchangeRateMissingChecker, runCheckers, unitPriceChecker } from '../../../../src/checks/checkers/index.js';
import { input, line, priceItem, rateTable } from './fixtures.js';

const run = (overrides: Parameters<typeof input>[0]) => unitPriceChecker.run(input(overrides));
const oneLine = (overrides: Parameters<typeof line>[0]) => ({ lines: [line(overrides)] });

describe('unit price above the agreed price', () => {
  it('finds nothing at the agreed price or below it', () => {
    expect(run({})).toEqual([]);
    expect(run({ invoice: oneLine({ unitPrice: '9.99', netAmount: '99.90' }) })).toEqual([]);
  });

  it('reports (charged - agreed) * quantity, certain for the same article number, currency and unit', () => {
    const [finding, ...rest] = run({ invoice: oneLine({ quantity: '4', unitPrice: '12.50', netAmount: '50.00' }) });
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      checker: 'unit_price_above_agreed',
      impactAmount: '10.00',
      confidence: 'certain',
      invoiceItemId: 'line-1',
      correctionType: 'modify_item',
      expected: [
        { description: 'Copy paper A4', unit: 'box', currency_code: 'NOK', price: { type: 'amount', amount: '10.00' } },
      ],
    });
    expect(finding!.explanation).toContain('charges 12.50 NOK per box [1]; the agreed price is 10.00 NOK per box [2]');
    expect(finding!.explanation).toContain('10.00 NOK');
    expect(finding!.citations).toEqual([
      {
        source_ref: 1,
        citation: {
          source: { source_type: 'invoice', document_id: null },
          quote: expect.stringContaining('Invoice 1001, line 1: Copy paper A4 (article P-100)'),
        },
      },
      {
        source_ref: 2,
        citation: {
          source: { source_type: 'agreement_prices', document_id: 'doc-prices', price_item_id: 'item-paper' },
          quote: 'Copy paper A4 (article P-100): 10.00 NOK per box',
        },
      },
    ]);
  });

  it('is exact where floats are not: 0.1 + 0.2 per unit', () => {
    const [finding] = run({
      invoice: oneLine({ quantity: '3', unitPrice: '0.3', netAmount: '0.90' }),
      agreement: { priceItems: [priceItem({ amount: '0.1' })] },
    });
    expect(finding!.impactAmount).toBe('0.60');
    const same = run({
      invoice: oneLine({ quantity: '3', unitPrice: '0.3', netAmount: '0.90' }),
      agreement: { priceItems: [priceItem({ amount: '0.30' })] },
    });
    expect(same).toEqual([]);
  });

  it('multiplies by decimal quantities and rounds half-up to the cent only at the end', () => {
    const hours = { unitCode: 'HUR', sellerItemId: 'CONSULT', description: 'Consulting' };
    const consulting = priceItem({
      id: 'consulting',
      sellerItemId: 'CONSULT',
      description: 'Consulting',
      unit: 'hour',
      amount: '1200',
    });
    const [finding] = run({
      invoice: oneLine({ ...hours, quantity: '2.5', unitPrice: '1234.565', netAmount: '3086.41' }),
      agreement: { priceItems: [consulting] },
    });
    // 34.565 * 2.5 = 86.4125
    expect(finding!.impactAmount).toBe('86.41');
    const [halfCent] = run({ invoice: oneLine({ quantity: '2', unitPrice: '10.0025', netAmount: '20.01' }) });
    // 0.0025 * 2 = 0.005, half-up
    expect(halfCent!.impactAmount).toBe('0.01');
    expect(run({ invoice: oneLine({ quantity: '2', unitPrice: '10.002', netAmount: '20.00' }) })).toEqual([]);
  });

  it('compares per unit through the price base quantity', () => {
    const pieces = priceItem({ unit: 'pcs', amount: '1.20' });
    const [finding] = run({
      invoice: oneLine({
        unitCode: 'C62',
        quantity: '1000',
        unitPrice: '125',
        priceBaseQuantity: '100',
        netAmount: '1250.00',
      }),
      agreement: { priceItems: [pieces] },
    });
    expect(finding!.impactAmount).toBe('50.00');
    expect(finding!.explanation).toContain('1.25 NOK per pcs (125 per 100)');
    expect(
      run({
        invoice: oneLine({
          unitCode: 'C62',
          quantity: '1000',
          unitPrice: '120',
          priceBaseQuantity: '100',
          netAmount: '1200.00',
        }),
        agreement: { priceItems: [pieces] },
      }),
    ).toEqual([]);
  });

  it('is less sure when matched by description, or when a unit is missing', () => {
    const byDescription = run({ invoice: oneLine({ sellerItemId: null, unitPrice: '11', netAmount: '110.00' }) });
    expect(byDescription[0]).toMatchObject({ confidence: 'high', impactAmount: '10.00' });
    const noUnit = run({
      invoice: oneLine({ sellerItemId: null, unitCode: null, unitPrice: '11', netAmount: '110.00' }),
    });
    expect(noUnit[0]!.confidence).toBe('medium');
    const noCurrency = run({
      invoice: oneLine({ unitPrice: '11', netAmount: '110.00' }),
      agreement: { priceItems: [priceItem({ currencyCode: null })] },
    });
    expect(noCurrency[0]!.confidence).toBe('high');
  });

  it('skips a price that ran out before the invoice date, and one in another unit', () => {
    expect(
      run({
        invoice: oneLine({ unitPrice: '11' }),
        agreement: { priceItems: [priceItem({ validUntil: '2026-02-28' })] },
      }),
    ).toEqual([]);
    expect(
      run({
        invoice: oneLine({ unitPrice: '11', netAmount: '110.00' }),
        agreement: { priceItems: [priceItem({ validUntil: '2026-03-01' })] },
      }),
    ).toHaveLength(1);
    expect(
      run({
        invoice: oneLine({ unitCode: 'C62', unitPrice: '11' }),
        agreement: { priceItems: [priceItem({ unit: 'box' })] },
      }),
    ).toEqual([]);
  });

  it('ignores lines without quantity or price, negative quantities and credit notes', () => {
    expect(run({ invoice: oneLine({ unitPrice: null }) })).toEqual([]);
    expect(run({ invoice: oneLine({ quantity: null, unitPrice: '11' }) })).toEqual([]);
    expect(run({ invoice: oneLine({ quantity: '-1', unitPrice: '11', netAmount: '-11.00' }) })).toEqual([]);
    expect(run({ invoice: { documentType: 'credit_note', lines: [line({ unitPrice: '11' })] } })).toEqual([]);
  });
});

describe('currency conversion of agreed prices', () => {
  const euroItem = priceItem({ currencyCode: 'EUR', amount: '1.00' });

  it("uses the invoice's own rate when the price is in its source currency (amount * rate)", () => {
    // Invoice in EUR, tax currency NOK; the price list is in NOK.
    const [finding] = run({
      invoice: {
        currencyCode: 'EUR',
        exchangeRate: { sourceCurrencyCode: 'EUR', targetCurrencyCode: 'NOK', rate: '11.5' },
        lines: [line({ quantity: '2', unitPrice: '10.50', netAmount: '21.00' })],
      },
      agreement: { priceItems: [priceItem({ currencyCode: 'NOK', amount: '115.00' })] },
    });
    expect(finding).toMatchObject({
      impactAmount: '1.00',
      confidence: 'high',
      expected: [{ currency_code: 'EUR', price: { type: 'amount', amount: '10.00' } }],
    });
    expect(finding!.explanation).toContain(
      "115.00 NOK per box [2], which is 10.00 EUR at the invoice's own exchange rate 1 EUR = 11.5 NOK [3]",
    );
    expect(finding!.citations[2]!.citation).toEqual({
      source: { source_type: 'invoice', document_id: null },
      quote: "The invoice's own exchange rate 1 EUR = 11.5 NOK",
    });
  });

  it("uses the invoice's own rate the other way round (amount / rate)", () => {
    // Invoice in NOK, stating 1 NOK = 0.08 EUR; the price is 1.00 EUR = 12.50 NOK.
    const [finding] = run({
      invoice: {
        exchangeRate: { sourceCurrencyCode: 'NOK', targetCurrencyCode: 'EUR', rate: '0.08' },
        lines: [line({ quantity: '10', unitPrice: '13.00', netAmount: '130.00' })],
      },
      agreement: { priceItems: [euroItem] },
    });
    expect(finding).toMatchObject({ impactAmount: '5.00', confidence: 'high' });
    expect(finding!.expected![0]!.price).toEqual({ type: 'amount', amount: '12.50' });
  });

  it('falls back to the central bank rate for the issue date, and says which', () => {
    const [finding] = run({
      invoice: oneLine({ quantity: '10', unitPrice: '12.00', netAmount: '120.00' }),
      agreement: { priceItems: [euroItem] },
      rates: rateTable({ 'EUR/NOK': '11.5' }),
    });
    expect(finding).toMatchObject({ impactAmount: '5.00', confidence: 'medium' });
    expect(finding!.explanation).toContain('the ECB rate 1 EUR = 11.5 NOK for 2026-03-01');
    expect(finding!.citations[2]!.citation.source.source_type).toBe('supplied_text');
  });

  it('asks for the inverse pair when only that is known', () => {
    const [finding] = run({
      invoice: oneLine({ quantity: '10', unitPrice: '13.00', netAmount: '130.00' }),
      agreement: { priceItems: [euroItem] },
      rates: rateTable({ 'NOK/EUR': '0.08' }),
    });
    expect(finding!.impactAmount).toBe('5.00');
    expect(finding!.explanation).toContain('1 NOK = 0.08 EUR');
  });

  it('names the day of an older rate', () => {
    const rates = () => ({ rate: '11.5', date: '2026-02-27', source: 'norges_bank' });
    const [finding] = run({
      invoice: oneLine({ quantity: '10', unitPrice: '12.00', netAmount: '120.00' }),
      agreement: { priceItems: [euroItem] },
      rates,
    });
    expect(finding!.explanation).toContain(
      'the Norges Bank rate 1 EUR = 11.5 NOK of 2026-02-27 (the latest for 2026-03-01)',
    );
  });

  it('does not call a converted price rounded to the cent an overcharge', () => {
    // 1.00 EUR * 11.4567 = 11.4567 NOK, charged 11.46
    expect(
      run({
        invoice: oneLine({ quantity: '1000', unitPrice: '11.46', netAmount: '11460.00' }),
        agreement: { priceItems: [euroItem] },
        rates: rateTable({ 'EUR/NOK': '11.4567' }),
      }),
    ).toEqual([]);
    const [above] = run({
      invoice: oneLine({ quantity: '1000', unitPrice: '11.47', netAmount: '11470.00' }),
      agreement: { priceItems: [euroItem] },
      rates: rateTable({ 'EUR/NOK': '11.4567' }),
    });
    expect(above!.impactAmount).toBe('13.30');
  });

  it('prefers the invoice rate over the central bank rate', () => {
    const [finding] = run({
      invoice: {
        exchangeRate: { sourceCurrencyCode: 'EUR', targetCurrencyCode: 'NOK', rate: '12' },
        lines: [line({ quantity: '10', unitPrice: '12.50', netAmount: '125.00' })],
      },
      agreement: { priceItems: [euroItem] },
      rates: rateTable({ 'EUR/NOK': '11' }),
    });
    expect(finding!.impactAmount).toBe('5.00');
  });
});

describe('exchange rate missing', () => {
  const euroItem = priceItem({ currencyCode: 'EUR', amount: '1.00' });

  it('is its own finding, with no impact guessed, and the price is not compared', () => {
    const checked = input({
      invoice: oneLine({ unitPrice: '99.00', netAmount: '990.00' }),
      agreement: { priceItems: [euroItem] },
    });
    expect(unitPriceChecker.run(checked)).toEqual([]);
    const [finding, ...rest] = exchangeRateMissingChecker.run(checked);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      checker: 'exchange_rate_missing',
      impactAmount: '0.00',
      confidence: 'low',
      invoiceItemId: 'line-1',
      expected: null,
      correctionType: 'modify_invoice',
    });
    expect(finding!.title).toBe('Exchange rate EUR to NOK missing');
    expect(finding!.explanation).toContain('no exchange rate from EUR to NOK for 2026-03-01');
  });

  it('groups the lines of one currency pair', () => {
    const lines = [line({ id: 'a', position: 0 }), line({ id: 'b', position: 1, lineNumber: '2' })];
    const findings = exchangeRateMissingChecker.run(
      input({ invoice: { lines }, agreement: { priceItems: [euroItem] } }),
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]!.invoiceItemId).toBeNull();
    expect(findings[0]!.citations).toHaveLength(3);
  });

  it('is raised when the invoice rate covers another pair, or the invoice has no date', () => {
    const otherPair = { sourceCurrencyCode: 'NOK', targetCurrencyCode: 'USD', rate: '0.1' };
    expect(
      exchangeRateMissingChecker.run(
        input({ invoice: { exchangeRate: otherPair }, agreement: { priceItems: [euroItem] } }),
      ),
    ).toHaveLength(1);
    const [undated] = exchangeRateMissingChecker.run(
      input({
        invoice: { issueDate: null },
        agreement: { priceItems: [euroItem] },
        rates: rateTable({ 'EUR/NOK': '11' }),
      }),
    );
    expect(undated!.explanation).toContain('has no issue date');
  });

  it('is not raised when a rate exists or the currencies agree', () => {
    expect(
      exchangeRateMissingChecker.run(
        input({ agreement: { priceItems: [euroItem] }, rates: rateTable({ 'EUR/NOK': '11' }) }),
      ),
    ).toEqual([]);
    expect(exchangeRateMissingChecker.run(input({}))).toEqual([]);
  });

  it('runs with the other checkers without a silent guess', () => {
    const findings = runCheckers(
      input({ invoice: oneLine({ unitPrice: '10.00' }), agreement: { priceItems: [euroItem] } }),
    );
    expect(findings.map((finding) => finding.checker)).toEqual(['exchange_rate_missing']);
  });
});
