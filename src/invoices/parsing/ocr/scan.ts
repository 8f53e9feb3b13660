/**
 * Scanned (image-only) PDFs: each page is OCR'd by its own call into the parser pool
 * (shared/isolated.ts, page.ts), one page at a time, and the words of all pages go to the same
 * layout reader as a text layer's. Each page call has its own CPU-time and memory limits, which
 * cover the programs it runs (pdftoppm, tesseract) and kill them with it; the pool's queue is
 * first come, first served, so other files' calls run between the pages of a long scan. A scan is
 * read for at most OCR_MAX_PAGES pages and OCR_DOCUMENT_BUDGET_MS of wall-clock time (from the
 * start of the PDF's reading); pages past either are not read, and the reading says so and is
 * marked for review.
 */
import { Context } from '@temporalio/activity';
import { failed, type InvoiceOutcome, type ParseOutcome } from '../model.js';
import { readInvoiceFromWords } from '../layout/reader.js';
import type { Word } from '../../../shared/layout/words.js';
import { IsolationCancelled, runIsolated, type Isolated, type IsolationFailure } from '../../../shared/isolated.js';
import { WordConfidence, withOcrConfidence } from './confidence.js';
import { OCR_PAGE_MODULE, type OcrPageResult } from './page.js';

/** Invoices are a few pages; a longer scan is read up to here (and marked for review). */
export const OCR_MAX_PAGES = 20;
/** CPU time of one page's call: the helper, pdftoppm and tesseract together. */
export const OCR_PAGE_TIME_MS = 20_000;
/** Resident memory of one page's call: the helper (about 150 MiB), pdftoppm and tesseract together. */
export const OCR_PAGE_MEMORY_BYTES = 1536 * 2 ** 20;
/**
 * Wall-clock time for a whole scan, counted from the start of the PDF's reading. The import is
 * one local activity of at most 2 minutes (workflows/import-invoice.ts); this leaves it time to
 * store what was read.
 */
export const OCR_DOCUMENT_BUDGET_MS = 75_000;

export interface ScanOptions {
  /** Date.now() when the PDF's reading began (the budget counts from there); now by default. */
  startedAt?: number;
  budgetMs?: number;
  maxPages?: number;
}

export interface PageFailure {
  page: number;
  reason: IsolationFailure | 'budget';
  message: string;
}

/** The words of a scan's pages, OCR'd one page per parser pool call, and how far it got. */
export type ScanWords =
  | { kind: 'words'; words: Word[]; pageCount: number; skipped: PageFailure[]; languages: string[] }
  | { kind: 'unavailable'; message: string }
  | { kind: 'first_page_failed'; reason: IsolationFailure; message: string };

/**
 * OCR of every page of an image-only PDF (up to the page and time budgets), for any reader of
 * positioned words: the invoice layout reader here, the price-list reader (agreements/price-lists).
 */
export async function ocrPdfWords(bytes: Uint8Array, options: ScanOptions = {}): Promise<ScanWords> {
  const deadline = (options.startedAt ?? Date.now()) + (options.budgetMs ?? OCR_DOCUMENT_BUDGET_MS);
  const maxPages = options.maxPages ?? OCR_MAX_PAGES;
  const cancellation = activitySignal();
  const words: Word[] = [];
  const skipped: PageFailure[] = [];
  let pageCount = 1;
  let languages: readonly string[] | 'detect' = 'detect';
  let usedLanguages: string[] = [];
  for (let page = 1; page <= Math.min(pageCount, maxPages); page += 1) {
    const left = deadline - Date.now();
    if (left <= 0) {
      skipped.push({ page, reason: 'budget', message: 'not reached within the time for the scan' });
      continue;
    }
    const budget = AbortSignal.timeout(left);
    const signal = cancellation ? AbortSignal.any([cancellation, budget]) : budget;
    const result: Isolated<OcrPageResult> = await runIsolated<OcrPageResult>(
      OCR_PAGE_MODULE,
      'ocrPdfPage',
      [{ bytes, page, languages }],
      {
        timeMs: OCR_PAGE_TIME_MS,
        memoryBytes: OCR_PAGE_MEMORY_BYTES,
        signal,
      },
    );
    if (!result.ok) {
      if (result.reason === 'cancelled' && cancellation?.aborted) throw new IsolationCancelled();
      // The first page tells how many there are: without it the scan cannot be read.
      if (page === 1) return { kind: 'first_page_failed', reason: result.reason, message: result.message };
      skipped.push({ page, reason: result.reason === 'cancelled' ? 'budget' : result.reason, message: result.message });
      continue;
    }
    const value: OcrPageResult = result.value;
    if (value.kind === 'unavailable') return value;
    pageCount = value.pageCount;
    words.push(...value.words);
    if (languages === 'detect') languages = value.languages;
    usedLanguages = value.languages;
  }
  for (let page = maxPages + 1; page <= pageCount; page += 1)
    skipped.push({ page, reason: 'budget', message: `past the first ${maxPages} pages` });
  return { kind: 'words', words, pageCount, skipped, languages: usedLanguages };
}

