/**
 * Tesseract's TSV output (one row per page, block, paragraph, line and word, boxes in pixels)
 * turned into the layout reader's words (src/shared/layout/words.ts): page units, the origin at the top
 * left, `y` the baseline and `height` the font size, as pdf.js words are, so the reader's
 * thresholds (same line, column gap, thousands space) mean the same for a scan.
 *
 * Tesseract boxes are the ink of a word. The baseline is where the ink of words without
 * descenders ends, shared by all words of one OCR line; the font size follows from ink heights
 * (capitals and digits are about 0.72 em tall). A residual skew left after the image was
 * straightened is measured from the lines' baselines and the boxes are rotated back.
 */
import { MAX_WORDS_PER_PAGE, type Word } from '../../../shared/layout/words.js';
import type { PixelBox } from './unread.js';

/** One word row of the TSV (level 5), in pixels. */
export interface OcrWordBox {
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
  /** 0..100 as tesseract prints it. */
  conf: number;
  /** block.paragraph.line: the words tesseract put on one text line. */
  lineKey: string;
}

export interface TsvPage {
  words: OcrWordBox[];
  /** The page image's size in pixels (the level 1 row), when present. */
  width: number | null;
  height: number | null;
  /** The text blocks (level 2) tesseract read any word in, in pixels. */
  blocks: PixelBox[];
}

export interface WordsFromTsvOptions {
  page: number;
  /** Resolution the page was rendered at: pixels per inch. */
  dpi: number;
}

export interface OcrPageWords {
  words: Word[];
  /** The residual skew measured from the baselines and taken out of the boxes, in degrees. */
  residualSkew: number;
}

const POINTS_PER_INCH = 72;
/** Capital letters and digits of common invoice fonts are this share of the font size tall. */
const CAP_HEIGHT = 0.72;
const X_HEIGHT = 0.53;
const DESCENDER = 0.21;
/** Ink gaps narrower than this share of the font size between digit groups are a thousands space. */
const GROUP_GAP = 0.6;
const DESCENDERS = /[gjpqyQ,;()[\]{}|µ]/u;
const TALL = /[\p{Lu}\p{N}bdfhklt!?&%$€£#/\\ßðþ]|[\u00e0-\u00ff]/u;
const LEADING_GROUP = /^[-−(]?\d{1,3}(?: \d{3})*$/u;
const FOLLOWING_GROUP = /^\d{3}(?:[.,]\d{1,4})?[-)]?$/u;
/** A gap wider than this many font sizes is a column gap, where a separator is not printed. */
const MAX_SEPARATOR_GAP = 3;

/**
 * `keepDoubted`: keep the words tesseract doubts (a lone "1" at confidence 20), for a reading
 * that something else checks (the number cells' arithmetic, number-cells.ts).
 */
export function parseTesseractTsv(tsv: string, { keepDoubted = false } = {}): TsvPage {
  const words: OcrWordBox[] = [];
  const blocks = new Map<number, PixelBox>();
  const blocksRead = new Set<number>();
  let width: number | null = null;
  let height: number | null = null;
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    if (cells.length < 12 || cells[0] === 'level') continue;
    const [level, , block, paragraph, line, , left, top, boxWidth, boxHeight, conf] = cells.slice(0, 11).map(Number);
    // The text is the last column; a tab inside it is not something tesseract writes.
    const text = withoutLeadingDirt(cells.slice(11).join('\t').trim());
    if (level === 1) {
      width = boxWidth ?? null;
      height = boxHeight ?? null;
    }
    if (level === 2) blocks.set(block!, { left: left!, top: top!, width: boxWidth!, height: boxHeight! });
    if (level === 5 && text !== '') blocksRead.add(block!);
    if (level !== 5 || text === '' || !(conf! >= 0) || isNoise(text, keepDoubted ? 100 : conf!)) continue;
    words.push({
      text,
      left: left!,
      top: top!,
      width: boxWidth!,
      height: boxHeight!,
      conf: conf!,
      lineKey: `${block}.${paragraph}.${line}`,
    });
  }
  return { words, width, height, blocks: [...blocksRead].flatMap((block) => blocks.get(block) ?? []) };
}

/** Words of one OCR'd page in the reader's coordinates. */
export function wordsFromTesseractTsv(tsv: string, options: WordsFromTsvOptions): OcrPageWords {
  return wordsFromTsvPage(parseTesseractTsv(tsv), options);
}

