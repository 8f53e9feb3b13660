import { readCii } from './cii.js';
import { classifyXmlRoot, unwrapFramedFinvoice } from './detect.js';
import { readFinvoice } from './finvoice.js';
import { failed, notInvoice, type ParseOutcome } from './model.js';
import { readUbl } from './ubl.js';
import { loadXml } from './xml.js';
import { IsolationCancelled, runIsolated } from '../../shared/isolated.js';
import { PDF_MEMORY_LIMIT_BYTES } from '../../shared/pdfjs.js';

/** Wall-clock budget for one XML file; real invoices parse in well under a second. */
export const XML_TIME_LIMIT_MS = 20_000;
/** Resident memory of the helper reading one XML file (20 MiB at most): the PDF helper's bound. */
export const XML_MEMORY_LIMIT_BYTES = PDF_MEMORY_LIMIT_BYTES;

// Parses the XML in a helper process of the pool (shared/isolated.ts): parsing is synchronous,
// so in the worker's thread a large or hostile file would stall every other activity, and only
// a process can be stopped on time or memory. The helpers stay warm between files.
export async function parseXmlInvoiceIsolated(bytes: Uint8Array): Promise<ParseOutcome> {
  const result = await runIsolated<ParseOutcome>(new URL(import.meta.url), 'parseXmlInvoice', [bytes], {
    timeMs: XML_TIME_LIMIT_MS,
    memoryBytes: XML_MEMORY_LIMIT_BYTES,
  });
  if (result.ok) return result.value;
  switch (result.reason) {
    case 'time_limit':
      return failed('xml_timeout', `Reading the XML took longer than ${XML_TIME_LIMIT_MS / 1000} s and was stopped.`);
    case 'memory_limit':
      return failed(
        'xml_too_large_expanded',
        `Reading the XML took more than ${XML_MEMORY_LIMIT_BYTES / 2 ** 20} MiB of memory and was stopped.`,
      );
    case 'crashed':
      return failed('malformed_xml', 'The XML could not be read.');
    case 'cancelled':
      throw new IsolationCancelled();
  }
}

/** Parses a standalone e-invoice XML file or an XML attachment taken out of a PDF. */
export function parseXmlInvoice(bytes: Uint8Array): ParseOutcome {
  const framedFinvoice = unwrapFramedFinvoice(bytes);
  const loaded = loadXml(framedFinvoice ?? bytes);
  if (!loaded.ok) return loaded.failure;
  const documentKind = classifyXmlRoot(loaded.root);
  switch (documentKind.kind) {
    case 'ubl':
      return readUbl(loaded.root);
    case 'cii':
      return readCii(loaded.root);
    case 'finvoice': {
      const outcome = readFinvoice(loaded.root);
      if (framedFinvoice)
        outcome.warnings.unshift('The Finvoice document was read from behind a SOAP envelope in the same file.');
      return outcome;
    }
    case 'not_invoice':
      return notInvoice(`The XML is ${documentKind.description}, not an invoice.`);
    case 'unknown':
      return failed(
        'unsupported_format',
        `XML with root element <${documentKind.rootName}> is not a supported invoice format (UBL Invoice/CreditNote, Finvoice, Cross Industry Invoice).`,
      );
  }
}
