// OCR misreads the reader puts right: a header word one slip from a column word, and the cells a
// scanned table's own columns show to be misread (docs/invoice-parsing.md, "Why lines fail").
import { describe, expect, it } from 'vitest';
import { repairNumberCells, repairOcrMisreads } from '../../../../../src/invoices/parsing/layout/ocr-misreads.js';
import { parseHeaderLine } from '../../../../../src/invoices/parsing/layout/table.js';
import type { ReadTable } from '../../../../../src/invoices/parsing/layout/table.js';
import type { InvoiceLine } from '../../../../../src/invoices/parsing/model.js';
import { isNoise } from '../../../../../src/invoices/parsing/ocr/tesseract-tsv.js';
import { buildLines } from '../../../../../src/shared/layout/lines.js';
import type { Word } from '../../../../../src/shared/layout/words.js';

/** One line of words, "text@x" per cell, 9 units high. */
function headerLine(...cells: string[]) {
  const words: Word[] = cells.flatMap((cell) => {
    const [text = '', x = '0'] = cell.split('@');
    let left = Number(x);
    return text.split(' ').map((part) => {
      const word = { text: part, x: left, y: 200, width: part.length * 4.5, height: 9, page: 1 };
      left += part.length * 4.5 + 2.5;
      return word;
    });
  });
  const [line] = buildLines(words);
  if (!line) throw new Error('no line');
  return line;
}

function roles(cells: string[]) {
  return parseHeaderLine(headerLine(...cells), true)?.columns.map((column) => column.roles[0]) ?? null;
}

function invoiceLine(fields: Partial<InvoiceLine>): InvoiceLine {
  return {
    id: null,
    description: 'Item',
    sellerItemId: null,
    buyerItemId: null,
    standardItemId: null,
    quantity: null,
    unitCode: null,
    unitPrice: null,
    priceBaseQuantity: null,
    netAmount: null,
    vatCategory: null,
    vatPercent: null,
    period: null,
    allowanceCharges: [],
    ...fields,
  };
}

describe('table header words misread by OCR', () => {
  it('reads a header word one letter from a column word as that column', () => {
    const printed = ['Item no.@40', 'Description@110', 'Qty@336', 'Unit@360', 'Unit price@422', 'Amount@524'];
    const misread = ['Jtem no.@40', ...printed.slice(1)];
    expect(roles(printed)).toHaveLength(6);
    expect(roles(misread)).toEqual(roles(printed));
  });

  it('splits two column words run together with their separator read as a letter', () => {
    // "Anzahl ME" read as one word "AnzahllME".
    expect(roles(['Pos@40', 'Beschreibung@110', 'AnzahllME@330', 'Einzelpreis@420', 'Gesamtpreis@500'])).toEqual([
      'position',
      'description',
      'quantity',
      'unit',
      'unitPrice',
      'amount',
    ]);
  });

  it('does not make a header of a line with no column word read exactly', () => {
    expect(roles(['Jtem@40', 'Descriptiom@110', 'Quantitx@336'])).toBeNull();
  });

  it('keeps a header word tesseract doubts when it has three letters ("PU.HT"), and drops dirt', () => {
    expect(isNoise('PU.HT', 28)).toBe(false);
    expect(isNoise('ee', 20)).toBe(true);
    expect(isNoise('—s_—s', 12)).toBe(true);
  });
});

