/**
 * One page of a scanned PDF, OCR'd in a parser pool helper (shared/isolated.ts): pdftoppm renders
 * it in grayscale at up to 300 dpi, the page is straightened (its skew measured from the text
 * lines) and thresholded with the specks removed, tesseract reads it, and its TSV becomes the
 * layout reader's words. Runs only in the helper: see scan.ts for the caller.
 */
import type { Word } from '../../../shared/layout/words.js';
import type { Language } from '../layout/labels.js';
import { detectLanguage, tesseractLanguagesFor } from './languages.js';
import {
  binarizeAndDenoise,
  encodePgm,
  estimateSkew,
  halve,
  MAX_PIXELS,
  parsePgm,
  removeRules,
  removeSpecks,
  removeThinRules,
  rotate,
  specksAt,
  type GrayImage,
} from './raster.js';
import { ProgramFailed, ProgramMissing, runProgram, type ProgramLimits } from './programs.js';
import { parseTesseractTsv, restoreSeparators, wordsFromTsvPage, type TsvPage } from './tesseract-tsv.js';
import { stackRegions, unreadRegions, type PixelBox } from './unread.js';
import { replacementsFor, rowsToReread, withReplacedCells, type CellReading, type NumberCell } from './number-cells.js';

/** This module, for runIsolated (scan.ts). */
export const OCR_PAGE_MODULE = new URL(import.meta.url);

/** Tesseract reads 8-10 pt print best at about 300 dpi (capitals some 30 pixels tall). */
export const OCR_DPI = 300;
/** Straightening an image costs a pass over it; below this angle tesseract does as well without. */
const MIN_ROTATION_DEGREES = 0.1;
/** The share of the page, from its top, the language is looked for in first. */
const DETECTION_SHARE = 0.4;
/** A run of ink this long (10 mm at 300 dpi) is a ruling line, not a glyph. */
const RULE_AT_300_DPI = 120;
/** Number cells are read again with nothing but what a number is written with. */
const NUMBER_CHARACTERS = ['-c', 'tessedit_char_whitelist=0123456789.,-'];

const PDFINFO_LIMITS: ProgramLimits = {
  cpuSeconds: 10,
  addressSpaceBytes: 1024 * 2 ** 20,
  maxOutputBytes: 1 * 2 ** 20,
};
const PDFTOPPM_LIMITS: ProgramLimits = {
  cpuSeconds: 20,
  addressSpaceBytes: 2048 * 2 ** 20,
  maxOutputBytes: MAX_PIXELS + 1024,
};
const TESSERACT_LIMITS: ProgramLimits = {
  cpuSeconds: 30,
  addressSpaceBytes: 2048 * 2 ** 20,
  maxOutputBytes: 16 * 2 ** 20,
};

export interface OcrPageRequest {
  bytes: Uint8Array;
  /** 1-based. */
  page: number;
  /**
   * Tesseract language codes ("nor", "eng"), or 'detect': a quick English pass at half the
   * resolution finds the page's language first (the first page of a document).
   */
  languages: readonly string[] | 'detect';
}

export type OcrPageResult =
  | {
      kind: 'page';
      page: number;
      pageCount: number;
      words: Word[];
      /** The language found by 'detect' (null: none found, or not asked). */
      language: Language | null;
      /** The tesseract languages the page was read with. */
      languages: string[];
      /** The skew found on the image and straightened, degrees. */
      skew: number;
      /** The skew left in the word boxes after that, degrees. */
      residualSkew: number;
      dpi: number;
      /** CPU-light wall-clock times of the steps, ms. */
      timings: { render: number; prepare: number; detect: number; ocr: number };
    }
  | { kind: 'unavailable'; message: string };

export async function ocrPdfPage(request: OcrPageRequest): Promise<OcrPageResult> {
  try {
    return await readPage(request);
  } catch (error) {
    if (error instanceof ProgramMissing)
      return { kind: 'unavailable', message: `${error.program} is not installed on this server` };
    throw error;
  }
}

