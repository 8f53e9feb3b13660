import { describe, expect, it } from 'vitest';
import { buildLines } from '../../../../../src/shared/layout/lines.js';
import { detectLanguage } from '../../../../../src/invoices/parsing/ocr/languages.js';
import {
  binarizeAndDenoise,
  encodePgm,
  estimateSkew,
  parsePgm,
  removeSpecks,
  removeThinRules,
  rotate,
  type GrayImage,
} from '../../../../../src/invoices/parsing/ocr/raster.js';
import {
  baselineSkew,
  parseTesseractTsv,
  repairNumber,
  restoreSeparators,
  wordsFromTesseractTsv,
} from '../../../../../src/invoices/parsing/ocr/tesseract-tsv.js';
import { stackRegions, unreadRegions } from '../../../../../src/invoices/parsing/ocr/unread.js';

const HEADER = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';

interface Box {
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
  conf?: number;
  line?: number;
}

/** Tesseract's TSV for these word boxes (a page of 2480×3508 pixels, A4 at 300 dpi). */
function tsv(boxes: Box[]): string {
  const rows = [HEADER, '1\t1\t0\t0\t0\t0\t0\t0\t2480\t3508\t-1\t'];
  boxes.forEach((box, index) =>
    rows.push(
      `5\t1\t1\t1\t${box.line ?? 1}\t${index + 1}\t${box.left}\t${box.top}\t${box.width}\t${box.height}\t${box.conf ?? 95}\t${box.text}`,
    ),
  );
  return `${rows.join('\n')}\n`;
}

describe('tesseract TSV to layout words', () => {
  it('gives page units from the top left, the baseline as y and the font size as height', () => {
    // 10 pt at 300 dpi: an em of 41.7 px, capitals and digits 30 px tall; "Payment" descends 9 px.
    const { words } = wordsFromTesseractTsv(
      tsv([
        { text: 'Total', left: 300, top: 1000, width: 90, height: 30 },
        { text: 'Payment', left: 420, top: 1000, width: 150, height: 39 },
        { text: '1,234.56', left: 1800, top: 1000, width: 140, height: 34, conf: 88.4 },
      ]),
      { page: 2, dpi: 300 },
    );
    expect(words.map((word) => word.text)).toEqual(['Total', 'Payment', '1,234.56']);
    for (const word of words) {
      expect(word.page).toBe(2);
      // The baseline is where the words without descenders end: 1030 px = 247.2 pt.
      expect(word.y).toBeCloseTo(247.2, 1);
      expect(word.height).toBeGreaterThan(9);
      expect(word.height).toBeLessThan(11);
    }
    expect(words[0]?.x).toBeCloseTo(72, 6);
    expect(words[0]?.width).toBeCloseTo(21.6, 6);
    expect(words[2]?.confidence).toBe(0.88);
  });

  it('joins digit groups printed with a thousands space, and keeps column gaps', () => {
    const { words } = wordsFromTesseractTsv(
      tsv([
        { text: '12', left: 1200, top: 1000, width: 36, height: 30 },
        { text: '1', left: 1500, top: 1000, width: 14, height: 30 },
        { text: '234,56', left: 1530, top: 1000, width: 110, height: 34 },
      ]),
      { page: 1, dpi: 300 },
    );
    expect(words.map((word) => word.text)).toEqual(['12', '1 234,56']);
  });

  it('drops dirt read as marks, keeps separators, and strips a speck glued to a word', () => {
    const { words } = wordsFromTesseractTsv(
      tsv([
        { text: '.Dokkingstasjon', left: 300, top: 1000, width: 300, height: 39 },
        { text: "'", left: 700, top: 990, width: 6, height: 8 },
        { text: '·', left: 800, top: 1010, width: 6, height: 6 },
        { text: 'i', left: 900, top: 1000, width: 8, height: 30, conf: 30 },
        { text: 'Org.nr.', left: 1000, top: 1000, width: 120, height: 30 },
        { text: '‚24.304,82', left: 1500, top: 1000, width: 200, height: 34 },
      ]),
      { page: 1, dpi: 300 },
    );
    expect(words.map((word) => word.text)).toEqual(['Dokkingstasjon', '·', 'Org.nr.', '24.304,82']);
  });

  it('puts back the separator dot tesseract dropped between two items of a line, from the page ink', () => {
    const page = parseTesseractTsv(
      tsv([
        { text: 'Oslo', left: 600, top: 1000, width: 60, height: 30 },
        { text: 'Org.nr.', left: 700, top: 1000, width: 90, height: 30 },
        { text: '912345678', left: 800, top: 1000, width: 130, height: 30 },
      ]),
    );
    // A 4×4 dot at mid-height in the first gap; nothing in the second.
    const inkAt = (x: number, y: number) => x >= 678 && x < 682 && y >= 1012 && y < 1016;
    const words = restoreSeparators(page, inkAt).words.sort((a, b) => a.left - b.left);
    expect(words.map((word) => word.text)).toEqual(['Oslo', '·', 'Org.nr.', '912345678']);
  });

  it('keeps the words tesseract doubts only when asked, for a reading something else checks', () => {
    const text = tsv([
      { text: '1', left: 100, top: 100, width: 12, height: 30, conf: 20 },
      { text: '45,00', left: 300, top: 100, width: 80, height: 30, conf: 91 },
    ]);
    expect(parseTesseractTsv(text).words.map((word) => word.text)).toEqual(['45,00']);
    expect(parseTesseractTsv(text, { keepDoubted: true }).words.map((word) => word.text)).toEqual(['1', '45,00']);
  });

  it('puts back digits OCR confuses with letters, in numbers and codes only', () => {
    expect(repairNumber('1O0,00')).toBe('100,00');
    expect(repairNumber('l2.50')).toBe('12.50');
    expect(repairNumber('$265-86')).toBe('S265-86');
    expect(repairNumber('Ai28-71')).toBe('A128-71');
    expect(repairNumber('F2025OO17')).toBe('F20250017');
    expect(repairNumber('$265.86')).toBe('$265.86');
    expect(repairNumber('PO-4003')).toBe('PO-4003');
    expect(repairNumber('Oslo')).toBe('Oslo');
    expect(repairNumber('4ea')).toBe('4ea');
    expect(repairNumber('SCAN-55b5233¢')).toBe('SCAN-55b5233c');
    expect(repairNumber('¢d12-7')).toBe('cd12-7');
    expect(repairNumber('50¢')).toBe('50¢');
  });

  it('measures a residual skew from the baselines and turns the boxes back, so each line is one line again', () => {
    // Two table rows tilted by 1.5°: their words descend 26 px over 1000 px.
    const slope = Math.tan((1.5 * Math.PI) / 180);
    const row = (line: number, top: number) =>
      [200, 700, 1200, 1700, 2100].map((left, index) => ({
        text: ['A100-10', 'Widget', '4', '12.50', '50.00'][index] as string,
        left,
        top: Math.round(top + left * slope),
        width: 120,
        height: 30,
        line,
      }));
    const boxes = [...row(1, 1000), ...row(2, 1060)];
    expect(baselineSkew(parseTesseractTsv(tsv(boxes)).words)).toBeCloseTo(1.5, 0);
    const { words, residualSkew } = wordsFromTesseractTsv(tsv(boxes), { page: 1, dpi: 300 });
    expect(residualSkew).toBeCloseTo(1.5, 0);
    const lines = buildLines(words);
    expect(lines).toHaveLength(2);
    expect(lines.map((line) => line.words.map((word) => word.text))).toEqual([
      ['A100-10', 'Widget', '4', '12.50', '50.00'],
      ['A100-10', 'Widget', '4', '12.50', '50.00'],
    ]);
    for (const line of lines)
      for (const word of line.words) expect(Math.abs(word.x - (line.words[0]?.x ?? 0))).toBeGreaterThanOrEqual(0);
  });
});

