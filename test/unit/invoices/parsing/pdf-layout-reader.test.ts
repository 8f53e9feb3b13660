import { describe, expect, it } from 'vitest';
import { buildPdf } from './pdf-builder.js';
import { parseChecked, parseInvoiceSample, sampleBytes } from './samples.js';

/** A PDF of these lines, one under the other, read as an upload is. */
const readInvoiceFromText = (lines: string[]) => parseChecked(buildPdf({ lines }));

describe('plain PDF invoices read from their text layer', () => {
  it('Hetzner: number, dates, supplier, net / VAT / gross as printed', async () => {
    const { invoice, format, warnings } = await parseInvoiceSample(
      'pdf-plain/corpus-Hetzner_2016-01-19_R0005532486.pdf',
    );
    expect(format).toBe('pdf_text');
    expect(invoice).toMatchObject({
      documentType: 'invoice',
      invoiceNumber: 'R0005532486',
      issueDate: '2016-01-19',
      dueDate: '2016-01-22',
      currencyCode: 'EUR',
      supplier: { name: 'Hetzner Online GmbH' },
      totals: {
        lineExtension: '87.40',
        taxExclusive: '87.39',
        vatTotal: '16.61',
        taxInclusive: '104.00',
        payable: '104.00',
      },
      vatBreakdown: [{ category: null, vatPercent: '19', taxableAmount: '87.39', taxAmount: '16.61' }],
      extraction: { method: 'pdf_text', linesReliable: true, needsReview: false, missing: [] },
    });
    // Eight server and IP lines, each quantity × price = amount, summing to the net total (87.40: rounded lines).
    expect(invoice.lines).toHaveLength(8);
    expect(invoice.lines[0]).toMatchObject({ quantity: '1', unitPrice: '41.1765', netAmount: '41.18' });
    expect(invoice.extraction.confidence?.lines).toBe(1);
    expect(warnings[0]).toMatch(/PDF text layer/);
  });

  it.each([
    ['pdf-plain/mustang-RE-20170509_505blanko.pdf', 'RE-20170509/505', '2017-05-09', '2017-05-30'],
    ['pdf-plain/mustang-RE-20201121_508blanko.pdf', 'RE-20201121/508', '2020-11-21', '2020-12-12'],
  ])('Mustang blanko %s: totals and the verified VAT breakdown', async (file, number, issueDate, dueDate) => {
    const { invoice } = await parseInvoiceSample(file);
    expect(invoice).toMatchObject({
      invoiceNumber: number,
      issueDate,
      dueDate,
      currencyCode: 'EUR',
      supplier: { name: 'Bei Spiel GmbH' },
      totals: { taxExclusive: '496.00', vatTotal: '75.04', taxInclusive: '571.04', payable: '571.04' },
      vatBreakdown: [
        { category: null, vatPercent: '7', taxableAmount: '160.00', taxAmount: '11.20' },
        { category: null, vatPercent: '19', taxableAmount: '336.00', taxAmount: '63.84' },
      ],
      extraction: { method: 'pdf_text', needsReview: false, linesReliable: true },
    });
    // Three lines (quantity, product, VAT rate, price, amount), the description wrapped on 505.
    expect(invoice.lines.map((line) => [line.quantity, line.unitPrice, line.netAmount, line.vatPercent])).toEqual([
      ['1.00', '160.00', '160.00', '7'],
      ['400.00', '0.79', '316.00', '19'],
      [file.includes('505') ? '200.00' : '800.00', file.includes('505') ? '0.10' : '0.025', '20.00', '19'],
    ]);
  });
});

