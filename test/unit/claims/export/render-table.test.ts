import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { CLAIM_COLUMNS } from '../../../../src/claims/export/columns.js';
import type { ClaimLetter } from '../../../../src/claims/export/letter.js';
import { buffer } from 'node:stream/consumers';
import { renderClaimCsv, renderClaimXlsx, streamClaimCsv } from '../../../../src/claims/export/render-table.js';
import { FORMULA_DESCRIPTION, letter, line, longLetter, SPECIAL_LETTERS } from './letters.js';

// The spreadsheet exports are read back with the libraries a receiving system would use: exceljs
// for XLSX (cell types, number formats, frozen header) and csv-parse for CSV.

const HEADERS = CLAIM_COLUMNS.map((column) => column.header);
const column = (key: string) => CLAIM_COLUMNS.findIndex((c) => c.key === key) + 1;

/** Lines a spreadsheet would run: formula-looking text, a negative amount, a tab and CR first. */
function trickyLetter(): ClaimLetter {
  return letter({
    lines: [
      line({ description: FORMULA_DESCRIPTION, unit: '@HUR', citation: '+47 22 00 00 00 said so' }),
      line({
        alertId: 'a2',
        description: '-5% volume discount not given',
        difference: '-12.50',
        chargedAmount: '-12.50',
        agreedAmount: '0.00',
        quantity: '-1',
        chargedUnitPrice: '12.50',
        agreedUnitPrice: '0.000125',
      }),
      line({
        alertId: 'a3',
        description: '\tTabbed',
        explanation: '\rCarriage return',
        title: `Prüfung ${SPECIAL_LETTERS}`,
      }),
    ],
  });
}

async function readXlsx(letterToRender: ClaimLetter): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  const bytes = await renderClaimXlsx(letterToRender);
  // exceljs types want an ArrayBuffer; hand it exactly the rendered bytes.
  await workbook.xlsx.load(new Uint8Array(bytes).buffer);
  return workbook;
}

describe('claim XLSX', () => {
  it('has the table columns, a frozen header and one row per line in the letter order', async () => {
    const claim = longLetter();
    const workbook = await readXlsx(claim);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      'Claim lines',
      'Totals',
      'Refunds received',
      'Claim',
    ]);
    const sheet = workbook.getWorksheet('Claim lines')!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(HEADERS);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.rowCount).toBe(1 + claim.lines.length);
    claim.lines.forEach((l, index) => {
      expect(sheet.getRow(index + 2).getCell(column('alert_id')).value).toBe(l.alertId);
      expect(sheet.getRow(index + 2).getCell(column('alert_status')).value).toBe(l.alertStatus);
    });
  });

  it('writes amounts and quantities as number cells with their decimals, and dates as dates', async () => {
    const claim = trickyLetter();
    const sheet = (await readXlsx(claim)).getWorksheet('Claim lines')!;
    const discount = sheet.getRow(3);
    for (const [key, value, format] of [
      ['difference', -12.5, '#,##0.00'],
      ['charged_amount', -12.5, '#,##0.00'],
      ['quantity', -1, '#,##0'],
      ['agreed_unit_price', 0.000125, '#,##0.000000'],
    ] as const) {
      const cell = discount.getCell(column(key));
      expect(cell.type, key).toBe(ExcelJS.ValueType.Number);
      expect(cell.value, key).toBe(value);
      expect(cell.numFmt, key).toBe(format);
    }
    const first = sheet.getRow(2);
    expect(first.getCell(column('charged_unit_price')).value).toBe(1250);
    expect(first.getCell(column('quantity')).value).toBe(12.5);
    expect(first.getCell(column('quantity')).numFmt).toBe('#,##0.0');
    const date = first.getCell(column('invoice_date'));
    expect(date.type).toBe(ExcelJS.ValueType.Date);
    expect((date.value as Date).toISOString()).toBe('2026-03-14T00:00:00.000Z');
  });

  it('keeps formula-looking text as text, unchanged', async () => {
    const sheet = (await readXlsx(trickyLetter())).getWorksheet('Claim lines')!;
    const description = sheet.getRow(2).getCell(column('description'));
    expect(description.type).toBe(ExcelJS.ValueType.String);
    expect(description.value).toBe(FORMULA_DESCRIPTION);
    expect(sheet.getRow(2).getCell(column('unit')).value).toBe('@HUR');
    expect(sheet.getRow(4).getCell(column('finding')).value).toBe(`Prüfung ${SPECIAL_LETTERS}`);
    let formulas = 0;
    sheet.eachRow((row) => row.eachCell((cell) => (formulas += cell.type === ExcelJS.ValueType.Formula ? 1 : 0)));
    expect(formulas).toBe(0);
  });

  it('has the totals per currency and the refunds as numbers', async () => {
    const claim = longLetter();
    const workbook = await readXlsx(claim);
    const totals = workbook.getWorksheet('Totals')!;
    expect((totals.getRow(1).values as unknown[]).slice(1)).toEqual([
      'Currency',
      'Claimed',
      'Refunds received',
      'Outstanding',
    ]);
    expect(totals.rowCount).toBe(1 + 3);
    claim.totals.forEach((total, index) => {
      const row = totals.getRow(index + 2);
      expect(row.getCell(1).value).toBe(total.currencyCode);
      expect([row.getCell(2).value, row.getCell(3).value, row.getCell(4).value]).toEqual([
        Number(total.claimed),
        Number(total.refunded),
        Number(total.outstanding),
      ]);
      expect(row.getCell(4).type).toBe(ExcelJS.ValueType.Number);
    });
    const refunds = workbook.getWorksheet('Refunds received')!;
    expect(refunds.getRow(2).getCell(2).value).toBe(500);
    expect((refunds.getRow(2).getCell(1).value as Date).toISOString()).toBe('2026-05-20T00:00:00.000Z');
    expect(refunds.getRow(3).getCell(4).value).toBeNull();
    const facts = workbook.getWorksheet('Claim')!;
    expect(facts.getRow(1).values).toEqual([undefined, 'Reference to quote', claim.reference]);
  });
});

