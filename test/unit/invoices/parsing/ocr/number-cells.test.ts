// Number cells of a scanned line table read again where their row does not add up
// (docs/invoice-parsing.md, "Scans (OCR)", step 5c): which cells, and which second reading wins.
import { describe, expect, it } from 'vitest';
import {
  cleanedNumber,
  replacementsFor,
  rowsToReread,
  withLostDecimalMark,
  withReplacedCells,
  type CellReading,
  type RowsToReread,
} from '../../../../../src/invoices/parsing/ocr/number-cells.js';
import { buildLines } from '../../../../../src/shared/layout/lines.js';
import type { Word } from '../../../../../src/shared/layout/words.js';

const PAGE_WIDTH = 595;

/** Words of one line: "text@x" each, 9 units high, on baseline y. */
function line(y: number, ...cells: string[]): Word[] {
  return cells.flatMap((cell) => {
    const [text = '', x = '0'] = cell.split('@');
    let left = Number(x);
    return text.split(' ').map((part) => {
      const word = { text: part, x: left, y, width: part.length * 4.5, height: 9, page: 1, confidence: 0.9 };
      left += part.length * 4.5 + 2.5;
      return word;
    });
  });
}

const HEADER = line(100, 'Description@40', 'Qty@300', 'Unit price@360', 'Amount@460');

function table(...rows: Word[][]): Word[] {
  return [...line(40, 'Invoice 1001'), ...HEADER, ...rows.flat(), ...line(260, 'Total@360', '100,00@460')];
}

/** A second reading of one cell of the request's first row: `text` where the cell starts. */
function reading(request: RowsToReread, role: string, ...texts: string[]): CellReading {
  const cell = request.cells.find((entry) => entry.row === 0 && entry.role === role);
  if (!cell) throw new Error(`no ${role} cell`);
  let x = cell.x0 + 2;
  const words = texts.map((text) => {
    const word = { text, x, y: 0, width: text.length * 4.5, height: 0, page: 0, confidence: 0.8 };
    x += text.length * 4.5 + 2.5;
    return word;
  });
  return { cell, words };
}

function request(words: Word[]): RowsToReread {
  const found = rowsToReread(words, PAGE_WIDTH);
  if (!found) throw new Error('no rows to read again');
  return found;
}

