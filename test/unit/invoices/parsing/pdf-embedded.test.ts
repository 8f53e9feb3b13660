import { describe, expect, it } from 'vitest';
import { expectSampleValues, parseInvoiceSample, parseSample } from './samples.js';
import { FACTUR_X_SAMPLES } from '../../../fixtures/sample-expectations.js';

describe('PDFs with embedded CII XML (Factur-X / ZUGFeRD)', () => {
  it.each(FACTUR_X_SAMPLES)('$file', async (expected) => {
    await expectSampleValues(expected);
  });

  it('reads CII allowances, charges, prepaid amount and VAT breakdown', async () => {
    const { invoice } = await parseInvoiceSample('pdf-facturx/corpus-EN16931_Rabatte.pdf');
    expect(invoice.allowanceCharges.map((entry) => [entry.isCharge, entry.amount, entry.vatPercent])).toEqual([
      [false, '1.00', '19.00'],
      [false, '13.73', '7.00'],
      [true, '5.80', '7.00'],
    ]);
    expect(invoice.totals).toMatchObject({
      lineExtension: '202.70',
      allowanceTotal: '14.73',
      chargeTotal: '5.80',
      prepaid: '50.00',
      vatTotal: '21.30',
    });
    expect(invoice.vatBreakdown).toEqual([
      { category: 'S', vatPercent: '7.00', taxableAmount: '129.37', taxAmount: '9.06' },
      { category: 'S', vatPercent: '19.00', taxableAmount: '64.40', taxAmount: '12.24' },
    ]);
    expect(invoice.lines[0]).toMatchObject({
      description: 'Kunstrasen grün 3m breit',
      quantity: '3.0000',
      unitCode: 'MTK',
      unitPrice: '3.3333',
      netAmount: '10.00',
    });
    expect(invoice.orderReference).toBe('2013-471331');
  });

  it('reads ZUGFeRD 1.0 container names and its ApplicablePercent', async () => {
    const { invoice } = await parseInvoiceSample('pdf-facturx/corpus-ZUGFeRD_1p0_BASIC_Einfach.pdf');
    expect(invoice.vatBreakdown).toEqual([
      { category: null, vatPercent: '19.00', taxableAmount: '198.00', taxAmount: '37.62' },
    ]);
    expect(invoice.lines[0]).toMatchObject({
      quantity: '20.0000',
      unitCode: 'C62',
      netAmount: '198.00',
      sellerItemId: 'TB100A4',
    });
    expect(invoice.supplier.vatId).toBe('DE123456789');
    expect(invoice.extraction.missing).toContain('totals.payable');
  });

  it('separates the VAT total in the tax currency and reads the exchange rate', async () => {
    const { invoice } = await parseInvoiceSample('pdf-facturx/mustang-EXTENDED_Fremdwaehrung_wdis_fx-pdfa4.pdf');
    expect(invoice.totals).toMatchObject({ vatTotal: '163.16', vatTotalInTaxCurrency: '183.14', prepaid: '500' });
    expect(invoice.exchangeRate).toEqual({ sourceCurrencyCode: 'GBP', targetCurrencyCode: 'EUR', rate: '1.12244' });
    expect(invoice.recipient.name).toBe('Metallbau Leipzig GmbH & Co. KG');
    expect(invoice.invoicePeriod).toEqual({ start: '2025-11-01', end: '2025-11-30' });
    expect(invoice.lines[0]?.allowanceCharges.map((entry) => entry.amount)).toEqual(['100', '50']);
  });

  it('reads a Factur-X credit note with its credited invoice', async () => {
    const { invoice } = await parseInvoiceSample('pdf-facturx/corpus-FNFE-Avoir_FR_type381_BASIC.pdf');
    expect(invoice.creditedInvoiceReference).toBe('FA-2017-0010');
    expect(invoice.vatBreakdown.map((entry) => entry.vatPercent)).toEqual(['20.00', '5.50']);
  });

  it('reads a BOM-prefixed factur-x.xml next to another embedded PDF', async () => {
    const { invoice } = await parseInvoiceSample('pdf-facturx/akretion-invoice_EN16931.pdf');
    expect(invoice.allowanceCharges.filter((entry) => !entry.isCharge)).toHaveLength(4);
    expect(invoice.allowanceCharges.filter((entry) => entry.isCharge)).toHaveLength(4);
    expect(invoice.totals).toMatchObject({ allowanceTotal: '9.00', chargeTotal: '14.00', payableRounding: '0.00' });
  });
});

describe('PDFs that are not invoices', () => {
  it('rejects an Order-X purchase order by its embedded XML', async () => {
    const outcome = await parseSample('pdf-not-invoice/mustang-ORDER-X_EX01_ORDER_FULL_DATA-COMFORT.pdf');
    expect(outcome).toEqual({ kind: 'not_invoice', reason: expect.stringContaining('Order-X') });
  });

  it('rejects software documentation that talks about invoices', async () => {
    const outcome = await parseSample('pdf-not-invoice/mustang-ZugferdDev.en.pdf');
    expect(outcome).toEqual({
      kind: 'not_invoice',
      reason: expect.stringContaining('no invoice total and no invoice lines'),
    });
  });
});

describe('input types', () => {
  it('accepts a Node Buffer as well as a plain Uint8Array', async () => {
    const { readFileSync } = await import('node:fs');
    const { parseInvoiceDocument } = await import('../../../../src/invoices/parsing/index.js');
    const { samplesRoot } = await import('./samples.js');
    const buffer = readFileSync(`${samplesRoot}/pdf-facturx/corpus-EN16931_Einfach.pdf`);
    const outcome = await parseInvoiceDocument({ bytes: buffer, fileName: 'a.pdf' });
    expect(outcome.kind).toBe('invoice');
  });
});
