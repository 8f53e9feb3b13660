import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Decimal } from 'decimal.js';
import PDFDocument from 'pdfkit';
import { scanPdf } from '../../../scripts/corpus/generate-scan-corpus.js';
import { pdfInvoice, type PdfInvoice, type PdfInvoiceLine } from '../../support/pdf-invoices.js';
import { peppolDocument, pricedLine } from '../../support/peppol.js';

// The three invoices of the walk (test/browser/whole-job.test.ts), one supplier's, in USD like the
// price list they are checked against (test/fixtures/price-list-documents/en-office-supplies.pdf):
// an e-invoice (Peppol BIS 3), a text PDF that prints its number only as the reference to quote
// when paying (so no invoice number is read, and the invoice waits in the review queue), and a
// scan of a text PDF (image only: read by OCR). Each bills one article above its agreed price.

export const SUPPLIER = {
  name: 'Northwind Office Supply AS',
  orgNumber: '912 345 678',
  vatId: 'NO912345678MVA',
};
export const BUYER = 'Buyer Group AS';
export const CURRENCY = 'USD';

/** What each invoice overcharges, against the price list's agreed prices. */
export const OVERCHARGES = {
  xml: { item: 'B-2001', description: 'Ballpoint pen, blue', impact: '10.00' }, // 100 x (0.95 - 0.85)
  pdf: { item: 'C-3100', description: 'Stapler heavy duty', impact: '12.00' }, // 4 x (27.90 - 24.90)
  scan: { item: 'D-4000', description: 'Desk organiser', impact: '4.50' }, // 3 x (19.50 - 18.00)
} as const;
export const TOTAL_OVERCHARGE = Object.values(OVERCHARGES)
  .reduce((sum, { impact }) => sum.plus(impact), new Decimal(0))
  .toFixed(2);

export interface WalkInvoices {
  dir: string;
  contract: string;
  xml: { file: string; number: string };
  pdf: { file: string; number: string };
  scan: { file: string; number: string };
}

function line(item: string, description: string, quantity: string, unit: string, unitPrice: string): PdfInvoiceLine {
  return { item, description, quantity, unit, unitPrice, amount: new Decimal(quantity).times(unitPrice).toFixed(2) };
}

function printed(number: string, issueDate: string, lines: PdfInvoiceLine[]): PdfInvoice {
  const net = lines.reduce((sum, l) => sum.plus(l.amount), new Decimal(0));
  const vat = net.times('0.25');
  return {
    supplier: SUPPLIER.name,
    orgNumber: SUPPLIER.orgNumber,
    vatId: SUPPLIER.vatId,
    buyer: BUYER,
    number,
    issueDate,
    dueDate: '2026-12-31',
    currency: CURRENCY,
    lines,
    net: net.toFixed(2),
    vat: vat.toFixed(2),
    gross: net.plus(vat).toFixed(2),
  };
}

// A scanner's clean copy: 200 dpi, barely turned, light noise (one OCR of one page in the walk).
const GENTLE_SCAN = { dpi: 200, rotation: 0.4, paper: 244, noise: 4, specks: 0.0002, bilevel: false };

/** Writes the three files into a folder of their own; the numbers are unique per call. */
export async function walkInvoices(suffix: string): Promise<WalkInvoices> {
  const dir = await mkdtemp(path.join(tmpdir(), 'whole-job-'));
  const numbers = { xml: `NW-${suffix}-1`, pdf: `NW-${suffix}-2`, scan: `NW-${suffix}-3` };

  const xml = path.join(dir, 'northwind-e-invoice.xml');
  await writeFile(
    xml,
    peppolDocument({
      number: numbers.xml,
      issueDate: '2026-11-02',
      currency: CURRENCY,
      supplier: { name: SUPPLIER.name, vat: SUPPLIER.vatId, country: 'NO', city: 'Oslo' },
      lines: [
        pricedLine(OVERCHARGES.xml.description, OVERCHARGES.xml.item, '100', 'H87', '0.95'),
        pricedLine('Desk organiser', 'D-4000', '2', 'H87', '18.00'),
      ],
    }),
  );

  const pdf = path.join(dir, 'northwind-invoice.pdf');
  await writeFile(
    pdf,
    await pdfInvoice({
      ...printed(numbers.pdf, '2026-11-09', [
        line(OVERCHARGES.pdf.item, OVERCHARGES.pdf.description, '4', 'pcs', '27.90'),
        line('C-3101', 'Staples 24/6 (1000)', '10', 'pack', '3.15'),
      ]),
      number: '',
      note: `Please quote ${numbers.pdf} when paying.`,
    }),
  );

  const source = path.join(dir, 'scan-source.pdf');
  await writeFile(
    source,
    await pdfInvoice(
      // One line: in the stack's OCR a second line ("Ballpoint pen, red  50 pcs  0.85") was
      // missed now and then, which is the review queue's business, not this walk's.
      printed(numbers.scan, '2026-11-16', [
        line(OVERCHARGES.scan.item, OVERCHARGES.scan.description, '3', 'pcs', '19.50'),
      ]),
    ),
  );
  const scan = path.join(dir, 'northwind-scan.pdf');
  await writeFile(scan, await scanPdf(source, GENTLE_SCAN, 4_242));

  const contract = path.join(dir, 'northwind-supply-agreement.pdf');
  await writeFile(contract, await contractPdf());

  return {
    dir,
    contract,
    xml: { file: xml, number: numbers.xml },
    pdf: { file: pdf, number: numbers.pdf },
    scan: { file: scan, number: numbers.scan },
  };
}

// The signed agreement as a text PDF: its terms, the price list attached separately.
async function contractPdf(): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 56 });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  doc.font('Helvetica-Bold').fontSize(16).text('Supply agreement for office supplies 2026');
  doc.moveDown().font('Helvetica').fontSize(10);
  for (const paragraph of [
    `Between ${BUYER} (the buyer) and ${SUPPLIER.name}, org. no. ${SUPPLIER.orgNumber} (the supplier).`,
    '1. Term. This agreement runs from 1 January 2026 to 31 December 2026.',
    '2. Prices. The supplier invoices the articles of the attached price list at the prices stated there, in USD, ' +
      'excluding VAT. Prices are fixed for the term; no surcharges, fees or freight are agreed.',
    '3. Invoicing. One invoice per delivery, payable within 30 days.',
    '4. Overcharges. Amounts invoiced above the agreed prices are credited or refunded within 30 days of a claim.',
  ])
    doc.text(paragraph).moveDown(0.5);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
