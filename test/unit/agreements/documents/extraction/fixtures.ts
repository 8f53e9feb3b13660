/**
 * Agreement document fixtures built in code: DOCX (jszip), XLSX (exceljs), prose, seeded random
 * bytes, and helpers that check the passage invariants every extraction must keep.
 */
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import {
  PASSAGE_MAX,
  type ExtractedText,
  type ExtractionResult,
} from '../../../../../src/agreements/documents/extraction/index.js';

export const repoRoot = fileURLToPath(new URL('../../../../../', import.meta.url));
export const samplePdfDirectory = path.resolve(repoRoot, '../shared/samples/pdf-plain');

export function samplePdf(name: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(samplePdfDirectory, name)));
}

export const MIME = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  text: 'text/plain',
  binary: 'application/octet-stream',
} as const;

export const utf8 = (text: string) => new TextEncoder().encode(text);
export const latin1 = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

/** Narrows to the text result, failing the test with the failure message otherwise. */
export function expectText(result: ExtractionResult): ExtractedText {
  if (result.kind !== 'text') expect.fail(`expected text, got ${result.code}: ${result.message}`);
  return result;
}

/**
 * Invariants of every text result: passages in order, offsets matching their text, no
 * whitespace at either end, none longer than PASSAGE_MAX, the last one ending the whole text.
 * With `wholeText` (known when the test controls the input), every slice is compared too.
 */
export function expectConsistentPassages(result: ExtractedText, wholeText?: string): void {
  let previousEnd = 0;
  result.passages.forEach((passage, index) => {
    expect(passage.index).toBe(index);
    expect(passage.startOffset).toBeGreaterThanOrEqual(previousEnd);
    expect(passage.endOffset - passage.startOffset).toBe(passage.text.length);
    expect(passage.text).toBe(passage.text.trim());
    expect(passage.text.length).toBeGreaterThan(0);
    expect(passage.text.length).toBeLessThanOrEqual(PASSAGE_MAX);
    if (wholeText !== undefined) {
      expect(wholeText.slice(passage.startOffset, passage.endOffset)).toBe(passage.text);
      expect(wholeText.slice(previousEnd, passage.startOffset).trim()).toBe('');
    }
    previousEnd = passage.endOffset;
  });
  expect(previousEnd).toBe(result.characterCount);
}

const CLAUSES = [
  'The Supplier shall deliver the Goods in accordance with the delivery terms set out in Appendix 2.',
  'Prices are fixed for the term of this Agreement unless the parties agree otherwise in writing.',
  'Either party may terminate this Agreement with three months written notice to the other party.',
  'The liability of the Supplier is limited to direct losses and shall not exceed the annual contract value.',
  'Invoices are payable thirty days net from the date of invoice; late payment interest accrues by law.',
  'This Agreement is governed by Norwegian law, and disputes are settled by the Oslo District Court.',
];

/** A paragraph of contract sentences of about `length` characters. */
export function contractParagraph(length: number, offset = 0): string {
  const sentences: string[] = [];
  let size = 0;
  for (let index = offset; size < length; index += 1) {
    const sentence = CLAUSES[index % CLAUSES.length]!;
    sentences.push(sentence);
    size += sentence.length + 1;
  }
  return sentences.join(' ');
}

const WORD_XML_NAMESPACE = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

export function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[char]!);
}

/** Word paragraphs as document.xml body content. */
export function wordParagraphs(texts: readonly string[]): string {
  return texts.map((text) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`).join('');
}

/** A minimal DOCX that Word and mammoth open: content types, package relationship, document.xml. */
export async function buildDocx(bodyXml: string, options: { documentXml?: string } = {}): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  const documentXml =
    options.documentXml ??
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${WORD_XML_NAMESPACE}"><w:body>${bodyXml}</w:body></w:document>`;
  zip.file('word/document.xml', documentXml);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

export type SheetRows = ReadonlyArray<ReadonlyArray<ExcelJS.CellValue>>;

export async function buildXlsx(sheets: Readonly<Record<string, SheetRows>>): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const worksheet = workbook.addWorksheet(name);
    for (const row of rows) worksheet.addRow([...row]);
  }
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** Deterministic pseudo-random bytes (mulberry32), so a failing case can be reproduced. */
export function seededBytes(length: number, seed: number): Uint8Array {
  let state = seed >>> 0;
  const bytes = new Uint8Array(length);
  for (let index = 0; index < length; index += 1) {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value ^= value + Math.imul(value ^ (value >>> 7), 61 | value);
    bytes[index] = ((value ^ (value >>> 14)) >>> 0) & 0xff;
  }
  return bytes;
}

/**
 * Rewrites the uncompressed size that the central directory declares for `entryName`, as a
 * zip bomb would to slip past a check of declared sizes.
 */
export function withDeclaredSize(zip: Uint8Array, entryName: string, declaredSize: number): Uint8Array {
  const bytes = new Uint8Array(zip);
  const nameAt = Buffer.from(bytes).lastIndexOf(Buffer.from(entryName, 'utf8'));
  const entryStart = nameAt - 46;
  const view = new DataView(bytes.buffer);
  expect(view.getUint32(entryStart, true)).toBe(0x02014b50);
  view.setUint32(entryStart + 24, declaredSize, true);
  return bytes;
}
