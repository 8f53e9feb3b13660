import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { outcomes, readWorkbook, rowAt, workbookOf } from './fixtures.js';

const day = (year: number, month: number, date: number) => new Date(Date.UTC(year, month - 1, date));

describe('XLSX cells', () => {
  it('reads title rows, numbers, dates, formulas, rich text and links', async () => {
    const workbook = workbookOf({
      Prislista: [
        ['Prislista 2026'],
        ['Leverantör AB'],
        ['Giltig från 2026-01-01'],
        [null],
        ['Artikelnummer', 'Benämning', 'Enhet', 'Pris', 'Gäller till'],
        [1001, 'Skruv M8', 'st', 0.1 + 0.2, day(2026, 12, 31)],
        [
          'A-2',
          { richText: [{ text: 'Mutter ' }, { font: { bold: true }, text: 'M8' }] },
          'st',
          { formula: 'D6*2', result: 0.6 },
          '31.12.2026',
        ],
        [
          'A-3',
          { text: 'Bricka', hyperlink: 'https://example.com/bricka' },
          'st',
          1234.56,
          { formula: 'DATE(2026,6,30)', result: day(2026, 6, 30) },
        ],
        ['A-4', 'Plugg', 'st', { formula: 'D6*3' }, null],
        ['A-5', 'Kil', 'st', { error: '#DIV/0!' }, null],
        ['A-6', 'Spik', 'st', day(2026, 1, 1), null],
        ['A-7', 'Krok', 'st', 3, 46022],
        ['A-8', 'Tejp', 'st', '12,50', null],
      ],
    });
    workbook.getWorksheet('Prislista')!.getCell('E6').numFmt = 'yyyy-mm-dd';
    workbook.getWorksheet('Prislista')!.getCell('E8').numFmt = 'dd.mm.yyyy';
    const result = await readWorkbook(workbook, { defaultCurrency: 'SEK' });

    expect(result.sheets).toEqual([
      {
        name: 'Prislista',
        headerRowNumber: 5,
        columns: {
          sellerItemId: 'Artikelnummer',
          description: 'Benämning',
          unit: 'Enhet',
          price: 'Pris',
          validUntil: 'Gäller till',
        },
      },
    ]);
    expect(outcomes(result)).toEqual([
      '6 accepted',
      '7 accepted',
      '8 accepted',
      "9 rejected: price '=D6*3' is a formula with no saved result; open and save the file in Excel first",
      "10 rejected: price '#DIV/0!' is not a number",
      "11 rejected: price '2026-01-01' is a date, not a number",
      "12 rejected: valid until '46022' is a number, not a date",
      '13 accepted',
    ]);
    expect(rowAt(result, 6)).toEqual({
      sheet: 'Prislista',
      rowNumber: 6,
      raw: { Artikelnummer: '1001', Benämning: 'Skruv M8', Enhet: 'st', Pris: '0.3', 'Gäller till': '2026-12-31' },
      outcome: 'accepted',
      reason: null,
      item: {
        description: 'Skruv M8',
        sellerItemId: '1001',
        unit: 'st',
        currencyCode: 'SEK',
        price: { type: 'amount', amount: '0.3' },
        validFrom: null,
        validUntil: '2026-12-31',
      },
    });
    expect(rowAt(result, 7).item).toMatchObject({
      description: 'Mutter M8',
      price: { type: 'amount', amount: '0.6' },
      validFrom: null,
      validUntil: '2026-12-31',
    });
    expect(rowAt(result, 8).item).toMatchObject({
      description: 'Bricka',
      price: { type: 'amount', amount: '1234.56' },
      validFrom: null,
      validUntil: '2026-06-30',
    });
    expect(rowAt(result, 13).item?.price).toEqual({ type: 'amount', amount: '12.5' });
  });

  it('reads percent-formatted cells as fractions and currency formats as the currency', async () => {
    const workbook = workbookOf({
      Hinnasto: [
        ['Tuote', 'Hinta', 'Alennus', 'Peruste'],
        ['Laskutuslisä', null, 0.05, 'laskun summa'],
        ['Rahti', null, 2.5, 'rahti'],
        ['Käsittely', 0.03, null, 'tilausrivi'],
        ['Ruuvi', 12.5, null, null],
        ['Mutteri', 8, null, null],
        ['Aluslevy', 4, null, null],
      ],
    });
    const sheet = workbook.getWorksheet('Hinnasto')!;
    sheet.getCell('C2').numFmt = '0%';
    sheet.getCell('B4').numFmt = '0.0%';
    sheet.getCell('B5').numFmt = '#,##0.00 [$€-40B]';
    sheet.getCell('B6').numFmt = '"kr" #,##0.00';
    sheet.getCell('B7').numFmt = '[$SEK] #,##0.00';
    const result = await readWorkbook(workbook, { defaultCurrency: 'NOK' });
    expect(result.rows.map((row) => row.item?.price ?? row.reason)).toEqual([
      { type: 'rate', fraction: '0.05', basis: 'laskun summa' },
      { type: 'rate', fraction: '0.025', basis: 'rahti' },
      { type: 'rate', fraction: '0.03', basis: 'tilausrivi' },
      { type: 'amount', amount: '12.5' },
      { type: 'amount', amount: '8' },
      { type: 'amount', amount: '4' },
    ]);
    expect(result.rows.map((row) => row.item?.currencyCode)).toEqual(['NOK', 'NOK', 'NOK', 'EUR', 'NOK', 'SEK']);
  });

  it('reads a merged cell once, from its top-left cell', async () => {
    const workbook = workbookOf({
      Preise: [
        ['Preisliste'],
        ['Bezeichnung', 'Einheit', 'Einzelpreis', 'Währung'],
        ['Schraube', 'Stk', 1.2, 'EUR'],
        ['Mutter', 'Stk', 0.8, null],
      ],
    });
    const sheet = workbook.getWorksheet('Preise')!;
    sheet.mergeCells('A1:D1');
    sheet.mergeCells('D3:D4');
    const result = await readWorkbook(workbook, { defaultCurrency: 'CHF' });
    expect(result.sheets[0]?.headerRowNumber).toBe(2);
    expect(result.rows.map((row) => [row.rowNumber, row.item?.currencyCode])).toEqual([
      [3, 'EUR'],
      [4, 'CHF'],
    ]);
  });
});

