// Every parser of user text, fed hostile input of growing size, must take time that grows
// linearly: time(8n) / time(n) stays far below 64 (what quadratic work gives); only the two ends
// are timed, since only their ratio is judged. Each input is the
// kind that made a backtracking pattern go quadratic (long runs of one character with no match
// at the end). Timings are CPU time, the minimum of several repetitions, and the slack is wide, so
// a busy machine does not make the test flaky; quadratic work still fails it by a wide margin.
import { describe, expect, it } from 'vitest';
import { parseDirectives } from '../../../src/agreements/context-suggestions/directives.js';
import { isNumber } from '../../../src/agreements/documents/extraction/classify.js';
import { removeDefinedNames } from '../../../src/agreements/documents/extraction/spreadsheet.js';
import { currencyInHeader, currencyInNumberFormat } from '../../../src/agreements/price-lists/currency.js';
import { parseNumberText } from '../../../src/agreements/price-lists/numbers.js';
import { phraseMatches, phrasePattern } from '../../../src/documents/search/text.js';
import { unwrapFramedFinvoice } from '../../../src/invoices/parsing/detect.js';
import { readInvoiceFromWords } from '../../../src/invoices/parsing/layout/reader.js';
import type { Word } from '../../../src/shared/layout/words.js';
import { cleanedNumber, rowsToReread, withLostDecimalMark } from '../../../src/invoices/parsing/ocr/number-cells.js';
import { parseXmlInvoice } from '../../../src/invoices/parsing/xml-invoice.js';
import { loadXml } from '../../../src/invoices/parsing/xml.js';

// Sizes large enough that a quadratic parser's time is its quadratic part (a ratio near 64) and
// small enough to keep the suite's CPU down: this file was its largest unit cost.
const SIZES = [5_000, 40_000];
/**
 * The layout reader's grids count words, not characters, and a call costs far more per word:
 * 1,250 and 10,000 words (40 pages of a four-column table) give the same ratio of 8.
 */
const LAYOUT_SIZES = [1_250, 10_000];
/**
 * Repetitions of a timing, the minimum kept: more at the small size, whose samples are short. A
 * call at the large size takes up to seconds, and CPU time barely varies between two of them.
 */
const REPETITIONS = { small: 5, large: 2 };
const MAX_RATIO = 30;
/** Each timing runs the parser often enough to take at least this long, so timer noise does not count. */
const MIN_SAMPLE_MS = 5;

const encoder = new TextEncoder();

interface Case {
  name: string;
  input: (n: number) => unknown;
  run: (input: never) => unknown;
  /** The two sizes timed, SIZES unless given; their ratio is always 8. */
  sizes?: number[];
}

// `repeat(unit, n)`: `unit` repeated to about n characters.
const repeat = (unit: string, n: number) => unit.repeat(Math.max(1, Math.floor(n / unit.length)));

