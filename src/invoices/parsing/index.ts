/**
 * Invoice parsing: bytes in, one normalized invoice model out, for Peppol BIS 3, EHF 2.0,
 * Finvoice 3.0, CII (Factur-X/ZUGFeRD/XRechnung, usually inside a PDF) and plain PDFs read
 * from their text layer. Pure: no network, no database, no files of its own; a PDF is read in a
 * helper process stopped on time or memory (pdf.ts, shared/isolated.ts), and so is an XML file
 * (xml-invoice.ts), so neither blocks the worker's event loop.
 */
import { detectContainer } from './detect.js';
import { MAX_INPUT_BYTES } from './limits.js';
import { failed, type ParseInput, type ParseOutcome } from './model.js';
import { parsePdfIsolated, type LayoutReadOptions } from './pdf.js';
import { parseXmlInvoiceIsolated } from './xml-invoice.js';
import { IsolationCancelled } from '../../shared/isolated.js';

export { MAX_INPUT_BYTES } from './limits.js';

/**
 * Never throws: unreadable input ends in a `failed` outcome with a stable `code`, documents
 * that are readable but are not invoices (orders, manuals) in `not_invoice`.
 */
export async function parseInvoiceDocument(input: ParseInput): Promise<ParseOutcome> {
  try {
    return await parseBytes(input.bytes, input);
  } catch (error) {
    if (error instanceof IsolationCancelled) throw error;
    // A bug in a reader must not take the calling activity down with an unhandled rejection.
    const message = error instanceof Error ? error.message : String(error);
    return failed('internal_error', `The document could not be parsed because of an internal error: ${message}`);
  }
}

async function parseBytes(bytes: Uint8Array, options: LayoutReadOptions): Promise<ParseOutcome> {
  if (bytes.byteLength === 0) return failed('empty_file', 'The file is empty.');
  if (bytes.byteLength > MAX_INPUT_BYTES) {
    return failed(
      'file_too_large',
      `The file has ${bytes.byteLength} bytes; at most ${MAX_INPUT_BYTES} bytes (${MAX_INPUT_BYTES / 2 ** 20} MiB) are accepted.`,
    );
  }
  switch (detectContainer(bytes)) {
    case 'pdf':
      return parsePdfIsolated(bytes, { layoutMemories: options.layoutMemories });
    case 'xml':
      return parseXmlInvoiceIsolated(bytes);
    case 'unknown':
      return failed('unsupported_format', 'The file is neither a PDF nor an XML document.');
  }
}

export type * from './model.js';
export { normalizedInvoiceSchema, parseOutcomeSchema } from './schema.js';