describe('number cells read again', () => {
  it('asks for the quantity, price and amount cells of the rows that do not add up, on their baseline', () => {
    const words = table(
      line(120, 'Widget@40', '2@300', '10,00@360', '20,00@460'),
      line(135, 'Gadget@40', '12,50@360', '37,50@460'),
    );
    const found = request(words);
    expect(found.mark).toBe(',');
    expect(found.rows.map((row) => row.cells.description)).toEqual(['Gadget']);
    expect(found.cells.map((cell) => cell.role)).toEqual(['quantity', 'unitPrice', 'amount']);
    const quantity = found.cells[0];
    expect(quantity?.baseline).toBe(135);
    expect(quantity?.x0).toBeLessThanOrEqual(300);
    expect(quantity?.x1).toBeGreaterThan(300 + 4.5);
    expect(quantity?.x1).toBeLessThanOrEqual(360);
    expect(quantity?.top).toBeLessThan(135 - 6.5);
    expect(quantity?.bottom).toBeLessThan(135 + 9);
  });

  it('asks for nothing when every row adds up, or the table has no column to check against', () => {
    expect(rowsToReread(table(line(120, 'Widget@40', '2@300', '10,00@360', '20,00@460')), PAGE_WIDTH)).toBeNull();
    const noPrice = [
      ...line(100, 'Description@40', 'Qty@300', 'Amount@460'),
      ...line(120, 'Widget@40', '2@300', '25,00@460'),
    ];
    expect(rowsToReread(noPrice, PAGE_WIDTH)).toBeNull();
  });

  it('takes the second reading of a cell OCR left out when it makes the row add up', () => {
    const found = request(table(line(135, 'Gadget@40', '12,50@360', '37,50@460')));
    const fix = replacementsFor(found, [reading(found, 'quantity', '3')]);
    expect(fix.map((entry) => [entry.cell.role, entry.words[0]?.text])).toEqual([['quantity', '3']]);
    expect(replacementsFor(found, [reading(found, 'quantity', '8')])).toEqual([]);
  });

  it('puts back a lost decimal mark and joins digit groups read as two words', () => {
    const found = request(
      table(
        line(120, 'Widget@40', '2@300', '10,00@360', '20,00@460'),
        line(135, 'Gadget@40', '4@300', '35973@360', '1 438,92@460'),
      ),
    );
    expect(replacementsFor(found, [reading(found, 'unitPrice')])[0]?.words[0]?.text).toBe('359,73');
    const fix = replacementsFor(found, [
      reading(found, 'unitPrice', '359', '73'),
      reading(found, 'amount', '1', '438,92'),
    ]);
    expect(fix.map((entry) => [entry.words[0]?.text, entry.wholeCell])).toEqual([['359,73', true]]);
  });

  it('puts a decimal mark back only in a column printed with two decimals', () => {
    const words = table(
      line(120, 'Widget@40', '2@300', '10,00@360', '20,00@460'),
      line(135, 'Screws per 100@40', '100@300', '2,50@360', '2,50@460'),
    );
    const found = request(words);
    expect(replacementsFor(found, [reading(found, 'quantity', '100')])).toEqual([]);
  });

  it('keeps the page reading when two different cells would each make the row add up', () => {
    const found = request(table(line(135, 'Gadget@40', '2@300', '5,00@360', '12,00@460')));
    const both = [reading(found, 'unitPrice', '6,00'), reading(found, 'amount', '10,00')];
    expect(replacementsFor(found, both)).toEqual([]);
    expect(replacementsFor(found, [both[0] as CellReading])).toHaveLength(1);
  });

  it('keeps the minus of a credit note the digit-only reading did not see', () => {
    const found = request(table(line(135, 'Refund@40', '2@300', '5,00@360', '-12,00@460')));
    const fix = replacementsFor(found, [reading(found, 'amount', '10,00')]);
    expect(fix[0]?.words[0]?.text).toBe('-10,00');
  });

  it("replaces the cell's number words on the row's baseline and keeps a unit written beside them", () => {
    const words = table(line(135, 'Gadget@40', 'l2 stk@300', '12,50@360', '37,50@460'));
    const found = request(words);
    const fix = replacementsFor(found, [reading(found, 'quantity', '3')]);
    const row = buildLines(withReplacedCells(words, fix)).find((entry) => entry.text.startsWith('Gadget'));
    expect(row?.words.map((word) => word.text)).toEqual(['Gadget', '3', 'stk', '12,50', '37,50']);
    expect(row?.words.find((word) => word.text === '3')).toMatchObject({ y: 135, height: 9, page: 1 });
  });

  it('puts a printed cell right where specks and OCR marred it', () => {
    expect(cleanedNumber('.149,00', ',')).toBe('149,00');
    expect(cleanedNumber('“40 720,78', ',')).toBe('40 720,78');
    expect(cleanedNumber('(6,094.54):', '.')).toBe('(6,094.54)');
    expect(cleanedNumber('-45,00', ',')).toBe('-45,00');
    expect(cleanedNumber("7.50'ea", '.')).toBe('7.50 ea');
    expect(cleanedNumber('8,507:55', '.')).toBe('8,507.55');
    expect(cleanedNumber('4 367;10', ',')).toBe('4 367,10');
    expect(cleanedNumber('lea', '.')).toBe('1ea');
    expect(cleanedNumber('12:30', '.')).toBe('12.30');
    expect(cleanedNumber('litre', '.')).toBe('litre');
  });

  it('offers a number with its lost decimal mark put back before the last two digits', () => {
    expect(withLostDecimalMark('250', ',')).toBe('2,50');
    expect(withLostDecimalMark('143892', '.')).toBe('1438.92');
    expect(withLostDecimalMark('8,50755', '.')).toBe('8507.55');
    expect(withLostDecimalMark('(609454)', '.')).toBe('(6094.54)');
    expect(withLostDecimalMark('12', ',')).toBe('12');
    expect(withLostDecimalMark('7 ea', '.')).toBe('7 ea');
  });

  it("takes the page's own reading put right before a second reading, keeping the unit printed in the cell", () => {
    const words = table(line(135, 'Gadget@40', "7.50'ea@300", '893,25@360', '6 699,38@460'));
    const found = request(words);
    const fix = replacementsFor(found, [reading(found, 'quantity', '7.504')]);
    expect(fix.map((entry) => [entry.words[0]?.text, entry.wholeCell])).toEqual([['7.50 ea', true]]);
    const row = buildLines(withReplacedCells(words, fix)).find((entry) => entry.text.startsWith('Gadget'));
    expect(row?.words.map((word) => word.text)).toEqual(['Gadget', '7.50 ea', '893,25', '6 699,38']);
  });
});
