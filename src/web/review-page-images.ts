import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError, errors } from '../http/errors.js';

// A page of an original PDF as a PNG, rendered on the server with poppler's pdftoppm (installed
// by scripts/install-deps), so the review page can show the document with the boxes the reader
// read each value from. Bounded: the PDF's size, the page number, the render's time and width,
// renders at once per process, and the bytes the cache keeps. Cached per document page (a stored
// document never changes).

/** A larger original is not rendered (the download link still gives it). */
export const MAX_RENDERED_PDF_BYTES = 25 * 1024 * 1024;
/** Pages past this one are not rendered. */
export const MAX_RENDERED_PAGE = 50;
/** The rendered width in pixels: sharp on a desktop, a few hundred kilobytes a page. */
const RENDER_WIDTH = 1200;
const RENDER_TIMEOUT_MS = 20_000;
const PAGE_COUNT_TIMEOUT_MS = 10_000;
const MAX_CONCURRENT_RENDERS = 2;
/** What the cache keeps at most, in bytes of PNG; the oldest renders go first. */
const CACHE_BYTES = 64 * 1024 * 1024;

const cache = new Map<string, Buffer>();
let cachedBytes = 0;
const inFlight = new Map<string, Promise<Buffer>>();
let running = 0;
const waiting: Array<() => void> = [];

const unavailable = (message: string) => new ApiError(503, 'page_render_unavailable', message);

function remember(key: string, png: Buffer): void {
  if (png.length > CACHE_BYTES) return;
  cache.set(key, png);
  cachedBytes += png.length;
  for (const [oldest, bytes] of cache) {
    if (cachedBytes <= CACHE_BYTES) break;
    cache.delete(oldest);
    cachedBytes -= bytes.length;
  }
}

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

function run(command: string, args: string[], timeout: number): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout, maxBuffer: 1024 * 1024 }, (error, stdout) => {
      if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
        reject(unavailable(`${command} (poppler-utils) is not installed; the original can still be downloaded.`));
        return;
      }
      if (error && error.killed) {
        reject(unavailable('Rendering the page took too long; the original can still be downloaded.'));
        return;
      }
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout: String(stdout) });
    });
  });
}

async function withPdfFile<T>(bytes: Buffer, work: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'ics-page-'));
  try {
    const file = join(dir, 'original.pdf');
    await writeFile(file, bytes);
    return await work(file, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
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
  const info = await limited(async () =>
    withPdfFile(await read(), async (file) => {
      const { stdout } = await run('pdfinfo', [file], PAGE_COUNT_TIMEOUT_MS);
      const pages = /^Pages:\s+(\d+)/mu.exec(stdout);
      const size = /^Page size:\s+([\d.]+) x ([\d.]+)/mu.exec(stdout);
      return {
        pages: pages ? Number(pages[1]) : 0,
        width: size ? Number(size[1]) : 595,
        height: size ? Number(size[2]) : 842,
      };
    }),
  );
  if (infos.size > 10_000) infos.clear();
  infos.set(documentId, info);
  return info;
}

/** The page as a PNG; 404 past the document's last page. */
export async function renderedPage(documentId: string, page: number, read: () => Promise<Buffer>): Promise<Buffer> {
  if (!Number.isInteger(page) || page < 1 || page > MAX_RENDERED_PAGE) throw errors.notFound('page');
  const key = `${documentId}:${page}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const pending = inFlight.get(key);
  if (pending) return pending;
  const rendering = limited(async () =>
    withPdfFile(await read(), async (file, dir) => {
      const out = join(dir, 'page');
      const args = ['-png', '-f', String(page), '-l', String(page), '-singlefile'];
      const result = await run(
        'pdftoppm',
        [...args, '-scale-to-x', String(RENDER_WIDTH), '-scale-to-y', '-1', file, out],
        RENDER_TIMEOUT_MS,
      );
      // 99: "Wrong page range given" (past the last page); anything else could not be read.
      if (result.code === 99) throw errors.notFound('page');
      if (result.code !== 0) throw unavailable('The original could not be rendered; it can still be downloaded.');
      return readFile(`${out}.png`);
    }),
  );
  inFlight.set(key, rendering);
  try {
    const png = await rendering;
    remember(key, png);
    return png;
  } finally {
    inFlight.delete(key);
  }
}
