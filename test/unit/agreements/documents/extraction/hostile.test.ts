import JSZip from 'jszip';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_LIMITS,
  extractDocumentText,
  extractWithLimits,
  type ExtractionInput,
  type ExtractionResult,
} from '../../../../../src/agreements/documents/extraction/index.js';
import { buildPdf, deflatedSpaces } from '../../../invoices/parsing/pdf-builder.js';
import {
  buildXlsx,
  contractParagraph,
  expectConsistentPassages,
  expectText,
  MIME,
  samplePdf,
  seededBytes,
  utf8,
} from './fixtures.js';

/** Every hostile input must be answered quickly; generous for a slow CI machine. */
// A hang guard, not a speed target: the PDF helper itself stops at 20 s; CI machines are busy.
const QUICK_MS = 15_000;
const FAILURE_CODES = ['unsupported_format', 'unreadable', 'no_text', 'too_large', 'encrypted'];

async function extractQuickly(input: ExtractionInput): Promise<ExtractionResult> {
  const started = performance.now();
  const result = await extractDocumentText(input);
  expect(performance.now() - started).toBeLessThan(QUICK_MS);
  if (result.kind === 'failed') {
    expect(FAILURE_CODES).toContain(result.code);
    expect(result.message.length).toBeGreaterThan(10);
  } else {
    expectConsistentPassages(result);
  }
  return result;
}

const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/** Overwrites `count` bytes at seeded positions, keeping the first and last KiB (header, %%EOF, ZIP directory). */
function mutate(bytes: Uint8Array, seed: number, count = 40): Uint8Array {
  const copy = new Uint8Array(bytes);
  const noise = seededBytes(count * 5, seed);
  const span = copy.byteLength - 2048;
  for (let index = 0; index < count; index += 1) {
    const position = 1024 + (new DataView(noise.buffer).getUint32(index * 4, true) % span);
    copy[position] = noise[count * 4 + index]!;
  }
  return copy;
}