describe('text heuristics on generated PDFs', () => {
  it('reads a Norwegian invoice with space-grouped amounts', async () => {
    const bytes = buildPdf({
      lines: [
        'Nordlys Konsult AS • Storgata 1 • 0155 Oslo',
        'Faktura',
        'Fakturanummer: 2024-118',
        'Fakturadato: 05.03.2024',
        'Forfallsdato: 19.03.2024',
        'Sum eks. mva 1 000,00',
        'Mva 25 % 250,00',
        'Å betale NOK 1 250,00',
      ],
    });
    const outcome = await parseChecked(bytes);
    expect(outcome).toMatchObject({
      kind: 'invoice',
      format: 'pdf_text',
      invoice: {
        invoiceNumber: '2024-118',
        issueDate: '2024-03-05',
        dueDate: '2024-03-19',
        currencyCode: 'NOK',
        supplier: { name: 'Nordlys Konsult AS' },
        totals: { taxExclusive: '1000.00', vatTotal: '250.00', taxInclusive: '1250.00', payable: '1250.00' },
      },
    });
  });

  it('reads a French credit note ("Avoir") with negative amounts', async () => {
    const bytes = buildPdf({
      lines: [
        'Au bon pain SARL - 1 rue de la Paix - 75001 Paris',
        'Avoir N° AV-2024-7',
        'Date de facture : 12/02/2024',
        "Date d'échéance : 12/03/2024",
        'Total HT -200,00 €',
        'TVA 20 % -40,00 €',
        'Total TTC -240,00 €',
      ],
    });
    const outcome = await parseChecked(bytes);
    expect(outcome).toMatchObject({
      kind: 'invoice',
      invoice: {
        documentType: 'credit_note',
        invoiceNumber: 'AV-2024-7',
        issueDate: '2024-02-12',
        dueDate: '2024-03-12',
        currencyCode: 'EUR',
        supplier: { name: 'Au bon pain SARL' },
        totals: { taxExclusive: '-200.00', vatTotal: '-40.00', taxInclusive: '-240.00' },
      },
    });
  });

  it('reads an English invoice with comma-grouped amounts and a labelled supplier', async () => {
    const bytes = buildPdf({
      lines: [
        'Supplier: Acme Widgets Ltd',
        'Invoice No. INV-0042',
        'Invoice date: 2024-01-31',
        'Due date: 29/02/2024',
        'Net total 1,000.00',
        'VAT total 200.00',
        'Total due GBP 1,200.00',
      ],
    });
    const outcome = await parseChecked(bytes);
    expect(outcome).toMatchObject({
      kind: 'invoice',
      invoice: {
        invoiceNumber: 'INV-0042',
        issueDate: '2024-01-31',
        dueDate: '2024-02-29',
        currencyCode: 'GBP',
        supplier: { name: 'Acme Widgets Ltd' },
        totals: { taxExclusive: '1000.00', vatTotal: '200.00', taxInclusive: '1200.00', payable: '1200.00' },
      },
    });
  });

  it('warns when printed totals do not add up', async () => {
    const outcome = await readInvoiceFromText([
      'Rechnungsnummer: 77',
      'Netto 100,00 €',
      'USt. gesamt 19,00 €',
      'Brutto 120,00 €',
    ]);
    expect(outcome.kind).toBe('invoice');
    if (outcome.kind === 'invoice') expect(outcome.warnings.join('\n')).toContain('do not add up');
  });

  it('does not take an amount due as the gross total when net + VAT contradict it', async () => {
    const outcome = await readInvoiceFromText([
      'Invoice number: 5',
      'Net total 100.00',
      'VAT total 20.00',
      'Amount due 70.00',
    ]);
    // The gross is net + VAT, computed and so less certain; the amount due stays as printed.
    expect(outcome).toMatchObject({
      kind: 'invoice',
      invoice: { totals: { taxInclusive: '120.00', payable: '70.00' } },
    });
    if (outcome.kind === 'invoice')
      expect(outcome.invoice.extraction.confidence?.fields['totals.taxInclusive']).toBeLessThanOrEqual(0.6);
  });

  it('ignores dates and amounts that only look like labelled values', async () => {
    const outcome = await readInvoiceFromText(['Rechnung vom 19.01.2016', 'Gesamtbetrag', 'Menge Preis Gesamtbetrag']);
    expect(outcome.kind).toBe('not_invoice');
  });

  it('needs both an invoice number and a total', async () => {
    expect(await readInvoiceFromText(['Invoice number: 12345'])).toMatchObject({
      kind: 'not_invoice',
      reason: expect.stringContaining('no invoice total'),
    });
    expect(await readInvoiceFromText(['Total 12.00'])).toMatchObject({
      kind: 'not_invoice',
      reason: expect.stringContaining('no invoice number'),
    });
  });

  it('fails a PDF without a text layer with no_text_layer', async () => {
    const outcome = await parseChecked(buildPdf({ drawing: '0 0 1 rg 50 50 200 200 re f' }));
    expect(outcome).toMatchObject({ kind: 'failed', code: 'no_text_layer' });
  });
});

describe('embedded files in generated PDFs', () => {
  it('prefers an embedded UBL invoice over the text layer', async () => {
    const ubl = new TextDecoder().decode(sampleBytes('peppol-bis3/peppol-base-example.xml'));
    const bytes = buildPdf({
      lines: ['Invoice number: WRONG-1', 'Total 1.00'],
      attachments: [{ name: 'invoice.xml', content: ubl }],
    });
    const outcome = await parseChecked(bytes);
    expect(outcome).toMatchObject({ kind: 'invoice', format: 'peppol_bis_3', invoice: { invoiceNumber: 'Snippet1' } });
  });

  it('falls back to the text layer with a warning when the embedded XML is broken', async () => {
    const bytes = buildPdf({
      lines: ['Rechnungsnummer: 4711', 'Brutto 119,00 €'],
      attachments: [
        { name: 'factur-x.xml', content: '<rsm:CrossIndustryInvoice><unclosed>' },
        { name: 'notes.txt', content: 'not xml' },
      ],
    });
    const outcome = await parseChecked(bytes);
    expect(outcome).toMatchObject({
      kind: 'invoice',
      format: 'pdf_text',
      invoice: { invoiceNumber: '4711', totals: { taxInclusive: '119.00' } },
    });
    if (outcome.kind === 'invoice')
      expect(outcome.warnings.join('\n')).toContain('factur-x.xml could not be read (malformed_xml');
  });

  it('reads a ZUGFeRD 1.0 attachment name in any letter case', async () => {
    const cii =
      '<?xml version="1.0"?><rsm:CrossIndustryInvoice xmlns:rsm="urn:x" xmlns:ram="urn:y"><rsm:ExchangedDocument><ram:ID>Z-1</ram:ID><ram:TypeCode>380</ram:TypeCode></rsm:ExchangedDocument></rsm:CrossIndustryInvoice>';
    const outcome = await parseChecked(
      buildPdf({ lines: ['x'], attachments: [{ name: 'ZUGFeRD-invoice.xml', content: cii }] }),
    );
    expect(outcome).toMatchObject({ kind: 'invoice', format: 'cii', invoice: { invoiceNumber: 'Z-1' } });
  });
});
