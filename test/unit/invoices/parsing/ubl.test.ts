import { describe, expect, it } from 'vitest';
import { expectSampleValues, parseInvoiceSample, type ExpectedSample } from './samples.js';

const peppol = (row: Omit<ExpectedSample, 'format'>): ExpectedSample => ({ format: 'peppol_bis_3', ...row });
const ehf = (row: Omit<ExpectedSample, 'format'>): ExpectedSample => ({ format: 'ehf_2', ...row });

/** Values from the samples README table. */
const PEPPOL_SAMPLES: ExpectedSample[] = [
  peppol({ file: 'peppol-bis3/peppol-base-example.xml', documentType: 'invoice', typeCode: '380', currency: 'EUR', number: 'Snippet1', issueDate: '2017-11-13', supplier: 'SupplierTradingName Ltd.', taxInclusive: '1656.25', payable: '1656.25', lines: 2 }),
  peppol({ file: 'peppol-bis3/peppol-base-creditnote-correction.xml', documentType: 'credit_note', typeCode: '381', currency: 'EUR', number: 'Snippet1', issueDate: '2017-11-13', supplier: 'SupplierTradingName Ltd.', taxInclusive: '1656.25', payable: '1656.25', lines: 2 }),
  peppol({ file: 'peppol-bis3/peppol-base-negative-inv-correction.xml', documentType: 'invoice', typeCode: '380', currency: 'EUR', number: 'Correction1', issueDate: '2017-11-13', supplier: 'SupplierTradingName Ltd.', taxInclusive: '-1656.25', payable: '-1656.25', lines: 2 }),
  peppol({ file: 'peppol-bis3/peppol-allowance-example.xml', documentType: 'invoice', typeCode: '380', currency: 'EUR', taxCurrency: 'SEK', number: 'Snippet1', issueDate: '2017-11-13', supplier: 'SupplierTradingName Ltd.', taxInclusive: '7125', payable: '6125.00', lines: 3 }),
  peppol({ file: 'peppol-bis3/peppol-vat-category-S.xml', documentType: 'invoice', typeCode: '380', currency: 'EUR', number: 'Snippet1', issueDate: '2017-11-13', supplier: 'SupplierTradingName Ltd.', taxInclusive: '8550', payable: '8550', lines: 3 }),
  peppol({ file: 'peppol-bis3/peppol-vat-category-E.xml', documentType: 'invoice', typeCode: '380', currency: 'GBP', number: 'Vat-Z', issueDate: '2018-08-30', supplier: 'The Sellercompany Incorporated', taxInclusive: '1200.00', payable: '1200.00', lines: 1 }),
  peppol({ file: 'peppol-bis3/peppol-vat-category-O.xml', documentType: 'invoice', typeCode: '380', currency: 'SEK', number: 'Vat-O', issueDate: '2018-08-30', supplier: 'The Sellercompany Incorporated', taxInclusive: '3200.00', payable: '3200.00', lines: 1 }),
  peppol({ file: 'peppol-bis3/peppol-vat-category-Z.xml', documentType: 'invoice', typeCode: '380', currency: 'GBP', number: 'Vat-Z', issueDate: '2018-08-30', supplier: 'The Sellercompany Incorporated', taxInclusive: '1200.00', payable: '1200.00', lines: 1 }),
  peppol({ file: 'peppol-bis3/peppol-norwegian-example-1.xml', documentType: 'invoice', typeCode: '380', currency: 'NOK', number: 'TOSL108', issueDate: '2013-06-30', supplier: 'Salescompany ltd.', taxInclusive: '1801.78', payable: '802.00', lines: 5 }),
  peppol({ file: 'peppol-bis3/peppol-GR-base-example-correct.xml', documentType: 'invoice', typeCode: '380', currency: 'EUR', number: '061828591|01/10/2020|0|1.1|0|1', issueDate: '2020-10-01', supplier: 'SupplierTradingName Ltd.', taxInclusive: '1656.25', payable: '1656.25', lines: 2 }),
  peppol({ file: 'peppol-bis3/peppol-snippet-cn.xml', documentType: 'credit_note', typeCode: '381', currency: 'EUR', taxCurrency: 'SEK', number: 'Snippet1', issueDate: '2017-11-13', supplier: 'SupplierTradingName Ltd.', taxInclusive: '5000', payable: '4000', lines: 1 }),
  peppol({ file: 'peppol-bis3/maventa-anon_peppol_bis_30_invoice.xml', documentType: 'invoice', typeCode: '380', currency: 'NOK', taxCurrency: 'SEK', number: 'ID', issueDate: '2018-01-17', supplier: 'Name', taxInclusive: '240.00', payable: '230.00', lines: 2 }),
];

