import { IsolationCancelled, runIsolated, type IsolationFailure } from '../../shared/isolated.js';
import { ocrPdfWords } from '../../invoices/parsing/ocr/scan.js';
import { PDF_MEMORY_LIMIT_BYTES } from '../../shared/pdfjs.js';
import { readCsv } from './csv.js';
import { isIsoCurrencyCode } from './currency.js';
import { detectFormat } from './format.js';
import {
  LIMITS,
  type PriceListFailure,
  type PriceListReadInput,
  type PriceListReadResult,
  type SourceSheet,
} from './model.js';
import { readSheet, type RowBudget, type SheetReading } from './sheet.js';
import { readXlsx } from './xlsx.js';
import { readDocxPriceList, readPdfPriceList } from './documents/read.js';

export type {
  PriceItem,
  PriceItemPrice,
  PriceListFailure,
  PriceListFailureCode,
  PriceListField,
  PriceListReadInput,
  PriceListReadResult,
  PriceListRow,
  PriceListSheet,
} from './model.js';
export { COLUMN_ALIASES } from './columns.js';
export { LIMITS } from './model.js';
export { readPriceListWords } from './documents/read.js';

/**
 * Reads a supplier's price list (CSV or XLSX) into price items, one outcome per data row.
 * Pure: no I/O. Never throws for a bad file; throws only for a `defaultCurrency` that is not
 * an ISO 4217 code, which is the caller's mistake, not the user's.
 */
export async function readPriceList(input: PriceListReadInput): Promise<PriceListReadResult> {
  const defaultCurrency = input.defaultCurrency.trim().toUpperCase();
  if (!isIsoCurrencyCode(defaultCurrency))
    throw new TypeError(`defaultCurrency '${input.defaultCurrency}' is not an ISO 4217 currency code`);
  if (input.bytes.length > LIMITS.maxInputBytes) {
    return failed({
      code: 'too_large',
      message: `the file is ${bytesText(input.bytes.length)}; at most ${bytesText(LIMITS.maxInputBytes)} (${LIMITS.maxInputBytes / 1024 / 1024} MiB) can be read`,
    });
  }
  const detected = detectFormat(input.bytes, input.fileName);
  if ('failure' in detected) return failed(detected.failure);
  if (detected.format === 'pdf') return readPdfPriceList(input.bytes, defaultCurrency);
  if (detected.format === 'docx') return readDocxPriceList(input.bytes, defaultCurrency, input.worksheets);
  const source =
    detected.format === 'csv'
      ? { sheets: [readCsv(input.bytes, input.fileName).sheet], problems: [] }
      : await readXlsx(input.bytes, input.worksheets);
  if ('failure' in source) return failed(source.failure);
  return assemble(source.sheets, source.problems, defaultCurrency);
}

/** Wall-clock budget for reading one price list (200,000 rows read in a few seconds). */
export const PRICE_LIST_TIME_LIMIT_MS = 120_000;
/** Resident memory of the helper reading one price list; exceljs needs some 8 bytes per unpacked byte. */
export const PRICE_LIST_MEMORY_LIMIT_BYTES = PDF_MEMORY_LIMIT_BYTES;

/**
 * `readPriceList` in a helper process of the pool (shared/isolated.ts): CSV and XLSX parsing is
 * synchronous and, on a large or hostile file, would stall the worker's event loop for every
 * other tenant; the helper is stopped on time (`timeout`) or memory (`too_large_inflated`), and
 * when the calling activity is cancelled or times out.
 */
