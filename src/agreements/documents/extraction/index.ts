/**
 * Agreement documents (terms and price lists): text extraction into searchable passages and a
 * deterministic terms/price-list classification. Pure: no network, no database, no files of its
 * own (pdf.js reads its bundled character maps from node_modules); a PDF is read in a helper
 * process stopped on time or memory, like every other format. Never throws for bad input.
 */
import { IsolationCancelled, runIsolated } from '../../../shared/isolated.js';
import { detectDocument, hasPdfHeader, type DetectedDocument } from './detect.js';
import { extractDocx } from './docx.js';
import {
  DEFAULT_LIMITS,
  Deadline,
  HARD_STOP_GRACE_MS,
  TimeLimitExceeded,
  withTimeLimit,
  type ExtractionLimits,
} from './limits.js';
import {
  ExtractionError,
  failed,
  type ExtractionInput,
  type ExtractionResult,
} from '../../../documents/extraction-model.js';
import { DocumentTextBuilder } from './passages.js';
import { extractPdf } from './pdf.js';
import { extractXlsx } from './spreadsheet.js';
import { extractCsv, extractPlainText } from './text.js';

export { classifyAgreementDocument } from './classify.js';
export type { AgreementDocumentClassification, ClassificationInput } from './classify.js';
export { DEFAULT_LIMITS, type ExtractionLimits } from './limits.js';
export type * from '../../../documents/extraction-model.js';
export { PASSAGE_MAX, PASSAGE_MIN } from './passages.js';

export function extractDocumentText(input: ExtractionInput): Promise<ExtractionResult> {
  return extractWithLimits(input, DEFAULT_LIMITS);
}

/**
 * `extractDocumentText` with other limits; tests use it to reach the limits with small inputs.
 * Every format is read in a helper process of the pool (shared/isolated.ts), stopped when it runs
 * out of time or memory: a small PDF can inflate to gigabytes, and parsing a DOCX or XLSX is
 * synchronous work that would otherwise stall the worker's event loop for every other tenant.
 */
export async function extractWithLimits(input: ExtractionInput, limits: ExtractionLimits): Promise<ExtractionResult> {
  // Files too large are refused unread, without a helper.
  if (input.bytes.byteLength > limits.maxInputBytes) return extractInProcess(input, limits);
  const plainInput = { bytes: input.bytes, fileName: input.fileName, mimeType: input.mimeType };
  const timeMs = limits.timeLimitMs + 2 * HARD_STOP_GRACE_MS;
  const result = await runIsolated<ExtractionResult>(
    new URL(import.meta.url),
    'extractInProcess',
    [plainInput, limits],
    {
      timeMs,
      memoryBytes: limits.memoryBytes,
    },
  );
  if (result.ok) return result.value;
  const what = hasPdfHeader(input.bytes) ? 'the PDF' : 'the document';
  switch (result.reason) {
    case 'time_limit':
      return failed('unreadable', `Reading ${what} took longer than ${Math.round(timeMs / 1000)} s and was stopped.`);
    case 'memory_limit':
      return failed(
        'too_large',
        `Reading ${what} took more than ${limits.memoryBytes / 2 ** 20} MiB of memory (its compressed content inflates that far) and was stopped.`,
      );
    case 'crashed':
      return failed('unreadable', `${what === 'the PDF' ? 'The PDF' : 'The document'} could not be read.`);
    case 'cancelled':
      throw new IsolationCancelled();
  }
}

/** The extraction itself, in this process (for a PDF: in the helper process). */
export async function extractInProcess(input: ExtractionInput, limits: ExtractionLimits): Promise<ExtractionResult> {
  const { bytes } = input;
  if (bytes.byteLength > limits.maxInputBytes) {
    return failed(
      'too_large',
      `The file is ${formatMiB(bytes.byteLength)}; documents up to ${formatMiB(limits.maxInputBytes)} are read.`,
    );
  }
  if (bytes.byteLength === 0) return failed('no_text', 'The file is empty.');
  try {
    const detected = detectDocument(input);
    if ('kind' in detected) return detected;
    return await withTimeLimit(extract(detected, bytes, limits), limits.timeLimitMs + HARD_STOP_GRACE_MS);
  } catch (error) {
    return toFailure(error);
  }
}

async function extract(
  detected: DetectedDocument,
  bytes: Uint8Array,
  limits: ExtractionLimits,
): Promise<ExtractionResult> {
  const builder = new DocumentTextBuilder(limits.maxCharacters);
  const deadline = new Deadline(limits.timeLimitMs);
  let pageCount: number | null = null;
  switch (detected.format) {
    case 'pdf':
      pageCount = (await extractPdf(bytes, builder, limits, deadline)).pageCount;
      break;
    case 'docx':
      await extractDocx(bytes, detected.entries, builder, limits);
      break;
    case 'xlsx':
      await extractXlsx(bytes, detected.entries, builder, limits, deadline);
      break;
    case 'csv':
      extractCsv(detected.decoded.text, builder);
      break;
    case 'text':
      extractPlainText(detected.decoded.text, builder);
      break;
  }
  if (builder.characterCount === 0) return builder.truncated ? stoppedBeforeText() : noText(detected.format);
  const passages = builder.passages();
  return {
    kind: 'text',
    format: detected.format,
    passages,
    truncated: builder.truncated,
    pageCount,
    characterCount: builder.characterCount,
  };
}

function noText(format: DetectedDocument['format']): ExtractionResult {
  if (format === 'pdf')
    return failed(
      'no_text',
      'The PDF has no text layer (a scan or images only); it needs OCR before it can be searched.',
    );
  return failed('no_text', `The ${format.toUpperCase()} file contains no text.`);
}

/** A limit (time) ended extraction before the first paragraph: an empty "truncated" result would hide that. */
function stoppedBeforeText(): ExtractionResult {
  return failed('unreadable', 'The time limit was reached before any text could be read.');
}

function toFailure(error: unknown): ExtractionResult {
  if (error instanceof ExtractionError) return failed(error.code, error.message);
  if (error instanceof TimeLimitExceeded) return failed('unreadable', error.message);
  const message = error instanceof Error ? error.message : String(error);
  return failed('unreadable', `The document could not be read: ${message.slice(0, 200)}`);
}

function formatMiB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
