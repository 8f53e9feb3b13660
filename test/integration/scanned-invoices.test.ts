import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/infra/defaults.js';
import { call, eventually } from '../support/api.js';
import { ingestionUpload } from '../support/invoices.js';
import { createTenant, testDb } from '../support/tenants.js';

// A scanned invoice: an image-only PDF (no text layer) from the scan corpus, made by
// scripts/corpus/generate-scan-corpus.ts from a generated invoice whose ground truth is beside it
// (black and white, 200 dpi, rotated 0.59°, with specks).
const corpus = path.join(repoRoot, 'test/fixtures/scan-corpus');
const scan = '006-scan-vatBeside-de';

interface Truth {
  header: Record<string, string | null>;
  lines: Array<{ description: string; netAmount: string; quantity: string; unitPrice: string }>;
}

describe('scanned PDF invoices', () => {
  it('imports a scan uploaded through the Ingestion API with its lines, read by OCR', async () => {
    const tenant = await createTenant();
    const truth = JSON.parse(readFileSync(path.join(corpus, `${scan}.json`), 'utf8')) as Truth;
    const upload = await ingestionUpload(
      tenant.ingestionToken,
      'scan.pdf',
      readFileSync(path.join(corpus, `${scan}.pdf`)),
    );
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);

    // OCR takes seconds a page, more on a loaded machine: poll longer than for a text file.
    const settled = await eventually(
      () => call(`/v1/invoices/${upload.body.invoice_id}`, { token: tenant.ingestionToken }),
      (response) => !['pending', 'processing'].includes(response.body?.processing?.status),
      180_000,
    );
    expect(settled.body.processing, JSON.stringify(settled.body.processing)).toMatchObject({
      status: 'completed',
      classification: 'invoice',
      failure: null,
    });

    const invoice = (await tenant.call(`/v1/invoices/${upload.body.invoice_id}`)).body;
    expect(invoice.format).toBe('pdf_ocr');
    expect(invoice.invoice_number).toBe(truth.header.invoiceNumber);
    expect(invoice.amounts.currency_code).toBe(truth.header.currencyCode);
    expect(Number(invoice.amounts.including_vat)).toBe(Number(truth.header['totals.taxInclusive']));
    expect(
      invoice.line_items.map(
        (line: { description: string; net_amount: string; quantity: string; unit_price: string }) => [
          line.description,
          Number(line.net_amount),
          Number(line.quantity),
          Number(line.unit_price),
        ],
      ),
    ).toEqual(
      truth.lines.map((line) => [
        line.description,
        Number(line.netAmount),
        Number(line.quantity),
        Number(line.unitPrice),
      ]),
    );

    // How it was read, kept with the invoice: OCR, with the OCR words' confidence in it.
    const stored = await testDb().invoice.findUniqueOrThrow({ where: { id: upload.body.invoice_id } });
    const extraction = stored.extraction as {
      method: string;
      confidence: { overall: number; fields: Record<string, number> } | null;
    };
    expect(extraction.method).toBe('ocr');
    expect(extraction.confidence?.fields.invoiceNumber).toBeGreaterThan(0);
    expect(extraction.confidence?.fields.invoiceNumber).toBeLessThanOrEqual(1);
  }, 240_000);
});