describe('claim CSV', () => {
  it('has the same columns, exact decimal strings and the letters as written', () => {
    const claim = longLetter();
    const csv = renderClaimCsv(claim);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const rows: string[][] = parse(csv, { bom: true });
    expect(rows[0]).toEqual(HEADERS);
    expect(rows.length).toBe(1 + claim.lines.length);
    claim.lines.forEach((l, index) => {
      const row = rows[index + 1]!;
      expect(row[column('difference') - 1]).toBe(l.difference);
      expect(row[column('agreed_unit_price') - 1]).toBe(l.agreedUnitPrice);
      expect(row[column('invoice_number') - 1]).toBe(l.invoiceNumber);
      expect(row[column('invoice_date') - 1]).toBe(l.issueDate);
      expect(row[column('alert_id') - 1]).toBe(l.alertId);
    });
  });

  it('streams the same bytes it renders whole, with no lines too', async () => {
    for (const claim of [longLetter(), trickyLetter(), letter({ lines: [] })])
      expect((await buffer(streamClaimCsv(claim))).equals(Buffer.from(renderClaimCsv(claim), 'utf8'))).toBe(true);
  });

  it('neutralises text a spreadsheet would execute, but not amounts', () => {
    const rows: Record<string, string>[] = parse(renderClaimCsv(trickyLetter()), { bom: true, columns: true });
    expect(rows[0]!['Description']).toBe(`'${FORMULA_DESCRIPTION}`);
    expect(rows[0]!['Unit']).toBe("'@HUR");
    expect(rows[0]!['Agreed per (citation)']).toBe("'+47 22 00 00 00 said so");
    expect(rows[1]!['Description']).toBe("'-5% volume discount not given");
    expect(rows[1]!['Difference']).toBe('-12.50');
    expect(rows[1]!['Charged amount']).toBe('-12.50');
    expect(rows[1]!['Quantity']).toBe('-1');
    expect(rows[1]!['Agreed unit price']).toBe('0.000125');
    expect(rows[2]!['Description']).toBe("'\tTabbed");
    expect(rows[2]!['Explanation']).toBe("'\rCarriage return");
    expect(rows[2]!['Finding']).toBe(`Prüfung ${SPECIAL_LETTERS}`);
    // Ordinary text is left alone.
    expect(rows[2]!['Invoice number']).toBe('INV-2026-0141');
  });

  it('neutralises a number column that does not hold a decimal', () => {
    const rows: Record<string, string>[] = parse(
      renderClaimCsv(letter({ lines: [line({ quantity: '=1+1', difference: '-0.01' })] })),
      { bom: true, columns: true },
    );
    expect(rows[0]!['Quantity']).toBe("'=1+1");
    expect(rows[0]!['Difference']).toBe('-0.01');
  });

  it('writes empty cells for what the line does not have', () => {
    const claim = letter();
    const rows: Record<string, string>[] = parse(renderClaimCsv(claim), { bom: true, columns: true });
    const wholeInvoice = rows[2]!;
    expect(wholeInvoice['Line']).toBe('');
    expect(wholeInvoice['Charged unit price']).toBe('');
    expect(wholeInvoice['Difference']).toBe('350.00');
  });
});
