// Where each value was read from (docs/invoice-parsing.md, "Where each value was read from"), over
// the real stack: a corpus PDF uploaded through the Ingestion API shows, in the Organization
// API's representation, the page, box and text of its number and total, and each line's row;
// the boxes are checked against the PDF's own text positions read here with pdf.js directly.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ingestionUpload, settledIngestionInvoice } from '../support/invoices.js';
import { createTenant } from '../support/tenants.js';
import { openPdf } from '../../src/shared/pdfjs.js';

const CORPUS = new URL('../fixtures/extraction-corpus/', import.meta.url);
const bytes = readFileSync(new URL('001-classic-en.pdf', CORPUS));
const expected = JSON.parse(readFileSync(new URL('001-classic-en.json', CORPUS), 'utf8')) as {
  header: Record<string, string>;
  lines: unknown[];
};

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

// The middle of the first text item printing `text`, as fractions of page 1 (origin top left).
async function printedAt(text: string): Promise<{ x: number; y: number }> {
  const task = await openPdf(new Uint8Array(bytes));
  const document = await task.promise;
  try {
    const page = await document.getPage(1);
    const [left = 0, bottom = 0, right = 0, top = 0] = page.view;
    const content = await page.getTextContent();
    for (const item of content.items) {
      if (!('str' in item) || !item.str.includes(text)) continue;
      const [, , c = 0, d = 0, x = 0, y = 0] = item.transform as number[];
      const size = Math.hypot(c, d);
      const start = item.str.indexOf(text) / item.str.length;
      const share = text.length / item.str.length;
      return {
        x: (x + item.width * (start + share / 2) - left) / (right - left),
        y: (top - y - size * 0.3) / (top - bottom),
      };
    }
    throw new Error(`"${text}" is not printed on page 1`);
  } finally {
    await task.destroy();
  }
}

const inside = (point: { x: number; y: number }, box: Box) =>
  point.x >= box.x && point.x <= box.x + box.width && point.y >= box.y && point.y <= box.y + box.height;

describe('extraction.sources', () => {
  it("gives the page, box and text of a PDF invoice's number, total and lines", async () => {
    const tenant = await createTenant();
    const upload = await ingestionUpload(tenant.ingestionToken, '001-classic-en.pdf', bytes);
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    await settledIngestionInvoice(tenant.ingestionToken, upload.body.invoice_id);
    const { body: invoice } = await tenant.call(`/v1/invoices/${upload.body.invoice_id}`);
    expect(invoice.extraction.method).toBe('pdf_text');
    expect(invoice.invoice_number).toBe(expected.header.invoiceNumber);
    expect(invoice.amounts.including_vat).toBe(expected.header['totals.taxInclusive']);

    const sources = invoice.extraction.sources as Record<string, { page: number; box: Box; text: string }>;
    const number = sources.invoiceNumber!;
    expect(number).toMatchObject({ page: 1, text: 'F20250017' });
    expect(inside(await printedAt('F20250017'), number.box), JSON.stringify(number.box)).toBe(true);

    const total = sources['totals.taxInclusive']!;
    // Printed as the corpus's comma-dot format: 699,083.61.
    expect(total).toMatchObject({ page: 1, text: '699,083.61' });
    expect(inside(await printedAt('699,083.61'), total.box), JSON.stringify(total.box)).toBe(true);
    // The number sits in the header above the totals; boxes are small fractions of the page.
    expect(number.box.y).toBeLessThan(total.box.y);
    for (const box of [number.box, total.box]) {
      expect(box.width).toBeGreaterThan(0);
      expect(box.width).toBeLessThan(0.3);
      expect(box.height).toBeGreaterThan(0);
      expect(box.height).toBeLessThan(0.05);
    }

    // Each line carries its table row's box, top to bottom, and the row's text holds its amount.
    expect(invoice.line_items).toHaveLength(expected.lines.length);
    const rows = invoice.line_items.map((line: { source: { box: Box; text: string } | null }) => line.source);
    expect(rows.every((row: unknown) => row !== null)).toBe(true);
    for (const [index, row] of rows.entries()) {
      expect(row.text).toContain(invoice.line_items[index].description);
      if (index > 0) expect(row.box.y).toBeGreaterThan(rows[index - 1].box.y);
    }
    const first = rows[0];
    expect(inside(await printedAt('Laptop stand aluminium'), first.box)).toBe(true);

    // Read-only: sent back as read, the sources and line sources are accepted and ignored.
    const patched = await tenant.call(`/v1/invoices/${invoice.id}`, {
      method: 'PATCH',
      body: { extraction: invoice.extraction, line_items: invoice.line_items, order_reference: 'PO-CHANGED' },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.order_reference).toBe('PO-CHANGED');
    expect(patched.body.extraction.sources).toEqual(invoice.extraction.sources);
    expect(patched.body.line_items[0].source).toEqual(first);
  });

  it('is null for a structured (XML) reading', async () => {
    const tenant = await createTenant();
    const created = await tenant.call('/v1/invoices', {
      method: 'POST',
      body: {
        invoice_number: 'SRC-1',
        issue_date: '2025-03-01',
        currency_code: 'EUR',
        supplier: { name: 'Data Supplier AS' },
        amounts: { including_vat: '125.00', excluding_vat: '100.00', vat: '25.00' },
        line_items: [{ description: 'Thing', quantity: '1', unit_price: '100.00', net_amount: '100.00' }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.extraction.sources).toBeNull();
    expect(created.body.line_items[0].source).toBeNull();
  });
});