export async function readScannedPdf(bytes: Uint8Array, options: ScanOptions = {}): Promise<ParseOutcome> {
  const scan = await ocrPdfWords(bytes, options);
  if (scan.kind === 'first_page_failed') return firstPageFailure(scan.reason, scan.message);
  if (scan.kind === 'unavailable') {
    return failed(
      'no_text_layer',
      `The PDF has no text layer (a scan or image) and no embedded e-invoice XML, and OCR is not available: ${scan.message}.`,
    );
  }
  const { words, pageCount } = scan;
  if (words.length === 0) {
    return failed(
      'no_text_layer',
      `The PDF has no text layer (a scan or image) and no embedded e-invoice XML, and OCR found no text on ${pageCount === 1 ? 'its page' : `its ${pageCount} pages`}.`,
    );
  }
  const outcome = readInvoiceFromWords(words, { pageCount, ocr: true });
  if (outcome.kind === 'not_invoice')
    return { ...outcome, reason: `${outcome.reason} (Read by OCR: the PDF is a scan.)` };
  return asOcrReading(outcome, words, scan);
}

function firstPageFailure(reason: IsolationFailure, message: string): ParseOutcome {
  switch (reason) {
    case 'time_limit':
    case 'cancelled':
      return failed(
        'pdf_timeout',
        `OCR of the scan's first page took longer than ${OCR_PAGE_TIME_MS / 1000} s of CPU time or the time left for the scan, and was stopped.`,
      );
    case 'memory_limit':
      return failed(
        'pdf_too_large_inflated',
        `OCR of the scan's first page took more than ${OCR_PAGE_MEMORY_BYTES / 2 ** 20} MiB of memory and was stopped.`,
      );
    case 'crashed':
      return failed('malformed_pdf', `The scanned PDF could not be rendered for OCR: ${message}`);
  }
}

interface ScanFacts {
  pageCount: number;
  skipped: PageFailure[];
  languages: string[];
}

/** The layout reader's reading, told as what it is: OCR of a scan, as sure as its words. */
function asOcrReading(outcome: InvoiceOutcome, words: readonly Word[], facts: ScanFacts): InvoiceOutcome {
  const { invoice } = outcome;
  const confidence = new WordConfidence(words);
  const reviewReasons = [...(invoice.extraction.reviewReasons ?? [])];
  const read = facts.pageCount - facts.skipped.length;
  if (facts.skipped.length > 0) {
    const pages = facts.skipped.map((failure) => failure.page);
    reviewReasons.push(
      `Page(s) ${pages.join(', ')} of the scan could not be read by OCR (${[...new Set(facts.skipped.map(describeSkip))].join('; ')}); its lines and totals may be incomplete.`,
    );
  }
  const warnings = outcome.warnings.filter((warning) => !/text layer/u.test(warning));
  warnings.unshift(
    `Read by OCR from a scanned PDF (${read} of ${facts.pageCount} page(s), tesseract ${facts.languages.join('+')}, median word confidence ${Math.round(confidence.typical * 100)} %) by the layout reader; see extraction.confidence.`,
  );
  return {
    ...outcome,
    format: 'pdf_ocr',
    warnings,
    invoice: {
      ...invoice,
      extraction: {
        ...invoice.extraction,
        method: 'ocr',
        linesReliable: invoice.extraction.linesReliable && facts.skipped.length === 0,
        needsReview: reviewReasons.length > 0,
        reviewReasons,
        confidence: withOcrConfidence(invoice, confidence),
      },
    },
  };
}

function describeSkip(failure: PageFailure): string {
  switch (failure.reason) {
    case 'budget':
      return failure.message;
    case 'time_limit':
      return `over ${OCR_PAGE_TIME_MS / 1000} s of CPU time`;
    case 'memory_limit':
      return `over ${OCR_PAGE_MEMORY_BYTES / 2 ** 20} MiB of memory`;
    case 'crashed':
    case 'cancelled':
      return 'the page could not be rendered';
  }
}

function activitySignal(): AbortSignal | undefined {
  try {
    return Context.current().cancellationSignal;
  } catch {
    return undefined;
  }
}
