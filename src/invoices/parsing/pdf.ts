/**
 * PDF input: an embedded e-invoice XML (Factur-X, ZUGFeRD, XRechnung, UBL) is the source of
 * truth; without one, the text layer is read by heuristics (pdf-text.ts).
 */
import type { PDFDocumentLoadingTask, PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { MAX_INPUT_BYTES } from './limits.js';
import { failed, notInvoice, type NotInvoiceOutcome, type ParseOutcome } from './model.js';
import { readInvoiceFromWords } from './layout/reader.js';
import { wordsOfPdf } from '../../shared/layout/pdf-words.js';
import type { SupplierLayoutMemory } from './layout/memory.js';
import type { Word } from '../../shared/layout/words.js';
import { IsolationCancelled, runIsolated } from '../../shared/isolated.js';
import { hasEndOfFileMarker, openPdf, PDF_MEMORY_LIMIT_BYTES } from '../../shared/pdfjs.js';
import { parseXmlInvoice } from './xml-invoice.js';
import { readScannedPdf } from './ocr/scan.js';

/** Invoices are a few dozen pages at most; reading more only costs time on long manuals. */
const MAX_TEXT_PAGES = 60;
/** Wall-clock budget for one PDF, so a pathological file cannot stall an activity. */
const PDF_TIME_LIMIT_MS = 20_000;
/** Names the e-invoice standards give their XML attachment, most specific first. */
const KNOWN_XML_ATTACHMENTS = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml', 'order-x.xml'];

// Reads the PDF in a helper process that is stopped when it runs out of time or memory
// (shared/isolated.ts), so a hostile PDF fails alone instead of taking the worker, and every
// import in it, down.
// `memoryBytes`: the helper's memory limit; tests reach it with less than the production limit.
export async function parsePdfIsolated(
  bytes: Uint8Array,
  options: LayoutReadOptions = {},
  { memoryBytes = PDF_MEMORY_LIMIT_BYTES } = {},
): Promise<ParseOutcome> {
  if (!hasEndOfFileMarker(bytes)) {
    return failed('truncated_pdf', 'The PDF has no %%EOF marker at its end; the file is truncated or damaged.');
  }
  const startedAt = Date.now();
  const result = await runIsolated<ParseOutcome>(new URL(import.meta.url), 'parsePdf', [bytes, options], {
    timeMs: PDF_TIME_LIMIT_MS,
    memoryBytes,
  });
  // A scan: OCR page by page, each page a call of its own (ocr/scan.ts).
  if (result.ok && result.value.kind === 'failed' && result.value.code === 'no_text_layer')
    return readScannedPdf(bytes, { startedAt });
  if (result.ok) return result.value;
  switch (result.reason) {
    case 'time_limit':
      return failed('pdf_timeout', `Reading the PDF took longer than ${PDF_TIME_LIMIT_MS / 1000} s and was stopped.`);
    case 'memory_limit':
      return failed(
        'pdf_too_large_inflated',
        `Reading the PDF took more than ${memoryBytes / 2 ** 20} MiB of memory (its compressed content inflates that far) and was stopped.`,
      );
    case 'crashed':
      return failed('malformed_pdf', `The PDF could not be read: ${result.message}`);
    case 'cancelled':
      throw new IsolationCancelled();
  }
}

// The reading itself, without limits (it runs in the helper process): call parsePdfIsolated.
export async function parsePdf(bytes: Uint8Array, options: PdfReadOptions = {}): Promise<ParseOutcome> {
  const task = await openPdf(bytes);
  try {
    return await readDocument(task, options);
  } catch (error) {
    return pdfErrorToFailure(error);
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

/** What the import passes to the layout reader (docs/invoice-parsing.md, "Learning from a correction"). */
export interface LayoutReadOptions {
  /** Layout memories of the organization's suppliers whose keys the first reading showed. */
  layoutMemories?: SupplierLayoutMemory[];
}

export interface PdfReadOptions extends LayoutReadOptions {
  /** Read the text layer even when an e-invoice XML is embedded (the benchmark compares the two). */
  ignoreEmbeddedXml?: boolean;
}

async function readDocument(task: PDFDocumentLoadingTask, options: PdfReadOptions): Promise<ParseOutcome> {
  const document = await task.promise;
  const embedded = options.ignoreEmbeddedXml ? { warnings: [] } : await readEmbeddedXml(document);
  if (embedded.outcome) return embedded.outcome;
  const pageSizes = new Map<number, { width: number; height: number; left: number }>();
  const words = await wordsOfPdf(document, MAX_TEXT_PAGES, pageSizes);
  if (words.length === 0) {
    return failed(
      'no_text_layer',
      'The PDF has no text layer (a scan or image) and no embedded e-invoice XML; it needs OCR.',
    );
  }
  const outcome = readInvoiceFromWords(words, {
    pageCount: document.numPages,
    memories: options.layoutMemories,
    pageSizes,
  });
  if (outcome.kind === 'invoice') outcome.warnings.push(...embedded.warnings);
  return outcome;
}

/**
 * The positioned words of a PDF's text layer, read in a helper process under the same limits as
 * a parse: what a correction is compared with to learn the supplier's layout. Null when the PDF
 * cannot be read or has no text layer (a scan: its layout is not learned).
 */
export async function readPdfWordsIsolated(bytes: Uint8Array): Promise<Word[] | null> {
  if (!hasEndOfFileMarker(bytes)) return null;
  const result = await runIsolated<Word[] | null>(new URL(import.meta.url), 'readPdfWords', [bytes], {
    timeMs: PDF_TIME_LIMIT_MS,
    memoryBytes: PDF_MEMORY_LIMIT_BYTES,
  });
  if (!result.ok && result.reason === 'cancelled') throw new IsolationCancelled();
  return result.ok && result.value !== null && result.value.length > 0 ? result.value : null;
}

// The helper's side of readPdfWordsIsolated.
export async function readPdfWords(bytes: Uint8Array): Promise<Word[] | null> {
  const task = await openPdf(bytes);
  try {
    return await wordsOfPdf(await task.promise, MAX_TEXT_PAGES);
  } catch {
    return null;
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

interface EmbeddedXmlResult {
  /** An invoice or a known non-invoice document; undefined means "fall back to the text layer". */
  outcome?: ParseOutcome;
  warnings: string[];
}

async function readEmbeddedXml(document: PDFDocumentProxy): Promise<EmbeddedXmlResult> {
  const warnings: string[] = [];
  let nonInvoice: NotInvoiceOutcome | undefined;
  for (const attachment of xmlAttachments(await document.getAttachments())) {
    if (attachment.content.byteLength > MAX_INPUT_BYTES) {
      warnings.push(`The embedded ${attachment.filename} is larger than ${MAX_INPUT_BYTES} bytes and was not read.`);
      continue;
    }
    const outcome = parseXmlInvoice(attachment.content);
    if (outcome.kind === 'invoice') {
      outcome.warnings.push(...warnings);
      return { outcome, warnings };
    }
    if (outcome.kind === 'not_invoice') nonInvoice ??= notInvoice(`Embedded ${attachment.filename}: ${outcome.reason}`);
    else warnings.push(`The embedded ${attachment.filename} could not be read (${outcome.code}: ${outcome.message}).`);
  }
  return { outcome: nonInvoice, warnings };
}

interface Attachment {
  filename: string;
  content: Uint8Array;
}

/** XML attachments, the standard e-invoice file names first. */
function xmlAttachments(raw: unknown): Attachment[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const attachments = Object.values(raw as Record<string, unknown>).filter(isAttachment);
  const rank = (attachment: Attachment) => {
    const index = KNOWN_XML_ATTACHMENTS.indexOf(attachment.filename.toLowerCase());
    return index === -1 ? KNOWN_XML_ATTACHMENTS.length : index;
  };
  return attachments
    .filter((attachment) => attachment.filename.toLowerCase().endsWith('.xml'))
    .sort((a, b) => rank(a) - rank(b));
}

function isAttachment(value: unknown): value is Attachment {
  const candidate = value as Partial<Attachment> | null;
  return typeof candidate?.filename === 'string' && candidate.content instanceof Uint8Array;
}

function pdfErrorToFailure(error: unknown): ParseOutcome {
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException') return failed('encrypted_pdf', 'The PDF is password protected.');
  return failed('malformed_pdf', `The PDF could not be read: ${message}`);
}