async function readPage({ bytes, page, languages }: OcrPageRequest): Promise<OcrPageResult> {
  const started = performance.now();
  const info = await pageInfo(bytes, page);
  // A page larger than A3 is rendered at a lower resolution, so its image stays within MAX_PIXELS.
  const squareInches = (info.width / 72) * (info.height / 72);
  const dpi = Math.max(72, Math.min(OCR_DPI, Math.floor(Math.sqrt((MAX_PIXELS * 0.9) / Math.max(squareInches, 1)))));
  const rendered = await runProgram(
    'pdftoppm',
    ['-r', String(dpi), '-gray', '-f', String(page), '-l', String(page), '-singlefile', '-'],
    bytes,
    PDFTOPPM_LIMITS,
  );
  const renderedAt = performance.now();

  const { image, skew } = preparePage(parsePgm(rendered), dpi);
  const preparedAt = performance.now();

  const language = languages === 'detect' ? await detectPageLanguage(image, dpi) : null;
  const chosen = languages === 'detect' ? tesseractLanguagesFor(language ?? 'en') : [...languages];
  const detectedAt = performance.now();

  const read = await withUnreadInk(parseTesseractTsv(await tesseract(image, dpi, chosen)), image, dpi, chosen);
  const ink = image;
  const inkAt = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < ink.width && y < ink.height && ink.pixels[y * ink.width + x] === 0;
  const { words: pageWords, residualSkew } = wordsFromTsvPage(restoreSeparators(read, inkAt), { page, dpi });
  const words = await withNumberCellsReadAgain(pageWords, image, dpi);
  return {
    kind: 'page',
    page,
    pageCount: info.pageCount,
    words,
    language,
    languages: chosen,
    skew,
    residualSkew,
    dpi,
    timings: {
      render: Math.round(renderedAt - started),
      prepare: Math.round(preparedAt - renderedAt),
      detect: Math.round(detectedAt - preparedAt),
      ocr: Math.round(performance.now() - detectedAt),
    },
  };
}

/** Straightens, thresholds and cleans a rendered page (specks and ruling lines erased). */
export function preparePage(rendered: GrayImage, dpi: number): { image: GrayImage; skew: number } {
  let image = rendered;
  const skew = estimateSkew(image);
  if (Math.abs(skew) >= MIN_ROTATION_DEGREES) image = rotate(image, skew);
  const scale = dpi / OCR_DPI;
  const rules = {
    minRun: Math.round(RULE_AT_300_DPI * scale),
    maxThickness: Math.max(2, Math.round(6 * scale)),
    maxGap: Math.round(14 * scale),
  };
  image = binarizeAndDenoise(image);
  // Before the specks: the rule's longer pieces, which removeSpecks would take, show where it runs.
  image = removeThinRules(image, { ...rules, maxGap: 5 * rules.maxGap });
  image = removeSpecks(image, specksAt(dpi));
  image = removeRules(image, rules.minRun);
  return { image, skew };
}

/**
 * The page's words with those of the text the page segmentation left out (unread.ts): the
 * regions of ink outside the blocks read are stacked into one image (one tesseract start for
 * all) and read as one block; their words are put back in page pixels on lines of their own
 * (the reader joins them to the rows they stand on).
 */
async function withUnreadInk(
  page: TsvPage,
  image: GrayImage,
  dpi: number,
  languages: readonly string[],
): Promise<TsvPage> {
  const regions = unreadRegions(image, page.blocks, dpi);
  if (regions.length === 0) return page;
  // White rows between the regions so tesseract does not join their lines.
  const gap = Math.round((60 * dpi) / OCR_DPI);
  const stacked = stackRegions(image, regions, gap);
  const again = parseTesseractTsv(await tesseract(stacked.image, dpi, languages, '6'));
  const words = [...page.words];
  for (const word of again.words) {
    const middle = word.top + word.height / 2;
    const index = stacked.tops.findIndex((top, at) => middle >= top && middle < top + (regions[at] as PixelBox).height);
    const region = regions[index];
    if (!region) continue;
    words.push({
      ...word,
      left: word.left + region.left,
      top: word.top - (stacked.tops[index] as number) + region.top,
      lineKey: `unread${index}.${word.lineKey}`,
    });
  }
  return { ...page, words };
}

/**
 * The page's words with the quantity, price and amount cells of the rows that do not add up read
 * again, digits only, where that makes the row add up (number-cells.ts). All the cells go into
 * one image, one tesseract start; pages whose rows add up cost nothing more.
 */