const CASES: Case[] = [
  {
    name: 'instruction directive, spaces before an invalid end',
    input: (n) => `Do not flag: pricing${' '.repeat(n)}!`,
    run: (text: string) => parseDirectives(text),
  },
  {
    name: 'instruction directive, a long reason',
    input: (n) => `- do not flag: unit_price for item "x" reason:${' \t'.repeat(n / 2)}x`,
    run: (text: string) => parseDirectives(text),
  },
  {
    name: 'instruction directive, an unclosed item',
    input: (n) => `do not flag: pricing for item "${repeat('\\a', n)}`,
    run: (text: string) => parseDirectives(text),
  },
  {
    name: 'instruction directive, many lines',
    input: (n) => repeat('do not flag: x (ref y\n', n),
    run: (text: string) => parseDirectives(text),
  },
  {
    name: 'price cell, letters before a currency symbol',
    input: (n) => `${'A'.repeat(n)}$$`,
    run: (text: string) => parseNumberText(text),
  },
  {
    name: 'price cell, spaced digits',
    input: (n) => `${repeat('1 ', n)}x`,
    run: (text: string) => parseNumberText(text),
  },
  {
    name: 'price cell, letters after a number',
    input: (n) => `12 ${'a'.repeat(n)}.`,
    run: (text: string) => parseNumberText(text),
  },
  {
    name: 'number format, unclosed [$',
    input: (n) => `${repeat('[$[', n)}-[$\u0000]`,
    run: (text: string) => currencyInNumberFormat(text),
  },
  {
    name: 'number format, unclosed [',
    input: (n) => '['.repeat(n),
    run: (text: string) => currencyInNumberFormat(text),
  },
  {
    name: 'number format, [$ with bad locales',
    input: (n) => repeat('[$x-1g', n),
    run: (text: string) => currencyInNumberFormat(text),
  },
  {
    name: 'price column header, dots',
    input: (n) => `\u0000${'.'.repeat(n)}.\u0000`,
    run: (text: string) => currencyInHeader(text),
  },
  {
    name: 'document word, closing brackets',
    input: (n) => `${')'.repeat(n)}\u0000`,
    run: (text: string) => isNumber(text),
  },
  { name: 'document word, opening brackets', input: (n) => `${'('.repeat(n)}x`, run: (text: string) => isNumber(text) },
  {
    name: 'workbook defined names, unclosed tags',
    input: (n) => `f${repeat('<definedNames:n', n)}>`,
    run: (text: string) => removeDefinedNames(text),
  },
  {
    name: 'workbook defined names, no tag end',
    input: (n) => repeat('<x:definedNames ', n),
    run: (text: string) => removeDefinedNames(text),
  },
  {
    name: 'Finvoice envelope, unclosed comments',
    input: (n) => encoder.encode(`<e>${repeat('-><!--!', n)}<?xml version="1.0"?><Finvoice></Finvoice>`),
    run: (bytes: Uint8Array) => unwrapFramedFinvoice(bytes),
  },
  {
    name: 'Finvoice envelope, processing instructions',
    input: (n) => encoder.encode(`<e/><?xml version="1.0"?>${repeat('<?x ', n)}<Finvoice></Finvoice>`),
    run: (bytes: Uint8Array) => unwrapFramedFinvoice(bytes),
  },
  {
    name: 'XML invoice, framed Finvoice with hostile prolog',
    input: (n) => encoder.encode(`<Envelope>${repeat('<!--', n)}</Envelope><Finvoice></Finvoice>`),
    run: (bytes: Uint8Array) => parseXmlInvoice(bytes),
  },
  {
    name: 'XML, references in text',
    input: (n) => encoder.encode(`<a>${repeat('&amp;&#65;&euro;&foo;', n)}</a>`),
    run: (bytes: Uint8Array) => loadXml(bytes),
  },
  {
    // Elements with as many attributes as one may have (MAX_XML_ATTRIBUTES_PER_ELEMENT); more are refused.
    name: 'XML, many attributes',
    input: (n) =>
      encoder.encode(`<r>${repeat(`<a ${Array.from({ length: 100 }, (_, i) => `a${i}="x"`).join(' ')}/>`, n)}</r>`),
    run: (bytes: Uint8Array) => loadXml(bytes),
  },
  {
    name: 'XML, an unclosed value after many lines',
    input: (n) => encoder.encode(`<a>${repeat('<b>x</b>\n', n)}<c x="`),
    run: (bytes: Uint8Array) => loadXml(bytes),
  },
  {
    name: 'XML, unclosed comments',
    input: (n) => encoder.encode(`<a>${repeat('<!--', n)}`),
    run: (bytes: Uint8Array) => loadXml(bytes),
  },
  {
    name: 'PDF layout, lines of labels without values',
    input: (n) => wordGrid(n / 20, 20, () => 'Rechnungsnr/'),
    run: (words: Word[]) => readInvoiceFromWords(words),
    sizes: LAYOUT_SIZES,
  },
  {
    name: 'PDF layout, a table of numbers under a header',
    input: (n) => [
      ...wordGrid(1, 4, (column) => ['Description', 'Qty', 'Price', 'Amount'][column] ?? ''),
      ...wordGrid(n / 4, 4, (column, row) => (column === 0 ? `Item${row}` : '1 234,56'), 1),
    ],
    run: (words: Word[]) => readInvoiceFromWords(words),
    sizes: LAYOUT_SIZES,
  },
  {
    name: 'PDF layout, one very long word',
    input: (n) => [{ text: `Net amount (${'s'.repeat(n)}`, x: 10, y: 10, width: 100, height: 10, page: 1 }],
    run: (words: Word[]) => readInvoiceFromWords(words),
  },
  {
    name: 'PDF layout, every word on one line',
    input: (n) => wordGrid(1, n / 10, (column) => (column % 2 === 0 ? 'Total:' : '1.234,56')),
    run: (words: Word[]) => readInvoiceFromWords(words),
  },
  {
    name: 'OCR number cell, marks between digits and no end',
    input: (n) => `1${':'.repeat(n)}1`,
    run: (text: string) => cleanedNumber(text, ','),
  },
  {
    name: 'OCR number cell, marks after a digit before a letter',
    input: (n) => `(1${"'".repeat(n)}x${"'".repeat(n)}1`,
    run: (text: string) => cleanedNumber(text, '.'),
  },
  {
    name: 'OCR number cell, digits and marks with a letter at the end',
    input: (n) => `-${repeat('1,', n)}x`,
    run: (text: string) => withLostDecimalMark(text, ','),
  },
  {
    name: 'OCR number cells, a table whose rows do not add up',
    input: (n) => [
      ...wordGrid(1, 4, (column) => ['Description', 'Qty', 'Price', 'Amount'][column] ?? ''),
      ...wordGrid(n / 4, 4, (column, row) => (column === 0 ? `Item${row}` : `${column}${row % 7},5`), 1),
    ],
    run: (words: Word[]) => rowsToReread(words, 595),
  },
  {
    name: 'search phrase highlighting',
    input: (n) => repeat('a ', n),
    run: (text: string) => phraseMatches(text, phrasePattern('a a a a b')),
  },
];

