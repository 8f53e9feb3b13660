import { Decimal } from 'decimal.js';
import PDFDocument from 'pdfkit';

// Text-layer PDF invoices drawn with pdfkit, as a supplier's billing system prints them: a
// letterhead, labelled header fields, a line table that runs over as many pages as it needs
// (header repeated, carry-forward at the foot of each page) and the totals under it.

export interface PdfInvoiceLine {
  item: string;
  description: string;
  quantity: string;
  unit: string;
  unitPrice: string;
  amount: string;
}

export interface PdfInvoice {
  supplier: string;
  orgNumber: string;
  vatId: string;
  buyer: string;
  number: string;
  issueDate: string;
  dueDate: string;
  currency: string;
  lines: PdfInvoiceLine[];
  net: string;
  vat: string;
  gross: string;
  /** A line under the totals, e.g. what to quote when paying. */
  note?: string;
}

// The issue's 40-line invoice over two pages: cable assemblies at 10.00 a piece, but line 7 at 12.00
// (an overcharge against an agreed 10.00).
export const FORTY_LINES_AGREED_PRICE = '10.00';
export const FORTY_LINES_OVERCHARGED_LINE = 7;

export function fortyLines(): PdfInvoiceLine[] {
  return Array.from({ length: 40 }, (_, index) => {
    const quantity = 1 + (index % 5);
    const unitPrice = index + 1 === FORTY_LINES_OVERCHARGED_LINE ? '12.00' : FORTY_LINES_AGREED_PRICE;
    return {
      item: `SKU-${String(index + 1).padStart(2, '0')}`,
      description: `Cable assembly type ${index + 1}`,
      quantity: String(quantity),
      unit: 'pcs',
      unitPrice,
      amount: new Decimal(unitPrice).times(quantity).toFixed(2),
    };
  });
}

export async function pdfInvoice(invoice: PdfInvoice): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 0, compress: true });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  const text = (value: string, x: number, y: number, size = 9, right = false) => {
    doc.font('Helvetica').fontSize(size);
    doc.text(value, right ? x - doc.widthOfString(value) : x, y, { lineBreak: false });
  };
  const footer = () =>
    text(`${invoice.supplier} · Org. no. ${invoice.orgNumber} · VAT no. ${invoice.vatId}`, 40, 800, 7);
  text(invoice.supplier, 40, 40, 16);
  text('INVOICE', 555, 40, 18, true);
  text('Bill to', 40, 100, 7);
  text(invoice.buyer, 40, 111, 10);
  const rows: Array<[string, string]> = [
    ['Invoice no.:', invoice.number],
    ['Invoice date:', invoice.issueDate],
    ['Due date:', invoice.dueDate],
    ['Currency:', invoice.currency],
  ];
  // A supplier that prints no invoice number (only a payment reference, say) leaves the row out.
  const meta = rows.filter(([, value]) => value !== '');
  meta.forEach(([label, value], index) => {
    text(label, 340, 100 + index * 13);
    text(value, 555, 100 + index * 13, 9, true);
  });
  const header = (y: number) => {
    text('Item no.', 40, y);
    text('Description', 110, y);
    text('Qty', 350, y, 9, true);
    text('Unit', 360, y);
    text('Unit price', 460, y, 9, true);
    text('Amount', 555, y, 9, true);
    doc
      .moveTo(40, y + 12)
      .lineTo(555, y + 12)
      .lineWidth(0.5)
      .stroke();
    return y + 16;
  };
  let y = header(180);
  let carried = 0;
  for (const line of invoice.lines) {
    if (y > 740) {
      text('Carried forward', 110, y + 4);
      text(carried.toFixed(2), 555, y + 4, 9, true);
      footer();
      doc.addPage({ size: 'A4', margin: 0 });
      y = header(50);
      text('Brought forward', 110, y);
      text(carried.toFixed(2), 555, y, 9, true);
      y += 14;
    }
    text(line.item, 40, y);
    text(line.description, 110, y);
    text(line.quantity, 350, y, 9, true);
    text(line.unit, 360, y);
    text(line.unitPrice, 460, y, 9, true);
    text(line.amount, 555, y, 9, true);
    carried += Number(line.amount);
    y += 14;
  }
  const totals: Array<[string, string]> = [
    ['Subtotal', invoice.net],
    ['VAT 25 %', invoice.vat],
    ['Total', invoice.gross],
    ['Amount due', invoice.gross],
  ];
  totals.forEach(([label, value], index) => {
    text(label, 380, y + 12 + index * 13);
    text(value, 555, y + 12 + index * 13, 9, true);
  });
  if (invoice.note) text(invoice.note, 40, y + 12 + totals.length * 13 + 20);
  footer();
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