async function withNumberCellsReadAgain(words: Word[], image: GrayImage, dpi: number): Promise<Word[]> {
  const scale = dpi / 72;
  const request = rowsToReread(words, image.width / scale);
  const cells = (request?.cells ?? []).map((cell) => ({ cell, box: pixelBoxOf(cell, scale, image) }));
  const readable = cells.filter(({ box }) => box.width > 0 && box.height > 0);
  if (!request || readable.length === 0) return words;
  const stacked = stackRegions(
    image,
    readable.map(({ box }) => box),
    Math.round((60 * dpi) / OCR_DPI),
  );
  const read = parseTesseractTsv(await tesseract(stacked.image, dpi, ['eng'], '6', NUMBER_CHARACTERS), {
    keepDoubted: true,
  });
  const readings: CellReading[] = readable.map(({ cell }) => ({ cell, words: [] }));
  for (const word of read.words) {
    const middle = word.top + word.height / 2;
    const index = stacked.tops.findIndex((top, at) => middle >= top && middle < top + (readable[at]?.box.height ?? 0));
    const box = readable[index]?.box;
    if (!box) continue;
    readings[index]?.words.push({
      text: word.text,
      x: (word.left + box.left) / scale,
      y: 0,
      width: word.width / scale,
      height: 0,
      page: 0,
      confidence: word.conf / 100,
    });
  }
  for (const reading of readings) reading.words.sort((a, b) => a.x - b.x);
  return withReplacedCells(words, replacementsFor(request, readings));
}

function pixelBoxOf(cell: NumberCell, scale: number, image: GrayImage): PixelBox {
  const left = Math.max(0, Math.floor(cell.x0 * scale));
  const top = Math.max(0, Math.floor(cell.top * scale));
  const right = Math.min(image.width, Math.ceil(cell.x1 * scale));
  const bottom = Math.min(image.height, Math.ceil(cell.bottom * scale));
  return { left, top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
}

async function tesseract(
  image: GrayImage,
  dpi: number,
  languages: readonly string[],
  segmentation: '3' | '6' = '3',
  options: readonly string[] = [],
): Promise<string> {
  const tsv = await runProgram(
    'tesseract',
    ['stdin', 'stdout', '--dpi', String(dpi), '--psm', segmentation, '-l', languages.join('+'), ...options, 'tsv'],
    encodePgm(image),
    TESSERACT_LIMITS,
    {
      // One thread: the pool gives each helper one core, and tesseract's threads only add overhead there.
      OMP_THREAD_LIMIT: '1',
    },
  );
  return tsv.toString('utf8');
}

/**
 * English OCR of the page at half resolution, enough to read its labels: first of its top 40 %
 * (the title, the header fields and usually the table's column header: two thirds of the time
 * of the whole page), then of the whole page when that part names no language.
 */
async function detectPageLanguage(image: GrayImage, dpi: number): Promise<Language | null> {
  const half = halve(image);
  const height = Math.round(half.height * DETECTION_SHARE);
  const top: GrayImage = { width: half.width, height, pixels: half.pixels.subarray(0, half.width * height) };
  return (await languageOf(top, Math.round(dpi / 2))) ?? (await languageOf(half, Math.round(dpi / 2)));
}

async function languageOf(image: GrayImage, dpi: number): Promise<Language | null> {
  const { words } = parseTesseractTsv(await tesseract(image, dpi, ['eng']));
  const lines = new Map<string, string[]>();
  for (const word of words) lines.set(word.lineKey, [...(lines.get(word.lineKey) ?? []), word.text]);
  return detectLanguage([...lines.values()].map((line) => line.join(' ')));
}

export interface PageInfo {
  pageCount: number;
  /** The page's size in points (0 when it is not there). */
  width: number;
  height: number;
}

/** The PDF's page count and one page's size, from poppler's pdfinfo under its limits. */
export async function pageInfo(bytes: Uint8Array, page: number): Promise<PageInfo> {
  const output = (
    await runProgram('pdfinfo', ['-f', String(page), '-l', String(page), '-'], bytes, PDFINFO_LIMITS)
  ).toString('utf8');
  const pages = /^Pages:\s+(\d+)/mu.exec(output);
  if (!pages) throw new ProgramFailed('pdfinfo', 'no page count');
  const size = pageSizeOf(output, page);
  return { pageCount: Number(pages[1]), width: size?.width ?? 0, height: size?.height ?? 0 };
}

// pdfinfo prints "Page    N size: W x H pts" for a range of pages, "Page size: W x H pts" for one.
function pageSizeOf(output: string, page: number): { width: number; height: number } | null {
  for (const match of output.matchAll(/^Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+)/gmu)) {
    if (Number(match[1]) === page) return { width: Number(match[2]), height: Number(match[3]) };
  }
  const single = /^Page size:\s+([\d.]+) x ([\d.]+)/mu.exec(output);
  return single ? { width: Number(single[1]), height: Number(single[2]) } : null;
}
