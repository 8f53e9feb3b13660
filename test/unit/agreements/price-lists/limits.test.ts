import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { LIMITS, readPriceList } from '../../../../src/agreements/price-lists/index.js';
import { handMadeXlsx, readCsvText, readWorkbook, sheetRowXml, xlsxBytes, zipOf } from './fixtures.js';

const read = (bytes: Uint8Array, fileName: string) => readPriceList({ bytes, fileName, defaultCurrency: 'EUR' });

/** Deterministic "random" bytes (a linear congruential generator), so the test never flakes. */
function noise(length: number, seed = 42): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed;
  for (let index = 0; index < length; index++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

describe('size limits', () => {
  it('reads a 20,000-row XLSX', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Prices');
    sheet.addRow(['Price list 2026 - Supplier X']);
    sheet.addRow(['Article number', 'Description', 'Unit', 'Unit price', 'Valid until']);
    for (let index = 1; index <= 20_000; index++)
      sheet.addRow([`A-${index}`, `Item ${index}`, 'pcs', index + 0.1, new Date(Date.UTC(2026, 11, 31))]);
    const result = await readWorkbook(workbook);
    expect(result.complete).toBe(true);
    expect(result.rows).toHaveLength(20_000);
    expect(result.rows.every((row) => row.outcome === 'accepted')).toBe(true);
    expect(result.rows[0]).toMatchObject({
      rowNumber: 3,
      item: {
        sellerItemId: 'A-1',
        description: 'Item 1',
        price: { type: 'amount', amount: '1.1' },
        validUntil: '2026-12-31',
      },
    });
    expect(result.rows[19_999]).toMatchObject({
      rowNumber: 20_002,
      item: { sellerItemId: 'A-20000', price: { type: 'amount', amount: '20000.1' }, currencyCode: 'EUR' },
    });
  });

  it('stops at 50,000 data rows of a huge, highly compressed sheet and says so', async () => {
    const rows = [sheetRowXml(1, ['Item', 'Price'])];
    for (let rowNumber = 2; rowNumber <= 60_001; rowNumber++) rows.push(sheetRowXml(rowNumber, ['Bolt', 1.5]));
    const bytes = handMadeXlsx(rows.join(''));
    expect(bytes.length).toBeLessThan(1024 * 1024);
    const result = await read(bytes, 'huge.xlsx');
    expect(result).toMatchObject({
      kind: 'read',
      complete: false,
      failure: {
        code: 'extraction_incomplete',
        message: 'the file has more than 50,000 data rows; only the first 50,000 were read',
      },
    });
    expect(result.rows).toHaveLength(LIMITS.maxDataRows);
    expect(result.rows[49_999]).toMatchObject({
      rowNumber: 50_001,
      item: { description: 'Bolt', price: { type: 'amount', amount: '1.5' } },
    });
  });

  it('stops at 50,000 data rows of a CSV', async () => {
    const lines = ['Item;Price'];
    for (let index = 1; index <= 50_001; index++) lines.push(`Item ${index};${index},00`);
    const result = await readCsvText(lines.join('\n'));
    expect(result.complete).toBe(false);
    expect(result.failure?.code).toBe('extraction_incomplete');
    expect(result.rows).toHaveLength(50_000);
    expect(result.rows[49_999]).toMatchObject({
      rowNumber: 50_001,
      item: { description: 'Item 50000', price: { type: 'amount', amount: '50000' } },
    });
  });

  it('refuses a file over 20 MiB', async () => {
    const result = await read(new Uint8Array(LIMITS.maxInputBytes + 1), 'big.csv');
    expect(result).toEqual({
      kind: 'failed',
      failure: {
        code: 'too_large',
        message: 'the file is 20,971,521 bytes; at most 20,971,520 bytes (20 MiB) can be read',
      },
      sheets: [],
      rows: [],
      complete: false,
    });
  });

  it('refuses a zip bomb before exceljs inflates it', async () => {
    const bomb = handMadeXlsx(sheetRowXml(1, ['Item', 'Price']), [
      { name: 'xl/media/filler.bin', data: new Uint8Array(160 * 1024 * 1024) },
    ]);
    expect(bomb.length).toBeLessThan(LIMITS.maxInputBytes);
    const result = await read(bomb, 'bomb.xlsx');
    expect(result).toEqual({
      kind: 'failed',
      failure: { code: 'too_large', message: 'the workbook is too large to read: it expands to more than 150 MiB' },
      sheets: [],
      rows: [],
      complete: false,
    });
  });
});