describe('hostile input ends in a failed or truncated result, never a crash or a hang', () => {
  const declaredTypes = [
    ['random.pdf', MIME.pdf],
    ['random.docx', MIME.docx],
    ['random.xlsx', MIME.xlsx],
    ['random.csv', MIME.csv],
    ['random.txt', MIME.text],
    ['random.bin', MIME.binary],
  ] as const;

  it.each(declaredTypes)('random bytes named %s fail', async (fileName, mimeType) => {
    for (const seed of [1, 2, 3]) {
      expect(await extractQuickly({ bytes: seededBytes(64 * 1024, seed), fileName, mimeType })).toMatchObject({
        kind: 'failed',
      });
    }
  });

  // PDFs are read in a helper process (src/shared/isolated.ts); its start is not what is timed.
  beforeAll(async () => {
    await extractDocumentText({
      bytes: samplePdf('mustang-RE-20201121_508blanko.pdf'),
      fileName: 'contract.pdf',
      mimeType: MIME.pdf,
    });
  }, 60_000);

  it('a PDF whose page inflates to gigabytes is stopped, and the caller does not pay for it', async () => {
    const bomb = buildPdf({ deflatedContent: await deflatedSpaces(2048) });
    const before = process.memoryUsage.rss();
    // A quarter of the production limit: reaching 1.5 GiB took the helper 20-30 s of CPU.
    const memoryBytes = 384 * 2 ** 20;
    const result = await extractWithLimits(
      { bytes: bomb, fileName: 'bomb.pdf', mimeType: MIME.pdf },
      { ...DEFAULT_LIMITS, memoryBytes },
    );
    expect(result).toMatchObject({ kind: 'failed', code: 'too_large', message: expect.stringContaining('384 MiB') });
    expect(process.memoryUsage.rss() - before).toBeLessThan(256 * 2 ** 20);
    // Its helper was killed; the start of the next one is not what the next tests time.
    await extractDocumentText({ bytes: utf8('warm-up'), fileName: 'warm.txt', mimeType: 'text/plain' });
  }, 60_000);

  it('random bytes behind a PDF header and before %%EOF fail', async () => {
    const bytes = concat(utf8('%PDF-1.7\n'), seededBytes(32 * 1024, 7), utf8('\n%%EOF\n'));
    expect(await extractQuickly({ bytes, fileName: 'x.pdf', mimeType: MIME.pdf })).toMatchObject({
      kind: 'failed',
      code: 'unreadable',
    });
  });

  it('random bytes behind a ZIP signature fail as unreadable', async () => {
    const bytes = concat(new Uint8Array([0x50, 0x4b, 0x03, 0x04]), seededBytes(32 * 1024, 8));
    expect(await extractQuickly({ bytes, fileName: 'x.docx', mimeType: MIME.docx })).toMatchObject({
      kind: 'failed',
      code: 'unreadable',
    });
  });

  it('a damaged real PDF ends in text or a failure', async () => {
    const original = samplePdf('corpus-Hetzner_2016-01-19_R0005532486.pdf');
    for (const seed of [11, 12, 13, 14, 15])
      await extractQuickly({ bytes: mutate(original, seed), fileName: 'x.pdf', mimeType: MIME.pdf });
  });

  it('a damaged XLSX ends in text or a failure', async () => {
    const original = await buildXlsx({
      Prices: Array.from({ length: 300 }, (_, index) => [`SKU-${index}`, 'Screw', index]),
    });
    for (const seed of [21, 22, 23, 24, 25])
      await extractQuickly({ bytes: mutate(original, seed, 10), fileName: 'x.xlsx', mimeType: MIME.xlsx });
  });

  /** A small valid workbook with one part rewritten. */
  async function xlsxWithEdit(part: string, edit: (xml: string) => string): Promise<Uint8Array> {
    const zip = await JSZip.loadAsync(
      await buildXlsx({
        Prices: [
          ['Item', 'Price'],
          ['Bolt', 2],
        ],
      }),
    );
    zip.file(part, edit(await zip.file(part)!.async('string')));
    return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
  }
  const SHEET = 'xl/worksheets/sheet1.xml';
  const WHOLE_SHEET = 'A1:XFD1048576';

  // Measured without the defences: exceljs expanded the merged cells, the column range and the
  // defined name cell by cell until a 4 GB heap was full, and ran for minutes on the validation;
  // the row loop would have counted to 300 million.
  it.each([
    [
      'merged cells',
      SHEET,
      (xml: string) =>
        xml.replace('</sheetData>', `</sheetData><mergeCells count="1"><mergeCell ref="A3:XFD1048576"/></mergeCells>`),
    ],
    [
      'data validations',
      SHEET,
      (xml: string) =>
        xml.replace(
          '</sheetData>',
          `</sheetData><dataValidations count="1"><dataValidation type="list" sqref="${WHOLE_SHEET}"><formula1>"a,b"</formula1></dataValidation></dataValidations>`,
        ),
    ],
    [
      'column ranges',
      SHEET,
      (xml: string) => xml.replace('<sheetData>', '<cols><col min="1" max="2000000000" width="9"/></cols><sheetData>'),
    ],
    [
      'a defined name',
      'xl/workbook.xml',
      (xml: string) =>
        xml.replace(
          /<definedNames\/>|<\/sheets>/,
          (match) =>
            `${match === '</sheets>' ? match : ''}<definedNames><definedName name="all">Prices!$A$1:$XFD$1048576</definedName></definedNames>`,
        ),
    ],
    [
      'a row numbered 300,000,000',
      SHEET,
      (xml: string) =>
        xml.replace('</sheetData>', '<row r="300000000"><c r="A300000000"><v>5</v></c></row></sheetData>'),
    ],
  ])('an XLSX with %s spanning the whole sheet is read quickly', async (_case, part, edit) => {
    const bytes = await xlsxWithEdit(part, edit);
    const result = expectText(await extractQuickly({ bytes, fileName: 'x.xlsx', mimeType: MIME.xlsx }));
    expect(result.passages[0]!.text).toBe('Item | Price\nBolt | 2');
  });

  it('an XLSX with an impossible column fails as unreadable', async () => {
    const bytes = await xlsxWithEdit(SHEET, (xml) =>
      xml.replace('</sheetData>', '<row r="3"><c r="ZZZZZ3"><v>5</v></c></row></sheetData>'),
    );
    expect(await extractQuickly({ bytes, fileName: 'x.xlsx', mimeType: MIME.xlsx })).toMatchObject({
      kind: 'failed',
      code: 'unreadable',
    });
  });

  it('an empty file fails with no_text', async () => {
    expect(await extractQuickly({ bytes: new Uint8Array(0), fileName: 'empty.pdf', mimeType: MIME.pdf })).toMatchObject(
      { kind: 'failed', code: 'no_text' },
    );
  });

  it('a file over 50 MiB is refused before it is read', async () => {
    const bytes = new Uint8Array(DEFAULT_LIMITS.maxInputBytes + 1);
    expect(await extractQuickly({ bytes, fileName: 'big.txt', mimeType: MIME.text })).toMatchObject({
      kind: 'failed',
      code: 'too_large',
    });
  });

  it('text beyond 2,000,000 characters is cut at a word end and marked truncated', async () => {
    const text = contractParagraph(2_600_000);
    const result = expectText(await extractQuickly({ bytes: utf8(text), fileName: 'huge.txt', mimeType: MIME.text }));
    expect(result.truncated).toBe(true);
    expect(result.characterCount).toBeLessThanOrEqual(DEFAULT_LIMITS.maxCharacters);
    expect(result.characterCount).toBeGreaterThan(DEFAULT_LIMITS.maxCharacters - 200);
    expect(text[result.characterCount]).toBe(' ');
    const last = result.passages.at(-1)!;
    expect(text.slice(last.startOffset, last.endOffset)).toBe(last.text);
  });

  it('a password-protected Office file fails as encrypted; a legacy .doc as unsupported', async () => {
    const ole2 = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const encrypted = concat(ole2, new Uint8Array(512), Buffer.from('EncryptionInfo', 'utf16le'), new Uint8Array(512));
    expect(await extractQuickly({ bytes: encrypted, fileName: 'avtale.docx', mimeType: MIME.docx })).toMatchObject({
      kind: 'failed',
      code: 'encrypted',
    });
    const legacy = concat(ole2, new Uint8Array(512), Buffer.from('WordDocument', 'utf16le'));
    expect(
      await extractQuickly({ bytes: legacy, fileName: 'avtale.doc', mimeType: 'application/msword' }),
    ).toMatchObject({ kind: 'failed', code: 'unsupported_format' });
  });

  it('an image fails as unsupported_format; text named .pdf as unreadable', async () => {
    const png = concat(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), seededBytes(100, 9));
    expect(await extractQuickly({ bytes: png, fileName: 'scan.png', mimeType: 'image/png' })).toMatchObject({
      kind: 'failed',
      code: 'unsupported_format',
    });
    expect(await extractQuickly({ bytes: utf8('not a pdf'), fileName: 'terms.pdf', mimeType: MIME.pdf })).toMatchObject(
      { kind: 'failed', code: 'unreadable' },
    );
  });
});
