// Text-layer PDF invoices of no known template, over the real stack: read with every line
// across pages, checked against the agreement like any e-invoice, and a reading that does not
// add up is kept and marked for review (docs/invoice-parsing.md, "The layout reader").
import { randomUUID } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { rematch, settledRun } from '../support/checks.js';
import { ingestionUpload, settledIngestionInvoice } from '../support/invoices.js';
import {
  FORTY_LINES_AGREED_PRICE,
  FORTY_LINES_OVERCHARGED_LINE,
  fortyLines,
  pdfInvoice,
  type PdfInvoice,
  type PdfInvoiceLine,
} from '../support/pdf-invoices.js';
import { createTenant, type Tenant } from '../support/tenants.js';

const AGREED_PRICE = FORTY_LINES_AGREED_PRICE;
const OVERCHARGED_LINE = FORTY_LINES_OVERCHARGED_LINE;

function invoiceOf(lines: PdfInvoiceLine[], overrides: Partial<PdfInvoice> = {}): PdfInvoice {
  const net = lines.reduce((total, line) => total.plus(line.amount), new Decimal(0));
  const vat = net.times('0.25');
  return {
    supplier: `Kabelverket ${randomUUID().slice(0, 6)} AS`,
    orgNumber: '912 345 678',
    vatId: 'NO912345678MVA',
    buyer: 'Vestland Bygg AS',
    number: `PDF-${randomUUID().slice(0, 8)}`,
    issueDate: '2025-03-14',
    dueDate: '2025-04-13',
    currency: 'EUR',
    lines,
    net: net.toFixed(2),
    vat: vat.toFixed(2),
    gross: net.plus(vat).toFixed(2),
    ...overrides,
  };
}

async function uploadedPdf(tenant: Tenant, bytes: Buffer) {
  const upload = await ingestionUpload(tenant.ingestionToken, 'invoice.pdf', bytes);
  expect(upload.status, JSON.stringify(upload.body)).toBe(201);
  await settledIngestionInvoice(tenant.ingestionToken, upload.body.invoice_id);
  return (await tenant.call(`/v1/invoices/${upload.body.invoice_id}`)).body;
}

describe('text-layer PDF invoices without templates', () => {
  it('imports a 40-line invoice over two pages with every line, and the overcharged line gives its alert', async () => {
    const tenant = await createTenant();
    const printed = invoiceOf(fortyLines());
    const invoice = await uploadedPdf(tenant, await pdfInvoice(printed));

    expect(invoice).toMatchObject({
      format: 'pdf_text',
      invoice_number: printed.number,
      issue_date: '2025-03-14',
      due_date: '2025-04-13',
      amounts: { currency_code: 'EUR', excluding_vat: printed.net, vat: printed.vat, including_vat: printed.gross },
      extraction: { method: 'pdf_text', needs_review: false, review_reasons: [] },
    });
    expect(invoice.supplier.invoiced_as?.name ?? invoice.supplier.name).toContain('Kabelverket');
    expect(invoice.line_items).toHaveLength(40);
    expect(invoice.line_items.map((line: { seller_item_id: string }) => line.seller_item_id)).toEqual(
      printed.lines.map((line) => line.item),
    );
    expect(invoice.line_items[OVERCHARGED_LINE - 1]).toMatchObject({
      description: `Cable assembly type ${OVERCHARGED_LINE}`,
    });
    expect(new Decimal(invoice.line_items[OVERCHARGED_LINE - 1].unit_price).equals(12)).toBe(true);
    expect(invoice.extraction.confidence.lines).toBe(1);

    const agreement = await tenant.call('/v1/agreements', {
      method: 'POST',
      body: {
        title: 'Cables 2025',
        status: 'active',
        effective_date: '2025-01-01',
        expiration_date: '2025-12-31',
        supplier_ids: [invoice.supplier.id],
      },
    });
    expect(agreement.status, JSON.stringify(agreement.body)).toBe(201);
    const items = await tenant.call(`/v1/agreements/${agreement.body.id}/price-items`, {
      method: 'POST',
      body: {
        entries: printed.lines.map((line) => ({
          description: line.description,
          seller_item_id: line.item,
          unit: 'pcs',
          currency_code: 'EUR',
          price: { type: 'amount', amount: AGREED_PRICE },
        })),
      },
    });
    expect(items.status, JSON.stringify(items.body)).toBe(201);
    await rematch(tenant, agreement.body.id);

    const started = await tenant.call(`/v1/invoices/${invoice.id}/check`, { method: 'POST', body: {} });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect((await settledRun(tenant, started.body.workflow_run_id)).status).toBe('completed');

    const alerts = (await tenant.call(`/v1/alerts?invoice_ids=${invoice.id}`)).body.data;
    const overcharged = invoice.line_items[OVERCHARGED_LINE - 1].id;
    const priceAlerts = alerts.filter(
      (alert: { invoice_item_id: string | null; impact_amount: string }) =>
        alert.invoice_item_id !== null && new Decimal(alert.impact_amount).gt(0),
    );
    // Line 7 bills 2 pcs at 12.00 against 10.00 agreed: 4.00 too much, and no other line is flagged.
    expect(priceAlerts.map((alert: { invoice_item_id: string }) => alert.invoice_item_id)).toEqual([overcharged]);
    expect(priceAlerts[0].impact_amount).toBe('4.00');
  });

  it('keeps an invoice that does not add up and marks it for review', async () => {
    const tenant = await createTenant();
    const lines = fortyLines().slice(0, 5);
    // The printed total is 50.00 short of the lines: a misprint, or a misreading; either way a person should look.
    const printed = invoiceOf(lines);
    const wrong = {
      ...printed,
      net: new Decimal(printed.net).minus(50).toFixed(2),
      vat: new Decimal(printed.net).minus(50).times('0.25').toFixed(2),
    };
    wrong.gross = new Decimal(wrong.net).plus(wrong.vat).toFixed(2);
    const invoice = await uploadedPdf(tenant, await pdfInvoice(wrong));

    expect(invoice.processing.status).toBe('completed');
    expect(invoice.line_items).toHaveLength(5);
    expect(invoice.extraction).toMatchObject({ method: 'pdf_text', needs_review: true });
    expect(invoice.extraction.review_reasons.join(' ')).toMatch(/lines add up to/);
    expect(invoice.extraction.confidence.lines).toBeLessThan(1);
  });
});