describe('hostile and wrong files', () => {
  it('fails on random bytes named .xlsx', async () => {
    const result = await read(noise(4096), 'prices.xlsx');
    expect(result).toEqual({
      kind: 'failed',
      failure: {
        code: 'unreadable',
        message: "'prices.xlsx' is named .xlsx but is not an Excel workbook; it may be damaged",
      },
      sheets: [],
      rows: [],
      complete: false,
    });
  });

  it('fails on random bytes named .csv', async () => {
    expect((await read(noise(4096, 7), 'prices.csv')).failure).toEqual({
      code: 'unsupported_format',
      message: 'the file is neither CSV, XLSX, DOCX nor PDF',
    });
  });

  it('fails on an empty file', async () => {
    expect(await read(new Uint8Array(0), 'prices.csv')).toEqual({
      kind: 'failed',
      failure: { code: 'unreadable', message: 'the file is empty' },
      sheets: [],
      rows: [],
      complete: false,
    });
  });

  it('names old .xls workbooks, OpenDocument and other zips as unsupported, and a damaged PDF as unreadable', async () => {
    const xls = Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...noise(512)]);
    expect((await read(xls, 'prices.xls')).failure?.message).toBe(
      'this is an old Excel .xls workbook or a password-protected workbook; save it as .xlsx without a password, or as CSV',
    );
    expect((await read(new TextEncoder().encode('%PDF-1.7\n...'), 'prices.pdf')).failure?.code).toBe('unreadable');
    const ods = zipOf([
      { name: 'mimetype', data: 'application/vnd.oasis.opendocument.spreadsheet' },
      { name: 'content.xml', data: '<office:document-content/>' },
    ]);
    expect((await read(ods, 'prices.ods')).failure).toEqual({
      code: 'unsupported_format',
      message: 'this is an OpenDocument spreadsheet (.ods); save it as .xlsx or CSV',
    });
    expect((await read(zipOf([{ name: 'readme.txt', data: 'hello' }]), 'prices.zip')).failure).toEqual({
      code: 'unsupported_format',
      message: 'this is a zip file but not an Excel workbook',
    });
  });

  it('fails on a cut-off workbook', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Prices').addRow(['Item', 'Price']);
    const bytes = await xlsxBytes(workbook);
    const result = await read(bytes.subarray(0, Math.floor(bytes.length / 2)), 'prices.xlsx');
    expect(result).toEqual({
      kind: 'failed',
      failure: { code: 'unreadable', message: 'the workbook is damaged (no zip directory)' },
      sheets: [],
      rows: [],
      complete: false,
    });
  });

  it('fails on a workbook whose XML is garbage', async () => {
    const bytes = handMadeXlsx('<row r="1"><c r="A1" t="inlineStr"><is><t>Item</t></is></c>', []);
    const result = await read(bytes, 'prices.xlsx');
    expect(result.kind).toBe('failed');
    expect(result.failure?.code).toBe('unreadable');
    expect(result.failure?.message).toMatch(/^the workbook could not be read: /);
  });

  it('throws for a default currency that is not an ISO 4217 code (a caller bug, not bad input)', async () => {
    await expect(
      readPriceList({
        bytes: new TextEncoder().encode('Item;Price\nA;1\n'),
        fileName: 'p.csv',
        defaultCurrency: 'kroner',
      }),
    ).rejects.toThrow("defaultCurrency 'kroner' is not an ISO 4217 currency code");
  });
});