const EHF_SAMPLES: ExpectedSample[] = [
  ehf({ file: 'ehf2/ehf2-T10-BII05-gyldig-faktura.xml', documentType: 'invoice', typeCode: '380', currency: 'NOK', number: 'TOSL108', issueDate: '2013-06-30', supplier: 'Salescompany ltd.', taxInclusive: '1802.00', payable: '802.00', lines: 5 }),
  ehf({ file: 'ehf2/ehf2-T14-BII05-gyldig-kreditnota.xml', documentType: 'credit_note', typeCode: null, currency: 'NOK', number: 'Kred-234567', issueDate: '2013-06-30', supplier: 'Salescompany ASA', taxInclusive: '1471.00', payable: '1471.00', lines: 2 }),
  ehf({ file: 'ehf2/ehf2-T10-Valuta-EUR.xml', documentType: 'invoice', typeCode: '380', currency: 'EUR', taxCurrency: 'NOK', number: '1001776522', issueDate: '2013-05-08', supplier: 'Leverendøren ASA', taxInclusive: '1250.00', payable: '1250.00', lines: 1 }),
  ehf({ file: 'ehf2/ehf2-T14-Valuta-EUR.xml', documentType: 'credit_note', typeCode: null, currency: 'EUR', taxCurrency: 'NOK', number: '1001776522', issueDate: '2013-10-15', supplier: 'Leverandøren ASA', taxInclusive: '1250.00', payable: '1250.00', lines: 1 }),
  ehf({ file: 'ehf2/ehf2-T10-avrunding-1.xml', documentType: 'invoice', typeCode: '380', currency: 'NOK', number: '32', issueDate: '2012-07-24', supplier: 'IntegrasjonsPartner testkunde', taxInclusive: '30745.47', payable: '30745.47', lines: 20 }),
  ehf({ file: 'ehf2/ehf2-T14-avrunding-1.xml', documentType: 'credit_note', typeCode: null, currency: 'NOK', number: '32', issueDate: '2012-07-24', supplier: 'IntegrasjonsPartner testkunde', taxInclusive: '30745.47', payable: '30745.47', lines: 20 }),
  ehf({ file: 'ehf2/ehf2-T10-avrunding-3.xml', documentType: 'invoice', typeCode: '380', currency: 'NOK', number: '32', issueDate: '2012-07-24', supplier: 'IntegrasjonsPartner testkunde', taxInclusive: '4552.95', payable: '4452.95', lines: 3 }),
  ehf({ file: 'ehf2/ehf2-T14-avrunding-3.xml', documentType: 'credit_note', typeCode: null, currency: 'NOK', number: '32', issueDate: '2012-07-24', supplier: 'IntegrasjonsPartner testkunde', taxInclusive: '4445.00', payable: '4445.00', lines: 2 }),
  ehf({ file: 'ehf2/ehf2-T10-B2C.xml', documentType: 'invoice', typeCode: '380', currency: 'NOK', number: '1001776522', issueDate: '2013-05-08', supplier: 'Kraftleverandøren ASA', taxInclusive: '1116.38', payable: '1116.38', lines: 2 }),
  ehf({ file: 'ehf2/ehf2-T14_B2C.xml', documentType: 'credit_note', typeCode: null, currency: 'NOK', number: 'Kred_12345', issueDate: '2015-08-21', supplier: 'Leverandøren AS', taxInclusive: '125.00', payable: '125.00', lines: 1 }),
  ehf({ file: 'ehf2/ehf2-T10-negativ-faktura.xml', documentType: 'invoice', typeCode: '380', currency: 'NOK', number: '12345', issueDate: '2012-11-21', supplier: 'Bedriften A/S', taxInclusive: '-125.00', payable: '-125.00', lines: 1 }),
  ehf({ file: 'ehf2/ehf2-T10-G2G-2.0.8.xml', documentType: 'invoice', typeCode: 'Z02', currency: 'NOK', number: 'TOSL108', issueDate: '2016-01-01', supplier: 'Kari Igloskaper', taxInclusive: '5000.00', payable: '5000.00', lines: 1 }),
  ehf({ file: 'ehf2/ehf2-T10-hode-ok.xml', documentType: 'invoice', typeCode: '380', currency: 'NOK', number: '12345', issueDate: '2012-11-21', supplier: 'Bedriften A/S', taxInclusive: '125.00', payable: '125.00', lines: 1 }),
  ehf({ file: 'ehf2/maventa-anon_ehf_20_invoice.xml', documentType: 'invoice', typeCode: '380', currency: 'NOK', number: 'ID', issueDate: '2014-01-01', supplier: 'Name', taxInclusive: '124.75', payable: '115.00', lines: 1 }),
];

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
      totals: { lineExtension: '1300', taxExclusive: '1325', chargeTotal: '25', vatTotal: '331.25', allowanceTotal: null },
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
