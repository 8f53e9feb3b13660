import { readCii } from './cii.js';
import { classifyXmlRoot, unwrapFramedFinvoice } from './detect.js';
import { readFinvoice } from './finvoice.js';
import { failed, notInvoice, type ParseOutcome } from './model.js';
import { readUbl } from './ubl.js';
import { loadXml } from './xml.js';

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
      if (framedFinvoice) outcome.warnings.unshift('The Finvoice document was read from behind a SOAP envelope in the same file.');
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