export function wordsFromTsvPage(page: TsvPage, options: WordsFromTsvOptions): OcrPageWords {
  const residualSkew = baselineSkew(page.words);
  const boxes =
    Math.abs(residualSkew) >= 0.05 ? rotateBoxes(page.words, residualSkew, page.width, page.height) : page.words;
  const scale = POINTS_PER_INCH / options.dpi;
  const words: Word[] = [];
  for (const line of groupLines(boxes)) {
    const fontSize = lineFontSize(line);
    const baseline = lineBaseline(line, fontSize);
    for (const box of joinDigitGroups(line, fontSize)) {
      if (words.length >= MAX_WORDS_PER_PAGE) break;
      // Tesseract now and then puts words of two printed rows on one line: a word far from the
      // line's baseline keeps its own.
      const own = box.top + box.height - (DESCENDERS.test(box.text) ? DESCENDER * fontSize : 0);
      words.push({
        text: repairNumber(box.text),
        x: box.left * scale,
        y: (Math.abs(own - baseline) > 0.35 * fontSize ? own : baseline) * scale,
        width: box.width * scale,
        height: fontSize * scale,
        page: options.page,
        confidence: Math.round(Math.max(0, Math.min(100, box.conf))) / 100,
      });
    }
  }
  return { words, residualSkew };
}

/**
 * Tesseract drops the small marks that separate items on one line ("Acme AS · Org.nr 123 · VAT
 * no NO123MVA"), and the reader splits such lines at them. Where the page shows a small blot of
 * ink alone in the gap between two words of a line, a "·" is put back (a "|" for a thin upright
 * stroke). `inkAt(x, y)` tells whether a pixel of the page image is ink.
 */
export function restoreSeparators(page: TsvPage, inkAt: (x: number, y: number) => boolean): TsvPage {
  const restored: OcrWordBox[] = [...page.words];
  for (const line of groupLines(page.words)) {
    const em = lineFontSize(line);
    for (let index = 1; index < line.length; index += 1) {
      const previous = line[index - 1] as OcrWordBox;
      const next = line[index] as OcrWordBox;
      const x0 = Math.ceil(previous.left + previous.width + 2);
      const x1 = Math.floor(next.left - 2);
      if (x1 - x0 < 0.25 * em) continue;
      const y0 = Math.round(Math.min(previous.top, next.top));
      const y1 = Math.round(Math.max(previous.top + previous.height, next.top + next.height));
      let [minX, minY, maxX, maxY, count] = [Infinity, Infinity, -1, -1, 0];
      for (let y = y0; y <= y1; y += 1) {
        for (let x = x0; x <= x1; x += 1) {
          if (!inkAt(x, y)) continue;
          count += 1;
          minX = Math.min(minX, x);
          maxX = Math.max(maxX, x);
          minY = Math.min(minY, y);
          maxY = Math.max(maxY, y);
        }
      }
      if (count === 0) continue;
      const [blotWidth, blotHeight] = [maxX - minX + 1, maxY - minY + 1];
      const dot = blotWidth <= 0.3 * em && blotHeight <= 0.3 * em && maxY < y1 - 0.05 * em && minY > y0;
      const bar = blotWidth <= 0.15 * em && blotHeight >= 0.6 * em;
      if (!dot && !bar) continue;
      // A separator sits about midway in a gap of a word space or two; a speck in the wide gap
      // between two table columns is dirt, not a separator.
      const middle = (minX + maxX) / 2;
      if (x1 - x0 > MAX_SEPARATOR_GAP * em || Math.abs(middle - (x0 + x1) / 2) > 0.25 * (x1 - x0)) continue;
      restored.push({
        text: dot ? '·' : '|',
        left: minX,
        top: minY,
        width: blotWidth,
        height: blotHeight,
        conf: 60,
        lineKey: previous.lineKey,
      });
    }
  }
  return { ...page, words: restored };
}

function groupLines(boxes: readonly OcrWordBox[]): OcrWordBox[][] {
  const lines = new Map<string, OcrWordBox[]>();
  for (const box of boxes) {
    const line = lines.get(box.lineKey) ?? [];
    line.push(box);
    lines.set(box.lineKey, line);
  }
  return [...lines.values()].map((line) => line.sort((a, b) => a.left - b.left));
}

