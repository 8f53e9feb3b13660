import { createRequire } from 'node:module';
import path from 'node:path';
import type { PDFDocumentLoadingTask } from 'pdfjs-dist/legacy/build/pdf.mjs';

// The one way this service opens a PDF with pdf.js: text and attachments only, no fonts turned
// into glyphs, no scripts evaluated, and the only resources pdf.js may load are its own character
// maps, from this machine's disk. Used by the invoice parser and the agreement document extraction.

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfJsModule: Promise<PdfJs> | undefined;
let pdfJsPackageRoot: string | undefined;

/**
 * Resident memory of the helper process reading a PDF (shared/isolated.ts; Node, pdf.js and the
 * reader take a fixed part of it): pdf.js inflates compressed streams in full, so this is where
 * a compression bomb is stopped.
 */
export const PDF_MEMORY_LIMIT_BYTES = 1536 * 2 ** 20;

/** Every PDF ends with %%EOF; readers accept up to 1 KiB of trailing bytes after it. */
const EOF_WINDOW = 1024;

/** Loaded on first use so callers that never see a PDF do not pay for pdf.js. */
function loadPdfJs(): Promise<PdfJs> {
  pdfJsModule ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfJsModule;
}

function safeLoadingOptions() {
  pdfJsPackageRoot ??= path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const packageRoot = pdfJsPackageRoot;
  return {
    cMapUrl: `${path.join(packageRoot, 'cmaps')}${path.sep}`,
    cMapPacked: true,
    standardFontDataUrl: `${path.join(packageRoot, 'standard_fonts')}${path.sep}`,
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    isOffscreenCanvasSupported: false,
    enableXfa: false,
    disableAutoFetch: true,
    disableStream: true,
    disableRange: true,
    stopAtErrors: false,
    verbosity: 0,
  };
}

export function hasEndOfFileMarker(bytes: Uint8Array): boolean {
  const tail = bytes.subarray(Math.max(0, bytes.byteLength - EOF_WINDOW));
  return Buffer.from(tail.buffer, tail.byteOffset, tail.byteLength).includes('%%EOF', 0, 'latin1');
}

/** The caller destroys the task when done (also after a time-out, to stop pdf.js's work). */
export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentLoadingTask> {
  const pdfjs = await loadPdfJs();
  // A plain Uint8Array copy: pdf.js refuses Node's Buffer subclass and takes ownership of what it gets.
  return pdfjs.getDocument({ ...safeLoadingOptions(), data: new Uint8Array(bytes) });
}
