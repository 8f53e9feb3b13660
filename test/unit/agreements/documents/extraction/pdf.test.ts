import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIMITS,
  extractDocumentText,
  extractWithLimits,
} from '../../../../../src/agreements/documents/extraction/index.js';
import { buildPdf } from '../../../invoices/parsing/pdf-builder.js';
import { expectConsistentPassages, expectText, MIME, samplePdf, samplePdfDirectory } from './fixtures.js';

const pdfInput = (bytes: Uint8Array, fileName = 'terms.pdf') => ({ bytes, fileName, mimeType: MIME.pdf });

describe('PDF', () => {
  it('joins lines by baseline and starts a paragraph at a blank line', async () => {
    const lines = [
      'General Terms of Delivery',
      '',
      '1. Scope',
      'These terms apply to all deliveries',
      'by the Supplier to the Customer.',
    ];
    const result = expectText(await extractDocumentText(pdfInput(buildPdf({ lines }))));
    const wholeText =
      'General Terms of Delivery\n\n1. Scope\nThese terms apply to all deliveries\nby the Supplier to the Customer.';
    expect(result).toMatchObject({ format: 'pdf', pageCount: 1, truncated: false, characterCount: wholeText.length });
    expectConsistentPassages(result, wholeText);
    expect(result.passages).toEqual([
      { index: 0, text: wholeText, page: 1, sheet: null, startOffset: 0, endOffset: wholeText.length },
    ]);
  });

  it('keeps WinAnsi characters such as € and Nordic letters', async () => {
    const result = expectText(
      await extractDocumentText(pdfInput(buildPdf({ lines: ['Leverandøren fakturerer 1 250,00 € per år.'] }))),
    );
    expect(result.passages[0]!.text).toBe('Leverandøren fakturerer 1 250,00 € per år.');
  });

  it('fails with no_text for a PDF without a text layer (a scan)', async () => {
    const result = await extractDocumentText(pdfInput(buildPdf({ drawing: '0 0 1 rg 50 50 200 200 re f' })));
    expect(result).toMatchObject({ kind: 'failed', code: 'no_text' });
  });

  it('fails with unreadable for a truncated PDF', async () => {
    const bytes = samplePdf('corpus-Hetzner_2016-01-19_R0005532486.pdf');
    const result = await extractDocumentText(pdfInput(bytes.subarray(0, Math.floor(bytes.byteLength / 2))));
    expect(result).toMatchObject({ kind: 'failed', code: 'unreadable' });
    if (result.kind === 'failed') expect(result.message).toContain('truncated');
  });

  it('stops at the time limit with a failure when no page could be read', async () => {
    const result = await extractWithLimits(pdfInput(buildPdf({ lines: ['Terms'] })), {
      ...DEFAULT_LIMITS,
      timeLimitMs: 0,
    });
    expect(result).toMatchObject({ kind: 'failed', code: 'unreadable' });
  });
});

describe('PDF samples (../shared/samples/pdf-plain)', () => {
  const files = readdirSync(samplePdfDirectory).filter((name) => name.endsWith('.pdf'));

  it('has the three sample PDFs', () => {
    expect(files).toHaveLength(3);
  });

  it.each(files)('%s: text with page numbers and consistent offsets', async (fileName) => {
    const result = expectText(await extractDocumentText(pdfInput(samplePdf(fileName), fileName)));
    expect(result).toMatchObject({ format: 'pdf', pageCount: 1, truncated: false });
    expectConsistentPassages(result);
    expect(result.characterCount).toBeGreaterThan(500);
    for (const passage of result.passages) expect(passage).toMatchObject({ page: 1, sheet: null });
  });

  it('reads the Hetzner invoice text as written', async () => {
    const result = expectText(
      await extractDocumentText(pdfInput(samplePdf('corpus-Hetzner_2016-01-19_R0005532486.pdf'))),
    );
    const text = result.passages.map((passage) => passage.text).join('\n\n');
    expect(text).toContain('Hetzner Online GmbH');
    expect(text).toContain('Rechnungsnummer: R0005532486');
    expect(text).toContain('Rechnungsdatum: 19.01.2016');
    expect(result.passages[0]!.text.startsWith('Hetzner Online GmbH')).toBe(true);
  });
});

describe('PDF page limit', () => {
  it('reads no more than maxPdfPages and reports the real page count', async () => {
    const multiPage = samplePdfFromNotInvoice();
    const full = expectText(await extractDocumentText(pdfInput(multiPage)));
    expect(full.pageCount).toBe(9);
    expect(new Set(full.passages.map((passage) => passage.page))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    const limited = expectText(await extractWithLimits(pdfInput(multiPage), { ...DEFAULT_LIMITS, maxPdfPages: 2 }));
    expect(limited).toMatchObject({ truncated: true, pageCount: 9 });
    expect(Math.max(...limited.passages.map((passage) => passage.page ?? 0))).toBe(2);
    expect(limited.passages.map((passage) => passage.text)).toEqual(
      full.passages.filter((passage) => passage.page! <= 2).map((passage) => passage.text),
    );
  });
});

function samplePdfFromNotInvoice(): Uint8Array {
  return samplePdf('../pdf-not-invoice/mustang-ZugferdDev.en.pdf');
}