/** The font size of an OCR line in pixels: each word's ink height divided by its letters' share of the em. */
export function lineFontSize(line: readonly OcrWordBox[]): number {
  const estimates = typeset(line).map((box) => {
    const tall = TALL.test(box.text);
    const descends = DESCENDERS.test(box.text);
    const share = (tall ? CAP_HEIGHT : X_HEIGHT) + (descends ? DESCENDER : 0);
    return box.height / share;
  });
  return median(estimates);
}

/**
 * The words of a line that tell its size and baseline: those with a letter or digit. A mark alone
 * ("-", "·", "|", the remnant of a rule) sits anywhere between baseline and cap height; when it
 * was the only word without descenders beside an amount ("- 1.112,40"), the amount was put a
 * third of a line too high and read as a row of its own.
 */
function typeset(line: readonly OcrWordBox[]): readonly OcrWordBox[] {
  const lettered = line.filter((box) => /[\p{L}\p{N}]/u.test(box.text));
  return lettered.length > 0 ? lettered : line;
}

/** Where the ink of the line's words without descenders ends (their median bottom). */
function lineBaseline(line: readonly OcrWordBox[], fontSize: number): number {
  const plain = typeset(line).filter((box) => !DESCENDERS.test(box.text));
  if (plain.length > 0) return median(plain.map((box) => box.top + box.height));
  return median(line.map((box) => box.top + box.height)) - DESCENDER * fontSize;
}

/** "1" "234,56" with a thousands space between them are one number, as pdf.js gives it. */
function joinDigitGroups(line: readonly OcrWordBox[], fontSize: number): OcrWordBox[] {
  const joined: OcrWordBox[] = [];
  for (const box of line) {
    const previous = joined.at(-1);
    if (previous && LEADING_GROUP.test(previous.text) && FOLLOWING_GROUP.test(box.text)) {
      const gap = box.left - (previous.left + previous.width);
      if (gap >= 0 && gap < GROUP_GAP * fontSize) {
        const top = Math.min(previous.top, box.top);
        joined[joined.length - 1] = {
          ...previous,
          text: `${previous.text} ${box.text}`,
          width: box.left + box.width - previous.left,
          top,
          height: Math.max(previous.top + previous.height, box.top + box.height) - top,
          conf: Math.min(previous.conf, box.conf),
        };
        continue;
      }
    }
    joined.push({ ...box });
  }
  return joined;
}