export async function readPriceListIsolated(
  input: PriceListReadInput,
  options: IsolatedReadOptions = {},
): Promise<PriceListReadResult> {
  // The caller's mistake is reported here, not as a crash of the helper.
  if (!isIsoCurrencyCode(input.defaultCurrency.trim().toUpperCase())) return readPriceList(input);
  const timeMs = options.timeMs ?? PRICE_LIST_TIME_LIMIT_MS;
  const result = await runIsolated<PriceListReadResult>(new URL(import.meta.url), 'readPriceList', [input], {
    timeMs,
    memoryBytes: PRICE_LIST_MEMORY_LIMIT_BYTES,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (result.ok) {
    if (!result.value.scanned) return result.value;
    if (options.ocr === false) return failed({ code: 'scanned', message: SCANNED_NOT_READ });
    return readScannedPriceList(input);
  }
  return isolationFailure(result.reason, timeMs);
}

/** How a caller other than the import's activity (the preview) bounds a read. */
export interface IsolatedReadOptions {
  /** CPU time of the helper (default PRICE_LIST_TIME_LIMIT_MS). */
  timeMs?: number;
  /** Stops the read (IsolationCancelled), e.g. at a request's wall-clock limit. */
  signal?: AbortSignal;
  /** false: a scanned PDF is not OCR'd (OCR takes seconds a page) but answered as `scanned`. */
  ocr?: boolean;
}

const SCANNED_NOT_READ = 'the PDF is a scan: its words need OCR, which only the import itself runs';

/**
 * A scanned PDF price list: OCR'd one page per parser pool call (the invoice scans' pipeline,
 * invoices/parsing/ocr/scan.ts: the same page and time budgets), then its words read by the
 * price-list document reader in a helper, as a text layer's words are.
 */
async function readScannedPriceList(input: PriceListReadInput): Promise<PriceListReadResult> {
  const scan = await ocrPdfWords(input.bytes);
  if (scan.kind === 'unavailable')
    return failed({ code: 'unreadable', message: `the PDF is a scan and OCR is not available: ${scan.message}` });
  if (scan.kind === 'first_page_failed') {
    if (scan.reason === 'cancelled') throw new IsolationCancelled();
    return scan.reason === 'crashed'
      ? failed({ code: 'unreadable', message: 'the scanned PDF could not be rendered for OCR' })
      : isolationFailure(scan.reason);
  }
  if (scan.words.length === 0)
    return failed({ code: 'unreadable', message: 'the PDF is a scan and OCR found no text on it' });
  const result = await runIsolated<PriceListReadResult>(
    new URL(import.meta.url),
    'readPriceListWords',
    [{ words: scan.words, defaultCurrency: input.defaultCurrency.trim().toUpperCase() }],
    { timeMs: PRICE_LIST_TIME_LIMIT_MS, memoryBytes: PRICE_LIST_MEMORY_LIMIT_BYTES },
  );
  if (!result.ok) return isolationFailure(result.reason);
  if (scan.skipped.length === 0) return result.value;
  // Pages OCR did not reach may hold prices: the list is not complete.
  const pages = scan.skipped.map((skip) => skip.page).join(', ');
  const message = `page(s) ${pages} of the scan could not be read by OCR`;
  const failure = result.value.failure ? `${result.value.failure.message}; ${message}` : message;
  return {
    ...result.value,
    complete: false,
    failure: { code: result.value.failure?.code ?? 'extraction_incomplete', message: failure },
  };
}

function isolationFailure(reason: IsolationFailure, timeMs = PRICE_LIST_TIME_LIMIT_MS): PriceListReadResult {
  switch (reason) {
    case 'time_limit':
      return failed({
        code: 'timeout',
        message: `reading the file took longer than ${timeMs / 1000} s and was stopped`,
      });
    case 'memory_limit':
      return failed({
        code: 'too_large_inflated',
        message: `reading the file took more than ${PRICE_LIST_MEMORY_LIMIT_BYTES / 2 ** 20} MiB of memory (it unpacks that far) and was stopped`,
      });
    case 'crashed':
      return failed({ code: 'unreadable', message: 'the file could not be read' });
    case 'cancelled':
      throw new IsolationCancelled();
  }
}

function assemble(sources: SourceSheet[], fileProblems: string[], defaultCurrency: string): PriceListReadResult {
  const budget: RowBudget = { remaining: LIMITS.maxDataRows };
  const readings: SheetReading[] = [];
  for (const source of sources) readings.push(readSheet(source, defaultCurrency, budget));
  const sheets = readings.map((reading) => reading.sheet);
  if (fileProblems.length === 0 && sheets.every((sheet) => sheet.headerRowNumber === null)) {
    return { ...failed(noHeaderFailure(readings)), sheets };
  }
  const problems = [...fileProblems, ...readings.flatMap((reading) => reading.problems)];
  if (readings.some((reading) => reading.hitRowLimit)) {
    const rowsText = LIMITS.maxDataRows.toLocaleString('en-US');
    problems.push(`the file has more than ${rowsText} data rows; only the first ${rowsText} were read`);
  }
  const result: PriceListReadResult = {
    kind: 'read',
    sheets,
    rows: readings.flatMap((reading) => reading.rows),
    complete: problems.length === 0,
  };
  // The caller fails an import of an incomplete list with this code; the rows stay available.
  if (!result.complete) result.failure = { code: 'extraction_incomplete', message: problems.join('; ') };
  return result;
}

function noHeaderFailure(readings: SheetReading[]): PriceListFailure {
  const found = readings.flatMap((reading) => reading.problems);
  const message = found.length > 0 ? found.join('; ') : 'the file has no data';
  return { code: 'no_header_row', message };
}

function failed(failure: PriceListFailure): PriceListReadResult {
  return { kind: 'failed', failure, sheets: [], rows: [], complete: false };
}

function bytesText(bytes: number): string {
  return `${bytes.toLocaleString('en-US')} bytes`;
}
