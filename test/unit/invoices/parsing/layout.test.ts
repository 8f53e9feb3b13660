// The layout reader's pieces on positioned words (the shape OCR words will have too), and the
// whole reader on generated invoices of the extraction corpus, each checked against its ground truth.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dateIn, findDateInText } from '../../../../src/invoices/parsing/layout/dates.js';
import { buildLines } from '../../../../src/shared/layout/lines.js';
import { parseAmount, parseNumber, voteDecimalMark } from '../../../../src/shared/layout/numbers.js';
import { readInvoiceFromWords } from '../../../../src/invoices/parsing/layout/reader.js';
import { parseHeaderLine, readTable } from '../../../../src/invoices/parsing/layout/table.js';
import { wordsFromTextItems, type Word } from '../../../../src/shared/layout/words.js';
import { parseChecked } from './samples.js';

/** Words of one line: "text@x" each, 9 units high, on baseline y. */
function line(y: number, ...cells: string[]): Word[] {
  return cells.flatMap((cell) => {
    const [text = '', x = '0'] = cell.split('@');
    let left = Number(x);
    return text.split(' ').map((part) => {
      const word = { text: part, x: left, y, width: part.length * 4.5, height: 9, page: 1 };
      left += part.length * 4.5 + 2.5;
      return word;
    });
  });
}

describe('numbers, one convention per document', () => {
  it.each([
    ['1 234,56', ',', '1234.56'],
    ['1.234,56', ',', '1234.56'],
    ['1,234.56', '.', '1234.56'],
    ["1'234.56", '.', '1234.56'],
    ['-100,00', ',', '-100.00'],
    ['100,00-', ',', '-100.00'],
    ['(100.00)', '.', '-100.00'],
    ['€1,250.00', '.', '1250.00'],
    ['1 250,00 kr', ',', '1250.00'],
  ] as const)('%s under "%s" is %s', (raw, mark, expected) => {
    expect(parseAmount(raw, mark)).toBe(expected);
  });

  it('reads "1.234" by the document, not by the number', () => {
    expect(parseNumber('1.234', ',')).toBe('1234');
    expect(parseNumber('1.234', '.')).toBe('1.234');
    expect(parseAmount('1.234.56', '.')).toBeNull();
  });

  it('votes the decimal mark over all numbers of the document', () => {
    expect(voteDecimalMark(['1.234,56', '12,50', '3'])).toBe(',');
    expect(voteDecimalMark(['1,234.56', '12.50'])).toBe('.');
    expect(voteDecimalMark(['2025', '12'])).toBeNull();
  });
});

describe('dates in eight languages', () => {
  it.each([
    ['19.01.2016', '2016-01-19'],
    ['8 Jul 2025', '2025-07-08'],
    ['8. juli 2025', '2025-07-08'],
    ['July 8, 2025', '2025-07-08'],
    ['1er mars 2025', '2025-03-01'],
    ['8. heinäkuuta 2025', '2025-07-08'],
    ['8 augustus 2025', '2025-08-08'],
    ['3. März 2025', '2025-03-03'],
    ['2025-07-08', '2025-07-08'],
    ['08-Jul-2025', '2025-07-08'],
  ])('%s', (text, iso) => {
    const found = findDateInText(text);
    expect(found && dateIn(found, 'dmy')).toBe(iso);
  });

  it('keeps both readings of 03/04/2025 until the document decides', () => {
    const found = findDateInText('03/04/2025');
    expect(found && dateIn(found, 'dmy')).toBe('2025-04-03');
    expect(found && dateIn(found, 'mdy')).toBe('2025-03-04');
    expect(dateIn(findDateInText('03.04.2025')!, 'mdy')).toBe('2025-04-03');
  });
});

describe('words and lines', () => {
  it('splits pdf.js items into words and keeps thousands spaces inside numbers', () => {
    const words = wordsFromTextItems(
      [{ str: 'Total 1 234,56 EUR', transform: [10, 0, 0, 10, 100, 700], width: 90 }],
      1,
      842,
    );
    expect(words.map((word) => word.text)).toEqual(['Total', '1 234,56', 'EUR']);
    expect(words[0]).toMatchObject({ page: 1, y: 142, height: 10 });
  });

  it('joins fragments split inside a word, not two words printed edge to edge', () => {
    const words = wordsFromTextItems(
      [
        { str: 'RE-20', transform: [10, 0, 0, 10, 100, 700], width: 25 },
        { str: '201121', transform: [10, 0, 0, 10, 125, 700], width: 30 },
        { str: 'Artikelnummer', transform: [10, 0, 0, 10, 200, 700], width: 60 },
        { str: 'Beschreibung', transform: [10, 0, 0, 10, 260, 700], width: 55 },
      ],
      1,
      842,
    );
    expect(words.map((word) => word.text)).toEqual(['RE-20201121', 'Artikelnummer', 'Beschreibung']);
  });

  it('groups words on a baseline into cells separated by column gaps', () => {
    const [first] = buildLines(line(100, 'Invoice no:@40', '2025-17@200'));
    expect(first?.segments.map((segment) => segment.text)).toEqual(['Invoice no:', '2025-17']);
  });
});

