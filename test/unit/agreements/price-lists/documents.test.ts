import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { readPriceList } from '../../../../src/agreements/price-lists/index.js';
import { readTiers } from '../../../../src/agreements/price-lists/tiers.js';
import { tablesOfHtml } from '../../../../src/agreements/price-lists/documents/docx.js';

// The generated price-list documents (scripts/corpus/generate-price-list-documents.ts) against
// their ground truth: every item exact, the rows that cannot be read, completeness.

const DIR = path.resolve(import.meta.dirname, '../../../fixtures/price-list-documents');

interface Truth {
  file: string;
  defaultCurrency: string;
  complete: boolean;
  items: {
    description: string;
    sellerItemId: string | null;
    unit: string | null;
    currencyCode: string;
    amount: string;
  }[];
  rejected: { sheet: string; rowNumber: number }[];
}

// Scanned lists (scan-*) need OCR in the parser pool: test/integration/price-list-documents.test.ts.
const truths: Truth[] = readdirSync(DIR)
  .filter((file) => file.endsWith('.json') && !file.startsWith('scan-'))
  .map((file) => JSON.parse(readFileSync(path.join(DIR, file), 'utf8')) as Truth);

describe('price lists from documents (fixtures with ground truth)', () => {
  it('has at least five PDFs and a DOCX', () => {
    expect(truths.filter((truth) => truth.file.endsWith('.pdf')).length).toBeGreaterThanOrEqual(5);
    expect(truths.some((truth) => truth.file.endsWith('.docx'))).toBe(true);
  });

  for (const truth of truths) {
    it(`reads ${truth.file} exactly`, async () => {
      const result = await readPriceList({
        bytes: readFileSync(path.join(DIR, truth.file)),
        fileName: truth.file,
        defaultCurrency: truth.defaultCurrency,
      });
      expect(result.kind).toBe('read');
      const items = result.rows
        .filter((row) => row.outcome === 'accepted')
        .map((row) => ({
          description: row.item!.description,
          sellerItemId: row.item!.sellerItemId,
          unit: row.item!.unit,
          currencyCode: row.item!.currencyCode,
          amount: (row.item!.price as { amount: string }).amount,
        }));
      expect(items).toEqual(truth.items);
      const rejected = result.rows
        .filter((row) => row.outcome === 'rejected')
        .map((row) => ({ sheet: row.sheet, rowNumber: row.rowNumber }));
      expect(rejected).toEqual(truth.rejected);
      expect(result.complete).toBe(truth.complete);
      if (!truth.complete) expect(result.failure).toMatchObject({ code: 'extraction_incomplete' });
    });
  }

  it('shows where each row of a multi-page PDF is: page and row on that page', async () => {
    const result = await readPriceList({
      bytes: readFileSync(path.join(DIR, 'de-fasteners-multipage.pdf')),
      fileName: 'x.pdf',
      defaultCurrency: 'EUR',
    });
    expect(result.rows.map((row) => row.sheet)).toEqual([
      ...Array(30).fill('page 1'),
      ...Array(30).fill('page 2'),
      ...Array(10).fill('page 3'),
    ]);
    expect(result.rows[30]).toMatchObject({ sheet: 'page 2', rowNumber: 1, raw: { 'Art.-Nr.': '471210' } });
  });

  it('keeps the quantity tier of each tier item in the row cells', async () => {
    const result = await readPriceList({
      bytes: readFileSync(path.join(DIR, 'sv-network-tiers.pdf')),
      fileName: 'x.pdf',
      defaultCurrency: 'EUR',
    });
    expect(
      result.rows.filter((row) => row.raw['Artikelnummer'] === 'SE-101').map((row) => row.raw['quantity tier']),
    ).toEqual(['1-99', '100-499', '500+']);
  });

  it('says a PDF without a text layer needs OCR', async () => {
    // A page with drawings only, as a scan's image has no words either.
    const doc = new PDFDocument({ size: 'A4' });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise((resolve) => doc.on('end', resolve));
    doc.rect(50, 50, 200, 100).fill('#999999');
    doc.end();
    await ended;
    const result = await readPriceList({ bytes: Buffer.concat(chunks), fileName: 'scan.pdf', defaultCurrency: 'EUR' });
    expect(result).toMatchObject({ kind: 'failed', complete: false, failure: { code: 'unreadable' } });
    expect(result.failure!.message).toContain('OCR');
  });
});

describe('quantity tiers', () => {
  it('reads tiers written in one cell', () => {
    expect(readTiers('1-99: 10.00, 100+: 9.50')).toEqual([
      { range: '1-99', price: '10.00' },
      { range: '100+', price: '9.50' },
    ]);
    expect(readTiers('1–49: 1 234,50; 50+: 1 100,00')).toEqual([
      { range: '1–49', price: '1 234,50' },
      { range: '50+', price: '1 100,00' },
    ]);
    expect(readTiers('ab 1: 5, ab 10: 4,50')?.map((tier) => tier.price)).toEqual(['5', '4,50']);
  });

  it('is not a tier list with one tier or text before it', () => {
    expect(readTiers('12.50')).toBeNull();
    expect(readTiers('100+: 9.50')).toBeNull();
    expect(readTiers('about 1-99: 10, 100+: 9')).toBeNull();
  });

  it('gives one item per tier in a CSV too', async () => {
    const csv = 'Item no;Description;Price\nX1;Widget;"1-99: 10,00 / 100+: 9,50"\n';
    const result = await readPriceList({ bytes: Buffer.from(csv), fileName: 'p.csv', defaultCurrency: 'EUR' });
    expect(result.rows.map((row) => [row.rowNumber, row.item?.price])).toEqual([
      [2, { type: 'amount', amount: '10' }],
      [2, { type: 'amount', amount: '9.5' }],
    ]);
  });
});

describe('DOCX tables from mammoth HTML', () => {
  it('keeps cells as cells, spans as empty cells, and the caption above', () => {
    const { tables, outsideText } = tablesOfHtml(
      '<p>Prices in EUR</p><table><tr><td colspan="2"><p>A &amp; B</p></td><td><p>x</p><p>y</p></td></tr></table>',
    );
    expect(outsideText).toEqual(['Prices in EUR']);
    expect(tables[0]!.caption).toBe('Prices in EUR');
    expect(tables[0]!.sheet.rows[0]!.cells).toEqual([{ text: 'A & B' }, undefined, { text: 'x y' }]);
  });
});
