import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { scanPdf } from '../../scripts/corpus/generate-scan-corpus.js';
import { repoRoot } from '../../src/infra/defaults.js';
import { call, eventually } from '../support/api.js';
import { ingestionUpload } from '../support/invoices.js';
import { fortyLines, pdfInvoice } from '../support/pdf-invoices.js';
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

  it('reads every line of a scan of the 40-line two-page invoice, as from its text layer', async () => {
    // The text-layer invoice of pdf-invoice-reading.test.ts, printed and scanned as an office
    // scanner gives it (200 dpi grayscale, turned 0.4°, light noise): an image-only PDF of two pages.
    const lines = fortyLines();
    const net = lines.reduce((total, line) => total.plus(line.amount), new Decimal(0));
    // Fixed words, so a run reads what the last one read: a random number once ended in a "c"
    // that tesseract took for "¢" (now put back: repairNumber).
    const number = 'SCAN-55b5233c';
    const text = await pdfInvoice({
      supplier: 'Kabelverket 3fa9c1 AS',
      orgNumber: '912 345 678',
      vatId: 'NO912345678MVA',
      buyer: 'Vestland Bygg AS',
      number,
      issueDate: '2025-03-14',
      dueDate: '2025-04-13',
      currency: 'EUR',
      lines,
      net: net.toFixed(2),
      vat: net.times('0.25').toFixed(2),
      gross: net.times('1.25').toFixed(2),
    });
    const dir = await mkdtemp(path.join(tmpdir(), 'forty-line-scan-'));
    let scanned: Buffer;
    try {
      await writeFile(path.join(dir, 'invoice.pdf'), text);
      scanned = await scanPdf(
        path.join(dir, 'invoice.pdf'),
        { dpi: 200, rotation: 0.4, paper: 244, noise: 4, specks: 0.0002, bilevel: false },
        4_040,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    const tenant = await createTenant();
    const upload = await ingestionUpload(tenant.ingestionToken, 'scan.pdf', scanned);
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    const settled = await eventually(
      () => call(`/v1/invoices/${upload.body.invoice_id}`, { token: tenant.ingestionToken }),
      (response) => !['pending', 'processing'].includes(response.body?.processing?.status),
      240_000,
    );
    expect(settled.body.processing, JSON.stringify(settled.body.processing)).toMatchObject({
      status: 'completed',
      failure: null,
    });

    const invoice = (await tenant.call(`/v1/invoices/${upload.body.invoice_id}`)).body;
    expect(invoice.format).toBe('pdf_ocr');
    expect(invoice.invoice_number).toBe(number);
    expect(invoice.amounts.excluding_vat).toBe(net.toFixed(2));
    type Item = {
      seller_item_id: string;
      description: string;
      quantity: string;
      unit_price: string;
      net_amount: string;
    };
    expect(
      invoice.line_items.map((line: Item) => [
        line.seller_item_id,
        line.description,
        Number(line.quantity),
        Number(line.unit_price),
        Number(line.net_amount),
      ]),
    ).toEqual(
      lines.map((line) => [
        line.item,
        line.description,
        Number(line.quantity),
        Number(line.unitPrice),
        Number(line.amount),
      ]),
    );
  }, 300_000);
});