describe('the line table', () => {
  it('finds a header row in any of the languages', () => {
    for (const header of [
      'Pos@40|Artikelnr.@70|Beschreibung@140|Menge@320|Einzelpreis@400|Gesamtpreis@480',
      'Rad@40|Benämning@80|Antal@320|À-pris@400|Belopp@480',
      'Désignation@40|Qté@320|Prix unitaire@380|Montant HT@480',
    ]) {
      const words = header.split('|').flatMap((cell) => line(200, cell));
      const [headerLine] = buildLines(words);
      expect(parseHeaderLine(headerLine!)?.columns.length, header).toBeGreaterThanOrEqual(3);
    }
  });

  it('joins wrapped descriptions, skips carry-forwards and page subtotals, keeps freight', () => {
    const words = [
      ...line(200, 'Description@40', 'Qty@300', 'Unit price@380', 'Amount@480'),
      ...line(214, 'Consulting services for@40', '2@310', '100.00@380', '200.00@480'),
      ...line(225, 'the migration project@40'),
      ...line(239, 'Carried forward@40', '200.00@480'),
      ...line(253, 'Freight@40', '1@310', '15.50@380', '15.50@480'),
      ...line(267, 'Subtotal@300', '215.50@480'),
    ];
    const table = readTable(buildLines(words), '.');
    expect(table?.rows.map((row) => [row.cells.description, row.cells.amount])).toEqual([
      ['Consulting services for the migration project', '200.00'],
      ['Freight', '15.50'],
    ]);
    expect(table?.skippedRows).toBe(1);
  });

  it('reads a header printed over three lines, keeping a two-word label of the middle line whole', () => {
    // "Prix" above and "unitaire" below the middle line; "Prix HT" on it is the line amount.
    const words = [
      ...line(191, 'Prix@390'),
      ...line(197, 'Description@40', 'Quantité@300', 'Rem.@440', 'Prix HT@490'),
      ...line(203, 'unitaire@384'),
      ...line(220, 'Nougat 250g@40', '5 Unit(s)@300', '4,55 €@384', '10%@440', '-20,48 €@490'),
      ...line(238, "Huile d'olive@40", '10 Liter(s)@300', '19,80 €@384', '-198,00 €@490'),
    ];
    const table = readTable(buildLines(words), ',');
    expect(table?.roles).toEqual(['description', 'quantity', 'unitPrice', 'discount', 'amount']);
    expect(table?.rows.map((row) => [row.cells.quantity, row.cells.unitPrice, row.cells.amount])).toEqual([
      ['5 Unit(s)', '4,55 €', '-20,48'],
      ['10 Liter(s)', '19,80 €', '-198,00'],
    ]);
  });

  it('keeps a second identifier under the item number (a GTIN) out of the description', () => {
    const words = [
      ...line(200, 'Art-Nr@40', 'Beschreibung@120', 'Nettopreis@300', 'Menge@380', 'Nettobetrag@470'),
      ...line(214, 'TB100A4@40', 'Trennblätter A4@120', '9,9000@300', '20 Stk@380'),
      ...line(222, '4012345001235@40', '198,00@480'),
      ...line(230, '(GTIN)@40'),
    ];
    const table = readTable(buildLines(words), ',');
    expect(table?.rows.map((row) => [row.cells.itemNumber, row.cells.description, row.cells.unitPrice])).toEqual([
      ['TB100A4', 'Trennblätter A4', '9,9000'],
    ]);
  });

  it('keeps quantity and price where the header puts them when swapping them verifies no more rows', () => {
    // OCR read one price with a point on a comma invoice and lost another: the header's reading
    // verifies one row, and swapping quantity and price (q × p = p × q) verifies no more.
    const words = [
      ...line(200, 'Tekst@40', 'Ant.@300', 'Pris@380', 'Sum@480'),
      ...line(214, 'Dokkingstasjon@40', '365@310', '566,89@380', '206 914,85@480'),
      ...line(228, 'Installasjon@40', '27@310', '98.85@380', '2 668,95@480'),
      ...line(242, 'Support@40', '12@310', '8 241,48@480'),
    ];
    const table = readTable(buildLines(words), ',');
    expect(table?.rows.map((row) => [row.cells.quantity, row.cells.unitPrice])).toEqual([
      ['365', '566,89'],
      ['27', '98.85'],
      ['12', undefined],
    ]);
  });
});

