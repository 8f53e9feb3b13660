import { describe, expect, it } from 'vitest';
import { detectDelimiter, readCsv } from '../../../../src/agreements/price-lists/csv.js';
import { readPriceList } from '../../../../src/agreements/price-lists/index.js';
import { outcomes, readCsvText, rowAt } from './fixtures.js';

const encode = (text: string) => new TextEncoder().encode(text);

describe('CSV delimiters', () => {
  it.each([
    [',', 'Item,Price,Unit\nBolt,"1,50",pcs\n'],
    [';', 'Vare;Pris;Enhet\nBolt;1,50;stk\n'],
    ['\t', 'Tuote\tHinta\tYksikkö\nBolt\t1,50\tkpl\n'],
    ['|', 'Item|Price|Unit\nBolt|1.50|pcs\n'],
  ])('detects %j', (delimiter, text) => {
    expect(detectDelimiter(text)).toBe(delimiter);
  });

  it('prefers the delimiter that yields a header over one that merely repeats', () => {
    // Decimal commas in every row: splitting on "," would give regular rows too, but no header.
    expect(detectDelimiter('Varenavn;Pris\nBolt;1,50\nMutter;2,25\nSkive;0,75\n')).toBe(';');
  });
});

describe('CSV reading', () => {
  it('reads a semicolon file with title rows, BOM and quoted fields', async () => {
    const text =
      '\ufeffPrisliste 2026;;;\nLeverandør AS;;;\n\nArt.nr;Varenavn;Enhet;Pris\n100;"Kabel; 3x2,5";m;"1 234,50"\n101;"Rør ""ekstra""";stk;12\n';
    const result = await readCsvText(text);
    expect(result).toMatchObject({ kind: 'read', complete: true });
    expect(result.sheets).toEqual([
      {
        name: 'prices.csv',
        headerRowNumber: 4,
        columns: { sellerItemId: 'Art.nr', description: 'Varenavn', unit: 'Enhet', price: 'Pris' },
      },
    ]);
    expect(rowAt(result, 5)).toEqual({
      sheet: 'prices.csv',
      rowNumber: 5,
      raw: { 'Art.nr': '100', Varenavn: 'Kabel; 3x2,5', Enhet: 'm', Pris: '1 234,50' },
      outcome: 'accepted',
      reason: null,
      item: {
        description: 'Kabel; 3x2,5',
        sellerItemId: '100',
        unit: 'm',
        currencyCode: 'NOK',
        price: { type: 'amount', amount: '1234.5' },
        validFrom: null,
        validUntil: null,
      },
    });
    expect(rowAt(result, 6).item?.description).toBe('Rør "ekstra"');
  });

  it('numbers each record by the line it starts on, even after a multi-line field', async () => {
    const text = 'Item,Price\n"Cable\nred, 10 m",5.00\n\nPlug,2.00\n';
    const result = await readCsvText(text);
    expect(result.rows.map((row) => [row.rowNumber, row.item?.description])).toEqual([
      [2, 'Cable\nred, 10 m'],
      [5, 'Plug'],
    ]);
  });

  it('counts lines the same with Windows line endings', async () => {
    const result = await readCsvText('Item,Price\r\n"Cable\r\nred",5.00\r\n\r\nPlug,2.00\r\n');
    expect(result.rows.map((row) => [row.rowNumber, row.item?.description])).toEqual([
      [2, 'Cable\r\nred'],
      [5, 'Plug'],
    ]);
  });

  it('falls back to Windows-1252 when the bytes are not UTF-8', async () => {
    // "Varenavn;Pris\nBlåbær € pakke;12\n" as Windows-1252: å=E5, æ=E6, €=80
    const bytes = Uint8Array.from([
      ...encode('Varenavn;Pris\nBl'),
      0xe5,
      0x62,
      0xe6,
      0x72,
      0x20,
      0x80,
      ...encode(' pakke;12\n'),
    ]);
    const csv = readCsv(bytes, 'x.csv');
    expect(csv.encoding).toBe('windows-1252');
    const result = await readPriceList({ bytes, fileName: 'x.csv', defaultCurrency: 'NOK' });
    expect(result.rows[0]?.item?.description).toBe('Blåbær € pakke');
  });

  it('reads UTF-16 text, as Excel saves "Unicode text"', async () => {
    const text = '\ufeffBenämning\tPris\tValuta\nSkruv\t3,50\tSEK\n';
    const bytes = new Uint8Array(Buffer.from(text, 'utf16le'));
    const result = await readPriceList({ bytes, fileName: 'prices.txt', defaultCurrency: 'NOK' });
    expect(result.rows[0]?.item).toEqual({
      description: 'Skruv',
      sellerItemId: null,
      unit: null,
      currencyCode: 'SEK',
      price: { type: 'amount', amount: '3.5' },
      validFrom: null,
      validUntil: null,
    });
  });

  it('keeps cells right of the header and names blank or repeated headers by column', async () => {
    const result = await readCsvText('Item;Price;;Price\nBolt;1,50;x;2;note\n');
    expect(result.rows[0]?.raw).toEqual({
      Item: 'Bolt',
      Price: '1,50',
      'column C': 'x',
      'Price (column D)': '2',
      'column E': 'note',
    });
    expect(result.rows[0]?.item?.price).toEqual({ type: 'amount', amount: '1.5' });
  });

  it('keeps the rows before a quote that is never closed and reports the rest as unread', async () => {
    const result = await readCsvText('Item;Price\nBolt;1,50\n"Nut;2,00\nWasher;0,50\n');
    expect(outcomes(result)).toEqual(['2 accepted']);
    expect(result).toMatchObject({
      kind: 'read',
      complete: false,
      failure: {
        code: 'extraction_incomplete',
        message: 'line 3: a quoted field is never closed, so the file from line 3 on could not be read',
      },
    });
  });

  it('tolerates stray quotes and ragged rows', async () => {
    const result = await readCsvText('Item;Price;Unit\n12" pipe;4,00\nNut;2,00;pcs;extra\n');
    expect(outcomes(result)).toEqual(['2 accepted', '3 accepted']);
    expect(rowAt(result, 2).item?.description).toBe('12" pipe');
    expect(rowAt(result, 3).raw).toEqual({ Item: 'Nut', Price: '2,00', Unit: 'pcs', 'column D': 'extra' });
  });

  it('fails with no_header_row when no row looks like a header', async () => {
    const result = await readCsvText('Hello;World\n1;2\n');
    expect(result).toEqual({
      kind: 'failed',
      failure: {
        code: 'no_header_row',
        message:
          'the file has no header row: none of its first 30 rows names a price column and another known column (description, article number, unit, ...)',
      },
      sheets: [{ name: 'prices.csv', headerRowNumber: null, columns: {} }],
      rows: [],
      complete: false,
    });
  });

  it('fails with no_header_row for a file of blank lines', async () => {
    const result = await readCsvText('\n\n  \n\r\n');
    expect(result.kind).toBe('failed');
    expect(result.failure).toEqual({ code: 'no_header_row', message: 'the file has no data' });
  });
});