describe('XLSX worksheets', () => {
  const threeSheets = () =>
    workbookOf({
      Norge: [['Prisliste'], ['Varenr', 'Beskrivelse', 'Enhet', 'Enhetspris'], ['N-1', 'Kabel', 'm', 10]],
      Danmark: [
        ['Varenummer', 'Varebeskrivelse', 'Enhed', 'Stykpris', 'Valuta'],
        ['D-1', 'Stik', 'stk', 25, 'DKK'],
      ],
      Blank: [],
    });

  it('reads every worksheet by default, in workbook order, and skips blank ones quietly', async () => {
    const result = await readWorkbook(threeSheets(), { defaultCurrency: 'NOK' });
    expect(result.complete).toBe(true);
    expect(result.sheets).toEqual([
      {
        name: 'Norge',
        headerRowNumber: 2,
        columns: { sellerItemId: 'Varenr', description: 'Beskrivelse', unit: 'Enhet', price: 'Enhetspris' },
      },
      {
        name: 'Danmark',
        headerRowNumber: 1,
        columns: {
          sellerItemId: 'Varenummer',
          description: 'Varebeskrivelse',
          unit: 'Enhed',
          price: 'Stykpris',
          currency: 'Valuta',
        },
      },
      { name: 'Blank', headerRowNumber: null, columns: {} },
    ]);
    expect(
      result.rows.map((row) => [
        row.sheet,
        row.rowNumber,
        row.item?.sellerItemId,
        row.item?.currencyCode,
        row.item?.price,
      ]),
    ).toEqual([
      ['Norge', 3, 'N-1', 'NOK', { type: 'amount', amount: '10' }],
      ['Danmark', 2, 'D-1', 'DKK', { type: 'amount', amount: '25' }],
    ]);
  });

  it('reads only the worksheets named, matching names loosely', async () => {
    const result = await readWorkbook(threeSheets(), { defaultCurrency: 'NOK', worksheets: ['danmark '] });
    expect(result.complete).toBe(true);
    expect(result.sheets.map((sheet) => sheet.name)).toEqual(['Danmark']);
    expect(result.rows.map((row) => row.item?.sellerItemId)).toEqual(['D-1']);
  });

  it('marks the result incomplete when a named worksheet is missing, keeping the rows it found', async () => {
    const result = await readWorkbook(threeSheets(), { defaultCurrency: 'NOK', worksheets: ['Norge', 'Sverige'] });
    expect(result).toMatchObject({
      kind: 'read',
      complete: false,
      failure: {
        code: 'extraction_incomplete',
        message: "worksheet 'Sverige' was not found; the workbook has 'Norge', 'Danmark', 'Blank'",
      },
    });
    expect(result.rows.map((row) => row.item?.sellerItemId)).toEqual(['N-1']);
  });

  it('marks the result incomplete when a sheet with content has no header row', async () => {
    const workbook = workbookOf({
      Prices: [
        ['Item', 'Price'],
        ['Bolt', 1],
      ],
      Notes: [['Delivery within 5 days'], ['Call us']],
    });
    const result = await readWorkbook(workbook);
    expect(result).toMatchObject({
      kind: 'read',
      complete: false,
      failure: {
        code: 'extraction_incomplete',
        message:
          "sheet 'Notes' has no header row: none of its first 30 rows names a price column and another known column (description, article number, unit, ...)",
      },
    });
    expect(outcomes(result)).toEqual(['2 accepted']);
  });

  it('fails with no_header_row when no worksheet has a header', async () => {
    const result = await readWorkbook(workbookOf({ Notes: [['Hello'], ['World']] }));
    expect(result.kind).toBe('failed');
    expect(result.failure?.code).toBe('no_header_row');
    expect(result.sheets).toEqual([{ name: 'Notes', headerRowNumber: null, columns: {} }]);
  });

  it('finds a header that starts in a later column', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Offset');
    sheet.getCell('C4').value = 'Product';
    sheet.getCell('D4').value = 'Net price';
    sheet.getCell('C5').value = 'Cable tie';
    sheet.getCell('D5').value = 0.15;
    const result = await readWorkbook(workbook);
    expect(result.sheets[0]).toEqual({
      name: 'Offset',
      headerRowNumber: 4,
      columns: { description: 'Product', price: 'Net price' },
    });
    expect(result.rows[0]?.raw).toEqual({ 'column A': '', 'column B': '', Product: 'Cable tie', 'Net price': '0.15' });
    expect(result.rows[0]?.item?.price).toEqual({ type: 'amount', amount: '0.15' });
  });
});