describe('the reader checks itself', () => {
  const invoiceWords = (lineAmount: string) => [
    ...line(40, 'Nordlys Data AS@40', 'FAKTURA@450'),
    ...line(80, 'Fakturanummer@300', '2025-17@420'),
    ...line(92, 'Fakturadato@300', '03.04.2025@420'),
    ...line(104, 'Forfallsdato@300', '17.04.2025@420'),
    ...line(200, 'Beskrivelse@40', 'Antall@300', 'Pris@380', 'Beløp@480'),
    ...line(214, 'Konsulenttimer@40', '10@310', '1 000,00@380', `${lineAmount}@480`),
    ...line(240, 'Sum eks. mva@300', '10 000,00@480'),
    ...line(252, 'MVA 25 %@300', '2 500,00@480'),
    ...line(264, 'Å betale NOK@300', '12 500,00@480'),
    ...line(800, 'Nordlys Data AS · Org.nr. 912 345 678 MVA@40'),
  ];

  it('reads a consistent invoice with full confidence and no review', () => {
    const outcome = readInvoiceFromWords(invoiceWords('10 000,00'));
    expect(outcome).toMatchObject({
      kind: 'invoice',
      invoice: {
        invoiceNumber: '2025-17',
        issueDate: '2025-04-03',
        dueDate: '2025-04-17',
        currencyCode: 'NOK',
        supplier: { name: 'Nordlys Data AS', orgNumber: '912345678', vatId: 'NO912345678MVA' },
        totals: { taxExclusive: '10000.00', vatTotal: '2500.00', taxInclusive: '12500.00', payable: '12500.00' },
        lines: [{ description: 'Konsulenttimer', quantity: '10', unitPrice: '1000.00', netAmount: '10000.00' }],
        extraction: { method: 'pdf_text', needsReview: false, linesReliable: true },
      },
    });
    if (outcome.kind === 'invoice') expect(outcome.invoice.extraction.confidence?.lines).toBe(1);
  });

  it('keeps a reading that does not add up and marks it for review', () => {
    const outcome = readInvoiceFromWords(invoiceWords('11 000,00'));
    expect(outcome.kind).toBe('invoice');
    if (outcome.kind !== 'invoice') return;
    expect(outcome.invoice.lines[0]?.netAmount).toBe('11000.00');
    expect(outcome.invoice.extraction).toMatchObject({ needsReview: true, linesReliable: false });
    expect(outcome.invoice.extraction.reviewReasons?.join(' ')).toMatch(/quantity × unit price/);
    expect(outcome.invoice.extraction.confidence?.lines).toBeLessThan(0.5);
  });

  it('refuses a letter, an order and a manual, and only those', () => {
    const letter = [
      ...line(40, 'Dear customer,@40'),
      ...line(60, 'we are moving to a new office on 1 May.@40'),
      ...line(80, 'Kind regards@40'),
    ];
    expect(readInvoiceFromWords(letter).kind).toBe('not_invoice');
    const order = [
      ...line(40, 'PURCHASE ORDER@40'),
      ...line(60, 'Order number@40', '4711@200'),
      ...line(100, 'Total@300', '1,200.00@480'),
    ];
    expect(readInvoiceFromWords(order).kind).toBe('not_invoice');
  });
});

describe('the extraction corpus', () => {
  const corpus = path.resolve(import.meta.dirname, '../../../fixtures/extraction-corpus');
  // One invoice per layout: the bench reads them all (npm run bench:extraction).
  const files = readdirSync(corpus)
    .filter((name) => name.endsWith('.pdf'))
    .filter((name, index, all) => all.findIndex((other) => other.split('-')[1] === name.split('-')[1]) === index);

  it.each(files)('%s matches its ground truth', async (file) => {
    const truth = JSON.parse(readFileSync(path.join(corpus, file.replace(/\.pdf$/, '.json')), 'utf8')) as {
      header: Record<string, string>;
      lines: Array<Record<string, string>>;
    };
    const outcome = await parseChecked(new Uint8Array(readFileSync(path.join(corpus, file))));
    expect(outcome.kind).toBe('invoice');
    if (outcome.kind !== 'invoice') return;
    const { invoice } = outcome;
    expect(invoice.invoiceNumber).toBe(truth.header.invoiceNumber);
    expect(invoice.issueDate).toBe(truth.header.issueDate);
    expect(invoice.totals.taxInclusive).toBe(truth.header['totals.taxInclusive']);
    expect(invoice.lines).toHaveLength(truth.lines.length);
    expect(invoice.lines.map((line) => line.netAmount)).toEqual(truth.lines.map((line) => line.netAmount));
    expect(invoice.extraction.needsReview).toBe(false);
    // Where the values were read from: the number's and the total's own words, and every line's row.
    const sources = invoice.extraction.sources ?? {};
    const alnum = (text: string) => text.replace(/[^\p{L}\p{N}]/gu, '');
    expect(alnum(sources.invoiceNumber?.text ?? '')).toContain(alnum(truth.header.invoiceNumber ?? ''));
    const digits = (text: string) => text.replace(/\D/g, '');
    expect(digits(sources['totals.taxInclusive']?.text ?? '')).toBe(digits(truth.header['totals.taxInclusive'] ?? ''));
    expect(invoice.extraction.lineSources).toHaveLength(invoice.lines.length);
    for (const source of [...Object.values(sources), ...(invoice.extraction.lineSources ?? [])]) {
      expect(source).not.toBeNull();
      const { x, y, width, height } = source!.box;
      expect(Math.min(x, y, width, height)).toBeGreaterThanOrEqual(0);
      expect(Math.max(x + width, y + height)).toBeLessThanOrEqual(1.0001);
    }
  });
});
