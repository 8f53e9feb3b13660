import { Decimal } from 'decimal.js';
import PDFDocument from 'pdfkit';

// A supplier whose billing system prints its invoice number and due date under labels no
// dictionary knows ("Ledger key", "Settlement day"), the number's value far right of its label,
// and the amount due beside a label of its own wording: the layout reader's generic reading
// misses them until a correction teaches it this supplier's layout.

export interface UnusualInvoice {
  supplier: string;
  /** Printed in the letterhead when given: what the supplier is recognised by. */
  orgNumber: string | null;
  iban: string | null;
  ledgerKey: string;
  issueDate: string;
  settlementDay: string;
  lines: Array<{ description: string; quantity: string; unitPrice: string }>;
}

export interface UnusualTotals {
  net: string;
  vat: string;
  gross: string;
  lines: Array<{ description: string; quantity: string; unitPrice: string; amount: string }>;
}

export function totalsOf(invoice: UnusualInvoice): UnusualTotals {
  const lines = invoice.lines.map((line) => ({
    ...line,
    amount: new Decimal(line.quantity).times(line.unitPrice).toFixed(2),
  }));
  const net = lines.reduce((total, line) => total.plus(line.amount), new Decimal(0));
  const vat = net.times('0.25');
  return { net: net.toFixed(2), vat: vat.toFixed(2), gross: net.plus(vat).toFixed(2), lines };
}

export async function unusualPdfInvoice(invoice: UnusualInvoice): Promise<Buffer> {
  const totals = totalsOf(invoice);
  const doc = new PDFDocument({ size: 'A4', margin: 0, compress: true });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  const text = (value: string, x: number, y: number, size = 9, right = false) => {
    doc.font('Helvetica').fontSize(size);
    doc.text(value, right ? x - doc.widthOfString(value) : x, y, { lineBreak: false });
  };
  text(invoice.supplier, 40, 40, 16);
  const ids = [
    invoice.orgNumber ? `Org. no. ${invoice.orgNumber}` : null,
    invoice.iban ? `IBAN ${invoice.iban}` : null,
  ].filter((id): id is string => id !== null);
  if (ids.length > 0) text(ids.join('   ·   '), 40, 62, 8);
  text('INVOICE', 555, 40, 18, true);
  text('Bill to', 40, 110, 7);
  text('Vestland Bygg AS', 40, 121, 10);
  text('Ledger key', 300, 110);
  text(invoice.ledgerKey, 555, 110, 9, true);
  text('Invoice date:', 300, 123);
  text(invoice.issueDate, 555, 123, 9, true);
  text('Settlement day', 300, 136);
  text(invoice.settlementDay, 555, 136, 9, true);
  text('Currency:', 300, 149);
  text('NOK', 555, 149, 9, true);
  text('Description', 40, 190);
  text('Qty', 350, 190, 9, true);
  text('Unit price', 460, 190, 9, true);
  text('Amount', 555, 190, 9, true);
  let y = 208;
  for (const line of totals.lines) {
    text(line.description, 40, y);
    text(line.quantity, 350, y, 9, true);
    text(line.unitPrice, 460, y, 9, true);
    text(line.amount, 555, y, 9, true);
    y += 14;
  }
  const rows: Array<[string, string]> = [
    ['Subtotal', totals.net],
    ['VAT 25 %', totals.vat],
    ['Total', totals.gross],
  ];
  rows.forEach(([label, value], index) => {
    text(label, 380, y + 12 + index * 13);
    text(value, 555, y + 12 + index * 13, 9, true);
  });
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