/** A white page with dark bars where text lines would be, and a column of "words" on each. */
function textLikePage(width = 1200, height = 1600): GrayImage {
  const pixels = new Uint8Array(width * height).fill(255);
  for (let top = 150; top < height - 150; top += 60) {
    for (let left = 100; left < width - 200; left += 150) {
      for (let y = top; y < top + 22; y += 1)
        for (let x = left; x < left + 110; x += 1) if ((x + y) % 7 !== 0) pixels[y * width + x] = 20;
    }
  }
  return { width, height, pixels };
}

describe('deskew and denoise', () => {
  it('finds the angle a page was rotated by, and straightening it leaves none', () => {
    const page = textLikePage();
    for (const degrees of [1.2, -0.7, 2]) {
      // rotate() straightens lines at an angle: the opposite angle tilts straight ones.
      const tilted = rotate(page, -degrees);
      expect(Math.abs(estimateSkew(tilted) - degrees)).toBeLessThan(0.1);
      expect(Math.abs(estimateSkew(rotate(tilted, estimateSkew(tilted))))).toBeLessThan(0.1);
    }
    expect(estimateSkew(page)).toBe(0);
  });

  it('removes specks on blank paper and keeps a full stop next to its digits', () => {
    const width = 400;
    const height = 200;
    const pixels = new Uint8Array(width * height).fill(240);
    const ink = (x0: number, y0: number, w: number, h: number) => {
      for (let y = y0; y < y0 + h; y += 1) for (let x = x0; x < x0 + w; x += 1) pixels[y * width + x] = 10;
    };
    ink(100, 100, 30, 30); // a digit
    ink(134, 126, 4, 4); // its full stop, 4 px away
    ink(300, 40, 3, 3); // a speck alone
    ink(50, 170, 1, 1); // a one-pixel speck
    const clean = removeSpecks(binarizeAndDenoise({ width, height, pixels }));
    const at = (x: number, y: number) => clean.pixels[y * width + x];
    expect(at(110, 110)).toBe(0);
    expect(at(135, 127)).toBe(0);
    expect(at(301, 41)).toBe(255);
    expect(at(50, 170)).toBe(255);
  });

  it('erases a ruling line broken into dashes that runs close under a header row, and keeps the letters', () => {
    const width = 600;
    const height = 120;
    const pixels = new Uint8Array(width * height).fill(255);
    const ink = (x0: number, y0: number, w: number, h: number) => {
      for (let y = y0; y < y0 + h; y += 1) for (let x = x0; x < x0 + w; x += 1) pixels[y * width + x] = 0;
    };
    // Header "letters": strokes 30 px tall with thin bars at their tops, like "T" or "E".
    for (let x = 40; x < 520; x += 24) {
      ink(x, 40, 4, 30);
      ink(x - 6, 40, 16, 3);
    }
    // The rule 5 px under the letters' feet, 2 px thick, broken into 18 px dashes with 6 px gaps.
    for (let x = 20; x < 580; x += 24) ink(x, 75, 18, 2);
    const clean = removeThinRules({ width, height, pixels }, { minRun: 120, maxThickness: 6, maxGap: 14 });
    const at = (x: number, y: number) => clean.pixels[y * width + x];
    for (let x = 20; x < 580; x += 1) expect(at(x, 75)).toBe(255);
    expect(at(41, 55)).toBe(0); // a stroke
    expect(at(36, 41)).toBe(0); // the thin bar on top of it stays: the stroke is under it
  });

  it('reads and writes the binary PGM pdftoppm and tesseract speak', () => {
    const image = { width: 3, height: 2, pixels: Uint8Array.from([0, 128, 255, 1, 2, 3]) };
    expect(parsePgm(encodePgm(image))).toEqual(image);
    expect(() => parsePgm(new TextEncoder().encode('P6\n1 1\n255\nabc'))).toThrow(/PGM/);
  });
});

