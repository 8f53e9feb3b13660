// TEMPORARY: minimal stand-ins for the claim renderers another engineer writes in parallel
// (render-pdf.ts, render-table.ts). index.ts points at these until the branches are merged; then
// index.ts re-exports the real renderers and this file is deleted.
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import type { ClaimLetter } from './letter.js';

const COLUMNS = ['Invoice number', 'Invoice date', 'Line', 'Description', 'Difference', 'Currency', 'Alert id', 'Alert status'];
const row = (line: ClaimLetter['lines'][number]) => [line.invoiceNumber, line.issueDate ?? '', line.lineReference ?? '', line.description ?? '', line.difference, line.currencyCode, line.alertId, line.alertStatus];

export function renderClaimCsv(letter: ClaimLetter): string {
  return stringify(letter.lines.map(row), { header: true, columns: COLUMNS });
}

export async function renderClaimXlsx(letter: ClaimLetter): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Claim lines');
  sheet.addRow(COLUMNS);
  for (const line of letter.lines) sheet.addRow(row(line));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export async function renderClaimPdf(letter: ClaimLetter): Promise<Buffer> {
  const document = new PDFDocument({ size: 'A4' });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => document.on('end', () => resolve()));
  document.text(`Claim ${letter.reference}: ${letter.title}`);
  for (const line of letter.lines) document.text(`${line.invoiceNumber} ${line.difference} ${line.currencyCode}`);
  document.end();
  await done;
  return Buffer.concat(chunks);
}
