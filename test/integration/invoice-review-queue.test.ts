import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { importDocument, settledImport, uploadDocument } from '../support/invoices.js';
import { createTenant, type Tenant } from '../support/tenants.js';

// GET /v1/invoices?needs_review=true: the invoices whose reading is uncertain (the layout
// reader's extraction.needsReview: a PDF whose totals do not add up), for a person to work through.

async function invoicePdf(number: string, total: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 40 });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.font('Helvetica-Bold').fontSize(16).text('INVOICE', 40, 50);
  doc.font('Helvetica').fontSize(10);
  doc.text('Review Supplies Ltd', 40, 80);
  doc.text('VAT no. GB123456789', 40, 94);
  doc.text(`Invoice number: ${number}`, 350, 80);
  doc.text('Invoice date: 2026-01-15', 350, 94);
  doc.text('Due date: 2026-02-14', 350, 108);
  doc.text('Currency: GBP', 350, 122);
  const columns = [
    { x: 40, header: 'Description', align: 'left', width: 200 },
    { x: 260, header: 'Quantity', align: 'right', width: 60 },
    { x: 340, header: 'Unit price', align: 'right', width: 80 },
    { x: 440, header: 'Amount', align: 'right', width: 100 },
  ] as const;
  let y = 180;
  doc.font('Helvetica-Bold');
  for (const column of columns) doc.text(column.header, column.x, y, { width: column.width, align: column.align });
  doc.font('Helvetica');
  for (const row of [
    ['Paper A4', '2', '10.00', '20.00'],
    ['Stapler', '1', '5.00', '5.00'],
  ]) {
    y += 18;
    columns.forEach((column, index) =>
      doc.text(row[index]!, column.x, y, { width: column.width, align: column.align }),
    );
  }
  y += 40;
  for (const [label, value] of [
    ['Subtotal', '25.00'],
    ['VAT 20%', '5.00'],
    ['Total', total],
  ]) {
    doc.text(label!, 340, y, { width: 80, align: 'right' });
    doc.text(value!, 440, y, { width: 100, align: 'right' });
    y += 16;
  }
  doc.end();
  return done;
}

async function importPdf(tenant: Tenant, name: string, bytes: Buffer): Promise<string> {
  const documentId = await uploadDocument(tenant, name, bytes);
  const started = await importDocument(tenant, documentId);
  const settled = await settledImport(tenant, started.body.id);
  expect(settled).toMatchObject({ status: 'completed', outcome: 'imported' });
  return settled.invoice_id as string;
}

describe('the invoice review queue', () => {
  it('lists with needs_review=true the invoices whose reading does not add up, and with false the others', async () => {
    const tenant = await createTenant();
    const adds = await importPdf(tenant, 'adds-up.pdf', await invoicePdf('INV-7001', '30.00'));
    const doesNot = await importPdf(tenant, 'does-not-add-up.pdf', await invoicePdf('INV-7002', '45.00'));
    const queue = await tenant.call('/v1/invoices?needs_review=true');
    expect(queue.status).toBe(200);
    expect(queue.body.data.map((invoice: any) => invoice.id)).toEqual([doesNot]);
    expect((await tenant.call('/v1/invoices?needs_review=false')).body.data.map((invoice: any) => invoice.id)).toEqual([
      adds,
    ]);
    expect((await tenant.call('/v1/invoices')).body.data).toHaveLength(2);
    // Combined with other filters, and refused when it is no boolean.
    expect((await tenant.call('/v1/invoices?needs_review=true&search=INV-7001')).body.data).toEqual([]);
    expect((await tenant.call('/v1/invoices?needs_review=yes')).status).toBe(400);
    // A person's correction takes it out of the queue; a PATCH that changes nothing does not.
    expect(
      (await tenant.call(`/v1/invoices/${doesNot}`, { method: 'PATCH', body: { invoice_number: 'INV-7002' } })).status,
    ).toBe(200);
    expect((await tenant.call('/v1/invoices?needs_review=true')).body.data.map((invoice: any) => invoice.id)).toEqual([
      doesNot,
    ]);
    // Confirmed as read, explicitly: it leaves the queue, and the activity says who confirmed it.
    const confirmed = await tenant.call(`/v1/invoices/${doesNot}/confirm-reading`, { method: 'POST' });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.extraction.needs_review).toBe(false);
    expect((await tenant.call('/v1/invoices?needs_review=true')).body.data).toEqual([]);
    const activity = await tenant.call(`/v1/activity?entity_type=invoice&entity_id=${doesNot}`);
    expect(activity.body.data.map((entry: any) => entry.action)).toContain('review_confirmed');
    // Another organization's invoice is not found.
    expect((await (await createTenant()).call(`/v1/invoices/${adds}/confirm-reading`, { method: 'POST' })).status).toBe(
      404,
    );
    const corrected = await tenant.call(`/v1/invoices/${doesNot}`, {
      method: 'PATCH',
      body: { amounts: { including_vat: '30.00', payable: '30.00' } },
    });
    expect(corrected.status).toBe(200);
    expect((await tenant.call('/v1/invoices?needs_review=true')).body.data).toEqual([]);
    expect((await tenant.call('/v1/invoices?needs_review=false')).body.data).toHaveLength(2);
    // Another organization's queue does not show them.
    const other = await createTenant();
    expect((await other.call('/v1/invoices?needs_review=true')).body.data).toEqual([]);
  });
});