/** Words on a grid: `rows` lines of `columns` words, 12 units apart, pages of 60 lines. */
function wordGrid(rows: number, columns: number, text: (column: number, row: number) => string, firstRow = 0): Word[] {
  const words: Word[] = [];
  for (let row = 0; row < rows; row += 1) {
    const line = firstRow + row;
    for (let column = 0; column < columns; column += 1)
      words.push({
        text: text(column, row),
        x: 20 + column * 90,
        y: 40 + (line % 60) * 12,
        width: 60,
        height: 9,
        page: 1 + Math.floor(line / 60),
      });
  }
  return words;
}

/** The process's CPU time in ms (user and system, microsecond resolution). */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

// CPU time, not wall-clock time: on a busy machine (two unit workers beside the type check) a
// sample of seconds gets half a core while one of milliseconds often runs whole, which made a
// linear 1,000 → 8,000-word call (80 → 900 ms idle) time 75 → 2,625 ms, a ratio of 35.
function minimumMs(run: () => void, iterations: number, repetitions = REPETITIONS.small): number {
  let best = Infinity;
  for (let repetition = 0; repetition < repetitions; repetition += 1) {
    const started = cpuMs();
    for (let iteration = 0; iteration < iterations; iteration += 1) run();
    best = Math.min(best, cpuMs() - started);
  }
  return best;
}

/** How many calls at the smallest size take MIN_SAMPLE_MS (best of the repetitions); the same count is used at every size. */
function calibrate(run: () => void): number {
  let iterations = 1;
  while (iterations < 1_000_000 && minimumMs(run, iterations) < MIN_SAMPLE_MS) iterations *= 2;
  return iterations;
}

describe('parsers of user text take linear time on hostile input', () => {
  it.each(CASES)(
    '$name',
    ({ input, run, sizes = SIZES }) => {
      const call = (n: number) => {
        const value = input(n) as never;
        return () => void run(value);
      };
      // Calibrating runs the code at the small size often enough to compile it before anything is
      // timed (a separate warm-up at the large size cost a few seconds a case).
      const iterations = calibrate(call(sizes[0]!));
      const timings = sizes.map((n, index) =>
        minimumMs(call(n), iterations, index === 0 ? REPETITIONS.small : REPETITIONS.large),
      );
      const ratio = timings.at(-1)! / timings[0]!;
      expect(ratio, `ms per size ${sizes.join('/')}: ${timings.map((ms) => ms.toFixed(2)).join('/')}`).toBeLessThan(
        MAX_RATIO,
      );
    },
    120_000,
  );
});