describe('language of a page', () => {
  it('is told by its labels, also when an English model dropped the diacritics', () => {
    expect(
      detectLanguage(['Fakturanummer: 100101', 'Forfallsdato 15.01.2026', 'Totalbelop 250 499,07', 'Sum eks. mva']),
    ).toBe('no');
    expect(detectLanguage(['Rechnungsnummer 4711', 'Zahlbar bis 01.02.2025', 'Gesamtbetrag'])).toBe('de');
    expect(detectLanguage(['Invoice number 12', 'Due date', 'Amount due'])).toBe('en');
    expect(detectLanguage(['12345', '99,00'])).toBeNull();
  });
});

describe('ink the page segmentation left unread', () => {
  it('finds a column of text outside the blocks read, and not a vertical rule or a speck', () => {
    const width = 1200;
    const height = 600;
    const pixels = new Uint8Array(width * height).fill(255);
    const ink = (x0: number, y0: number, w: number, h: number) => {
      for (let y = y0; y < y0 + h; y += 1) for (let x = x0; x < x0 + w; x += 1) pixels[y * width + x] = 0;
    };
    // Rows of "words" at x 100-500 (read) and a column of "digits" at x 800-860 (not read).
    for (let row = 0; row < 6; row += 1) {
      for (let x = 100; x < 500; x += 20) ink(x, 100 + row * 60, 8, 30);
      for (let x = 800; x < 860; x += 20) ink(x, 100 + row * 60, 8, 30);
    }
    ink(1000, 50, 3, 500); // a vertical rule
    ink(1100, 560, 3, 3); // a speck
    const read = [{ left: 95, top: 95, width: 410, height: 340 }];
    const regions = unreadRegions({ width, height, pixels }, read, 300);
    expect(regions).toHaveLength(1);
    const [region] = regions;
    expect(region!.left).toBeLessThanOrEqual(800);
    expect(region!.left + region!.width).toBeGreaterThanOrEqual(860);
    expect(region!.top).toBeLessThanOrEqual(100);
    expect(region!.top + region!.height).toBeGreaterThanOrEqual(430);
    expect(region!.left + region!.width).toBeLessThan(1000);
    const stacked = stackRegions({ width, height, pixels }, [region!, region!], 50);
    expect(stacked.tops).toEqual([0, region!.height + 50]);
    const at = (y: number) => stacked.image.pixels[y * stacked.image.width + 800 - region!.left];
    expect(at(100 - region!.top)).toBe(0);
    expect(at(stacked.tops[1]! + 100 - region!.top)).toBe(0);
    expect(at(region!.height + 10)).toBe(255);
    expect(
      unreadRegions({ width, height, pixels }, [...read, { left: 790, top: 90, width: 80, height: 360 }], 300),
    ).toEqual([]);
  });

  it('tells the blocks tesseract read words in from its TSV', () => {
    const page = parseTesseractTsv(
      `${HEADER}\n2\t1\t1\t0\t0\t0\t90\t80\t400\t50\t-1\t\n5\t1\t1\t1\t1\t1\t100\t90\t60\t30\t95\tTotal\n2\t1\t2\t0\t0\t0\t900\t900\t40\t40\t-1\t\n`,
    );
    expect(page.blocks).toEqual([{ left: 90, top: 80, width: 400, height: 50 }]);
  });
});