describe('cells a scanned table shows to be misread', () => {
  it('gives a code the shape of its column where a letter was read as a digit', () => {
    const lines = repairOcrMisreads(
      ['A101-20', '8175-10', 'X948-50', 'x751-89', 'B180-64', '5683-64', 'A318-60', 'B969-74', 'X831-69'].map((code) =>
        invoiceLine({ sellerItemId: code }),
      ),
    );
    expect(lines.map((line) => line.sellerItemId)).toEqual([
      'A101-20',
      'B175-10',
      'X948-50',
      'X751-89',
      'B180-64',
      'S683-64',
      'A318-60',
      'B969-74',
      'X831-69',
    ]);
  });

  it('leaves codes alone when the column has no common shape', () => {
    const codes = ['8175-10', 'AB-1', 'X948', '12345'];
    const lines = repairOcrMisreads(codes.map((code) => invoiceLine({ sellerItemId: code })));
    expect(lines.map((line) => line.sellerItemId)).toEqual(codes);
  });

  it('reads a unit one similar letter or a speck from the column’s common unit as that unit', () => {
    const units = ['pcs', 'pes', 'pcs', 'pcs.', 'pcs', 'pcs', 'pcs', 'pcs', 'pcs', 'kg', 'km'];
    const lines = repairOcrMisreads(units.map((unit) => invoiceLine({ unitCode: unit })));
    expect(lines.map((line) => line.unitCode)).toEqual([
      'pcs',
      'pcs',
      'pcs',
      'pcs',
      'pcs',
      'pcs',
      'pcs',
      'pcs',
      'pcs',
      'kg',
      'km',
    ]);
  });

  it('drops a minus no other row has where the row multiplies out without it', () => {
    const lines = repairOcrMisreads([
      invoiceLine({ quantity: '365', unitPrice: '566.89', netAmount: '-206914.85' }),
      invoiceLine({ quantity: '27', unitPrice: '98.85', netAmount: '2668.95' }),
      invoiceLine({ quantity: '-38', unitPrice: '10.00', netAmount: '380.00' }),
      invoiceLine({ quantity: '2', unitPrice: '5.00', netAmount: '10.00' }),
    ]);
    expect(lines.map((line) => [line.quantity, line.netAmount])).toEqual([
      ['365', '206914.85'],
      ['27', '2668.95'],
      ['38', '380.00'],
      ['2', '10.00'],
    ]);
  });

  it('keeps the minus of a credit note’s amounts and of a row that does not multiply out', () => {
    const credit = [
      invoiceLine({ quantity: '13', unitPrice: '178.80', netAmount: '-2324.40' }),
      invoiceLine({ quantity: '2', unitPrice: '5.00', netAmount: '-10.00' }),
      invoiceLine({ quantity: '1', unitPrice: '8.00', netAmount: '-8.00' }),
    ];
    expect(repairOcrMisreads(credit).map((line) => line.netAmount)).toEqual(['-2324.40', '-10.00', '-8.00']);
    const withDiscount = [
      invoiceLine({ quantity: '2', unitPrice: '5.00', netAmount: '10.00' }),
      invoiceLine({ quantity: '3', unitPrice: '5.00', netAmount: '15.00' }),
      invoiceLine({ quantity: '4', unitPrice: '5.00', netAmount: '20.00' }),
      invoiceLine({ description: 'Rabatt', quantity: '1', unitPrice: '5.00', netAmount: '-4.00' }),
    ];
    expect(repairOcrMisreads(withDiscount).at(-1)?.netAmount).toBe('-4.00');
  });

  it('drops a mark a speck left after a cell’s last word, and keeps an inch mark after a digit', () => {
    const lines = repairOcrMisreads([
      invoiceLine({ description: 'Monitor 27 inch’', unitCode: 'kg:' }),
      invoiceLine({ description: 'Monitor 27"', unitCode: 'kpl -' }),
      invoiceLine({ description: 'Projectmanagement-', unitCode: 'Std.' }),
    ]);
    expect(lines.map((line) => [line.description, line.unitCode])).toEqual([
      ['Monitor 27 inch', 'kg'],
      ['Monitor 27"', 'kpl'],
      ['Projectmanagement', 'Std.'],
    ]);
  });

  it('puts back the decimal mark of a VAT rate no country charges, and leaves real rates alone', () => {
    const rates = repairOcrMisreads(
      ['55', '255', '25', '21', '0', '5.5'].map((vatPercent) => invoiceLine({ vatPercent })),
    );
    expect(rates.map((line) => line.vatPercent)).toEqual(['5.5', '25.5', '25', '21', '0', '5.5']);
  });

  it('reads a position between two that are one apart from it as the number between them', () => {
    const ids = (...read: string[]) => repairOcrMisreads(read.map((id) => invoiceLine({ id }))).map((line) => line.id);
    expect(ids('9', '10', '1', '12', '13')).toEqual(['9', '10', '11', '12', '13']);
    expect(ids('10', '20', '30', '40')).toEqual(['10', '20', '30', '40']);
    expect(ids('1', '2', '4', '5')).toEqual(['1', '2', '4', '5']);
  });

  it('reads a 1 or 0 misread as a letter in a column of numbers, and leaves a litre beside its number', () => {
    const table = {
      rows: [
        { cells: { quantity: 'i', amount: '10.00', description: 'i' }, lines: [], bands: [] },
        { cells: { quantity: '2 l', unitPrice: 'lO.5O' }, lines: [], bands: [] },
      ],
    } as unknown as ReadTable;
    const rows = repairNumberCells(table).rows.map((row) => row.cells);
    expect(rows).toEqual([
      { quantity: '1', amount: '10.00', description: 'i' },
      { quantity: '2 l', unitPrice: '10.50' },
    ]);
  });
});