const NUMBER_AFTER_REPAIR = /^[-−(]?\d[\d.,' ]*[-)]?%?$/u;
/** Capitals, digits and code punctuation, with the letters OCR confuses with 1 and S. */
const CODE = /^[\p{Lu}\d$|il][\p{Lu}\d|il/.-]{2,}$/u;

/**
 * OCR reads a 0 as O, a 1 as l, i, I or |, and an S as $ now and then. Inside a token that is
 * otherwise a number ("1O0,00", "l2.50") the digits are put back. Inside a code of capitals and
 * digits ("Ai28-71", "$265-86", "F2025OO17", an item or invoice number) an O between digits, a 1
 * next to a digit and a leading S before one are put back; an amount ("$265.86") and any other word are left as read.
 * A cent sign read for a code's c goes back too (withoutCentSign).
 */
export function repairNumber(read: string): string {
  const digits = read.replace(/[^0-9]/gu, '').length;
  if (digits < 2) return read;
  const text = withoutCentSign(read);
  if (/[OoIl|]/u.test(text)) {
    const repaired = text.replace(/[Oo]/gu, '0').replace(/[Il|]/gu, '1');
    if (NUMBER_AFTER_REPAIR.test(repaired)) return repaired;
  }
  if (digits >= 3 && CODE.test(text) && /\d[-/]\d|\p{Lu}/u.test(text.slice(1))) {
    return text
      .replace(/^\$(?=\d)/u, 'S')
      .replace(/(?<=\d)O+(?=\d)/gu, (zeros) => '0'.repeat(zeros.length))
      .replace(/(?<=\d)[|il](?=\d|$)|(?<=^|\p{Lu})[|il](?=\d)/gu, '1');
  }
  return text;
}

/**
 * Tesseract reads a c beside digits as a cent sign now and then ("SCAN-55b5233¢"). In a word with
 * letters besides it, a code, it is the c; an amount in cents ("50¢") keeps its sign.
 */
function withoutCentSign(text: string): string {
  if (!text.includes('¢') || !/\p{L}/u.test(text.replaceAll('¢', ''))) return text;
  return text.replace(/(?<=[\p{L}\d-])¢|¢(?=[\p{L}\d])/gu, 'c');
}

/**
 * Dirt read as text: words of nothing but these marks, and single letters tesseract itself doubts.
 * Separators ("·", "•", "|", "-") stay: the reader splits "Acme AS · Org.nr 123" at them.
 */
const PUNCTUATION_ONLY = /^[.,:;'`‘’"“”_~^¸°*«»]+$/u;

export function isNoise(text: string, conf: number): boolean {
  if (PUNCTUATION_ONLY.test(text) || (conf < 50 && /^\p{L}$/u.test(text))) return true;
  // What is left of a rule or a blot reads as "ee", "—s_—s", "7" with next to no confidence; a
  // real word that tesseract doubts as much has three letters or digits ("Net", "PU.HT").
  return conf < 30 && (text.match(/[\p{L}\p{N}]/gu) ?? []).length < 3;
}

/**
 * A speck before a word is read as a mark glued to it (".Dokkingstasjon"); one after a code or an
 * amount too ("B969-74°", "4 950,00."): no amount ends in a mark after its decimals.
 */
function withoutLeadingDirt(text: string): string {
  return text
    .replace(/^[.,'`‘’‚"_~^¸°*]+(?=\p{L})/u, '')
    .replace(/^['`‘’‚"_~^¸°*]+(?=\d)/u, '')
    .replace(/(?<=\d[.,]\d{2})[.,'`‘’"_~^¸°*]+$/u, '')
    .replace(/(?<=\d)[°'`‘’"_~^¸*]+$/u, '');
}

/**
 * The skew of the text lines in degrees (positive descends to the right), from the bottoms of the
 * words without descenders along each OCR line that is long enough to tell; the median over lines.
 */
export function baselineSkew(boxes: readonly OcrWordBox[]): number {
  const angles: number[] = [];
  for (const line of groupLines(boxes)) {
    const plain = line.filter((box) => !DESCENDERS.test(box.text));
    if (plain.length < 2) continue;
    const first = plain[0] as OcrWordBox;
    const last = plain.at(-1) as OcrWordBox;
    const run = last.left + last.width / 2 - (first.left + first.width / 2);
    if (run < 10 * first.height) continue;
    angles.push(slopeDegrees(plain));
  }
  return angles.length === 0 ? 0 : Math.round(median(angles) * 100) / 100;
}

/** Least-squares slope of the boxes' bottom centres, in degrees. */
function slopeDegrees(boxes: readonly OcrWordBox[]): number {
  const xs = boxes.map((box) => box.left + box.width / 2);
  const ys = boxes.map((box) => box.top + box.height);
  const meanX = xs.reduce((a, b) => a + b, 0) / xs.length;
  const meanY = ys.reduce((a, b) => a + b, 0) / ys.length;
  let covariance = 0;
  let variance = 0;
  xs.forEach((x, index) => {
    covariance += (x - meanX) * ((ys[index] as number) - meanY);
    variance += (x - meanX) ** 2;
  });
  return variance === 0 ? 0 : (Math.atan(covariance / variance) * 180) / Math.PI;
}

/** Turns every box about the page centre by −degrees (its bottom centre moves; its size stays). */
export function rotateBoxes(
  boxes: readonly OcrWordBox[],
  degrees: number,
  width: number | null,
  height: number | null,
): OcrWordBox[] {
  const radians = (-degrees * Math.PI) / 180;
  const sin = Math.sin(radians);
  const cos = Math.cos(radians);
  const cx = (width ?? Math.max(...boxes.map((box) => box.left + box.width))) / 2;
  const cy = (height ?? Math.max(...boxes.map((box) => box.top + box.height))) / 2;
  return boxes.map((box) => {
    const x = box.left + box.width / 2 - cx;
    const y = box.top + box.height - cy;
    const rx = cx + x * cos - y * sin;
    const ry = cy + x * sin + y * cos;
    return { ...box, left: rx - box.width / 2, top: ry - box.height };
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
