import { describe, expect, it } from 'vitest';
import { expectSampleValues, parseInvoiceSample } from './samples.js';
import { FINVOICE_SAMPLES } from '../../../fixtures/sample-expectations.js';

/** README values, with Finvoice's decimal comma turned into a dot ("1116,00" → "1116.00"). */

describe('Finvoice 3.0 samples', () => {
  it.each(FINVOICE_SAMPLES)('$file', async (expected) => {
    await expectSampleValues(expected);
  });

  it('reads decimal-comma amounts, VAT rates, header charges and row discounts', async () => {
    const { invoice } = await parseInvoiceSample('finvoice3/gobl-invoice.xml');
    expect(invoice.vatBreakdown).toEqual([
      { category: 'S', vatPercent: '25.5', taxableAmount: '822.00', taxAmount: '209.61' },
      { category: 'S', vatPercent: '13.5', taxableAmount: '50.00', taxAmount: '6.75' },
    ]);
    expect(invoice.allowanceCharges).toEqual([
      {
        isCharge: true,
        amount: '12.00',
        baseAmount: null,
        reason: 'Toimitus',
        reasonCode: 'DL',
        vatCategory: 'S',
        vatPercent: '25.5',
      },
    ]);
    expect(invoice.lines[0]).toMatchObject({
      id: '1',
      description: 'Konsultointi',
      quantity: '10',
      unitCode: 'HUR',
      unitPrice: '90.00',
      netAmount: '810.00',
      vatCategory: 'S',
      vatPercent: '25.5',
      allowanceCharges: [{ isCharge: false, amount: '90.00', reason: 'Sopimusalennus' }],
    });
    expect(invoice).toMatchObject({
      dueDate: '2026-09-15',
      orderReference: 'PO-2026-77',
      buyerReference: 'PROJ-42',
      notes: ['Kiitos tilauksestanne.'],
      totals: { lineExtension: '860.00', chargeTotal: '12.00', taxExclusive: '872.00', vatTotal: '216.36' },
      supplier: { orgNumber: '2345678-0', vatId: 'FI23456780', countryCode: 'FI' },
      recipient: {
        name: 'Ostaja Oy',
        address: { lines: ['Testitie 2', '3. kerros'], city: 'Espoo', postalCode: '02100' },
      },
    });
  });

  it('reads the credited invoice of a credit note', async () => {
    const { invoice } = await parseInvoiceSample('finvoice3/gobl-credit-note.xml');
    expect(invoice.creditedInvoiceReference).toBe('2026-1001');
    expect(invoice.lines[0]?.quantity).toBe('-2');
  });

  it('reads a reverse-charge row with discount, progressive discount and charge', async () => {
    const { invoice } = await parseInvoiceSample('finvoice3/gobl-reverse-charge.xml');
    expect(invoice.lines[0]?.vatCategory).toBe('AE');
    expect(invoice.lines[0]?.vatPercent).toBeNull();
    expect(invoice.lines[0]?.allowanceCharges.map((entry) => [entry.isCharge, entry.amount])).toEqual([
      [false, '30.00'],
      [false, '10.00'],
      [true, '15.00'],
    ]);
    expect(invoice.totals.prepaid).toBe('100.00');
    expect(invoice.recipient.countryCode).toBe('DE');
  });

  it('cuts the Finvoice out of a SOAP envelope and decodes ISO-8859-15', async () => {
    const { invoice, warnings } = await parseInvoiceSample('finvoice3/gobl-soap-framed.xml');
    expect(warnings).toContain('The Finvoice document was read from behind a SOAP envelope in the same file.');
    expect(invoice.lines.map((line) => line.description)).toEqual(['Konsultointi', 'Hoitokäynti']);
  });

  it('keeps free-text rows as lines and warns about amounts in another currency', async () => {
    const { invoice, warnings } = await parseInvoiceSample(
      'finvoice3/maventa-anon_finvoice_30_invoice_with_MessageTransmissionDetails.xml',
    );
    expect(invoice.lines.filter((line) => line.netAmount !== null)).toHaveLength(1);
    expect(invoice.lines[1]?.description).toBe('RowFreeText');
    expect(invoice.totals.prepaid).toBe('10.00');
    expect(warnings).toContain('A discount amount is in NOK, not the invoice currency EUR.');
  });
});
