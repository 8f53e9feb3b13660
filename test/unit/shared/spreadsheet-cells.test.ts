import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neutraliseNumberCell, neutraliseText, toSafeCsv } from '../../../src/shared/spreadsheet-cells.js';

const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r', '\n', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'];

describe('spreadsheet cells', () => {
  it('turn text a spreadsheet would run into plain text', () => {
    expect(neutraliseText('=HYPERLINK("http://evil","x")')).toBe(`'=HYPERLINK("http://evil","x")`);
    expect(neutraliseText('+1+1')).toBe(`'+1+1`);
    expect(neutraliseText('-2+3')).toBe(`'-2+3`);
    expect(neutraliseText('@SUM(A1)')).toBe(`'@SUM(A1)`);
    expect(neutraliseText('\t=1')).toBe(`'\t=1`);
    expect(neutraliseText('\r=1')).toBe(`'\r=1`);
    expect(neutraliseText('Freight, "express"')).toBe('Freight, "express"');
    expect(neutraliseText('')).toBe('');
  });

  it('leave plain decimals in number columns, negative ones included', () => {
    expect(neutraliseNumberCell('-12.50')).toBe('-12.50');
    expect(neutraliseNumberCell('100.00')).toBe('100.00');
    expect(neutraliseNumberCell('-1+2')).toBe(`'-1+2`);
    expect(neutraliseNumberCell('=1')).toBe(`'=1`);
  });

  it('never let a text cell of a CSV start with a formula character', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), fc.string(), (texts, amount) => {
        const rows = [{ a: texts[0], b: texts[1] ?? null, amount }];
        const parsed = parse<Record<string, string>>(
          toSafeCsv(rows, { columns: ['a', 'b', 'amount'], numberColumns: ['amount'] }),
          { columns: true },
        );
        for (const value of [parsed[0]!.a!, parsed[0]!.b!]) expect(FORMULA_STARTS.includes(value[0] ?? '')).toBe(false);
        const cell = parsed[0]!.amount!;
        if (FORMULA_STARTS.includes(cell[0] ?? '')) expect(cell).toMatch(/^-\d+(\.\d+)?$/);
      }),
    );
  });

  it('write a header and empty cells for missing values', () => {
    expect(
      toSafeCsv([{ id: '1', amount: '-12.50' }, { id: '=2' }], {
        columns: ['id', 'amount'],
        numberColumns: ['amount'],
      }),
    ).toBe("id,amount\n1,-12.50\n'=2,\n");
  });
});
