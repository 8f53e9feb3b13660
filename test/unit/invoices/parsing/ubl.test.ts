import { describe, expect, it } from 'vitest';
import { expectSampleValues, parseInvoiceSample } from './samples.js';
import { PEPPOL_SAMPLES, EHF_SAMPLES } from '../../../fixtures/sample-expectations.js';

/** Values from the samples README table. */

describe('Peppol BIS Billing 3.0 samples', () => {
  it.each(PEPPOL_SAMPLES)('$file', async (expected) => {
    await expectSampleValues(expected);
  });

  it('reads parties, references, lines, allowances and the VAT breakdown of the base example', async () => {
    const { invoice, warnings } = await parseInvoiceSample('peppol-bis3/peppol-base-example.xml');
    expect(warnings).toEqual([]);
    expect(invoice.supplier).toEqual({
      name: 'SupplierTradingName Ltd.',
      legalName: 'SupplierOfficialName Ltd',
      orgNumber: 'GB983294',
      vatId: 'GB1232434',
      countryCode: 'GB',
      address: { lines: ['Main street 1', 'Postbox 123'], city: 'London', postalCode: 'GB 123 EW', countryCode: 'GB' },
    });
    expect(invoice.recipient.name).toBe('BuyerTradingName AS');
    expect(invoice.recipient.vatId).toBe('SE4598375937');
    expect(invoice).toMatchObject({
      dueDate: '2017-12-01',
      buyerReference: '0150abc',
      deliveryDate: '2017-11-01',
      deliveryCountryCode: 'SE',
      allowanceCharges: [{ isCharge: true, amount: '25', reason: 'Insurance', vatCategory: 'S', vatPercent: '25.0' }],
      vatBreakdown: [{ category: 'S', vatPercent: '25.0', taxableAmount: '1325', taxAmount: '331.25' }],
      totals: {
        lineExtension: '1300',
        taxExclusive: '1325',
        chargeTotal: '25',
        vatTotal: '331.25',
        allowanceTotal: null,
      },
    });
    expect(invoice.lines[1]).toMatchObject({
      id: '2',
      description: 'item name 2',
      standardItemId: '21382183120983',
      quantity: '-3',
      unitCode: 'DAY',
      unitPrice: '500',
      netAmount: '-1500',
      vatCategory: 'S',
      vatPercent: '25.0',
    });
  });

  it('keeps the document-currency VAT total apart from the tax-currency one', async () => {
    const { invoice } = await parseInvoiceSample('peppol-bis3/peppol-allowance-example.xml');
    expect(invoice.totals).toMatchObject({ vatTotal: '1225.00', prepaid: '1000' });
    expect(invoice.totals.vatTotalInTaxCurrency).toBe('9324.00');
    expect(invoice.vatBreakdown.map((entry) => entry.category)).toEqual(['S', 'E']);
  });

  it('reads credit note lines (CreditedQuantity) and the credited invoice', async () => {
    const { invoice } = await parseInvoiceSample('peppol-bis3/peppol-base-creditnote-correction.xml');
    expect(invoice.creditedInvoiceReference).toBe('Snippet1');
    expect(invoice.lines.map((line) => line.quantity)).toEqual(['7', '-3']);
  });

  it('warns when a credit note references several invoices', async () => {
    const { invoice, warnings } = await parseInvoiceSample('peppol-bis3/peppol-snippet-cn.xml');
    expect(invoice.creditedInvoiceReference).toBe('123');
    expect(warnings.join('\n')).toContain('123, 124');
    expect(invoice.invoicePeriod).toEqual({ start: '2017-11-01', end: '2017-12-31' });
    expect(invoice.orderReference).toBe('o-998877');
    expect(invoice.contractReference).toBe('framework no 1');
  });
});

describe('EHF 2.0 samples', () => {
  it.each(EHF_SAMPLES)('$file', async (expected) => {
    await expectSampleValues(expected);
  });

  it('takes a line VAT rate missing on the line from the VAT breakdown of its category', async () => {
    const { invoice } = await parseInvoiceSample('ehf2/ehf2-T14-BII05-gyldig-kreditnota.xml');
    expect(invoice.lines.map((line) => [line.vatCategory, line.vatPercent])).toEqual([
      ['S', '25'],
      ['H', '15'],
    ]);
    expect(invoice.supplier.legalName).toBe('The Sellercompany ASA');
    expect(invoice.creditedInvoiceReference).toBe('TOSL108');
    expect(invoice.totals.payableRounding).toBe('0.30');
  });

  it('reads the exchange rate to the tax currency', async () => {
    const { invoice } = await parseInvoiceSample('ehf2/ehf2-T10-Valuta-EUR.xml');
    expect(invoice.exchangeRate).toEqual({ sourceCurrencyCode: 'EUR', targetCurrencyCode: 'NOK', rate: '8.640' });
  });
});
