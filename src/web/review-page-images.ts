import { ApiError, errors } from '../http/errors.js';
import { ByteCache } from '../shared/byte-cache.js';
import { pageInfo } from '../invoices/parsing/ocr/page.js';
import { ProgramFailed, ProgramMissing, runProgram, type ProgramLimits } from '../invoices/parsing/ocr/programs.js';

// A page of an original PDF as a PNG, rendered on the server with poppler's pdftoppm (installed
// by scripts/install-deps), so the review page can show the document with the boxes the reader
// read each value from. Bounded: the PDF's size, the page number, the render's CPU, memory and width,
// renders at once per process, and the bytes the cache keeps. Cached per document page (a stored
// document never changes).

/** A larger original is not rendered (the download link still gives it). */
export const MAX_RENDERED_PDF_BYTES = 25 * 1024 * 1024;
/** Pages past this one are not rendered. */
export const MAX_RENDERED_PAGE = 50;
/** The rendered width in pixels: sharp on a desktop, a few hundred kilobytes a page. */
const RENDER_WIDTH = 1200;
// A page at RENDER_WIDTH is a few megabytes of PNG at most; the render's CPU and memory are bounded.
const PDFTOPPM_LIMITS: ProgramLimits = {
  cpuSeconds: 20,
  addressSpaceBytes: 1024 * 2 ** 20,
  maxOutputBytes: 32 * 2 ** 20,
};
const MAX_CONCURRENT_RENDERS = 2;
/** What the cache keeps at most, in bytes of PNG; the oldest renders go first. */
const CACHE_BYTES = 64 * 1024 * 1024;

const cache = new ByteCache(CACHE_BYTES);
let running = 0;
const waiting: Array<() => void> = [];

const unavailable = (message: string) => new ApiError(503, 'page_render_unavailable', message);

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_RENDERS) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

// poppler's programs run as the OCR runs them (runProgram: the PDF on stdin, the image on stdout,
// CPU time, address space and output bounded by prlimit), so a hostile PDF costs the API process
// no more than a scan costs the parser pool. Their failures are told in the application's words.
async function poppler<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProgramMissing)
      throw unavailable('poppler-utils is not installed; the original can still be downloaded.');
    if (error instanceof ProgramFailed)
      throw unavailable('The original could not be rendered; it can still be downloaded.');
    throw error;
  }
}

/** The PDF's page count and its first page's size in points (pdfinfo), cached per document. */
export interface PdfInfo {
  pages: number;
  width: number;
  height: number;
}
const infos = new Map<string, PdfInfo>();

export async function pdfInfo(documentId: string, read: () => Promise<Buffer>): Promise<PdfInfo> {
  const known = infos.get(documentId);
  if (known) return known;
  const first = await limited(async () => poppler(async () => pageInfo(await read(), 1)));
  const info = { pages: first.pageCount, width: first.width || 595, height: first.height || 842 };
  if (infos.size > 10_000) infos.clear();
  infos.set(documentId, info);
  return info;
}

/** The page as a PNG; 404 past the document's last page. */
export async function renderedPage(documentId: string, page: number, read: () => Promise<Buffer>): Promise<Buffer> {
  if (!Number.isInteger(page) || page < 1 || page > MAX_RENDERED_PAGE) throw errors.notFound('page');
  return cache.remembered(`${documentId}:${page}`, async () => {
    // The page count and the render need the same bytes: read them once.
    let reading: Promise<Buffer> | undefined;
    const readOnce = () => (reading ??= read());
    if (page > (await pdfInfo(documentId, readOnce)).pages) throw errors.notFound('page');
    const bytes = await readOnce();
    const args = ['-png', '-f', String(page), '-l', String(page), '-singlefile'];
    const size = ['-scale-to-x', String(RENDER_WIDTH), '-scale-to-y', '-1'];
    return limited(() => poppler(() => runProgram('pdftoppm', [...args, ...size, '-'], bytes, PDFTOPPM_LIMITS)));
  });
}
