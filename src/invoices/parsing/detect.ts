import { skipWhitespace } from '../../shared/text-scan.js';
import { latin1 } from './xml-encoding.js';
import type { XmlElement } from './xml-tree.js';

export type ContainerKind = 'pdf' | 'xml' | 'unknown';

/** PDF readers accept the header anywhere in the first KiB (some producers prepend junk). */
const PDF_HEADER_WINDOW = 1024;

/** Decides by content; file names and MIME types lie too often to be trusted. */
export function detectContainer(bytes: Uint8Array): ContainerKind {
  const head = latin1(bytes.subarray(0, PDF_HEADER_WINDOW));
  if (head.startsWith('%PDF-')) return 'pdf';
  // UTF-16 puts a zero byte next to every ASCII character.
  // eslint-disable-next-line no-control-regex -- the zero bytes of UTF-16 are what this looks for
  if (/^(?:\xEF\xBB\xBF|\xFF\xFE|\xFE\xFF)?[\s\x00]*</.test(head)) return 'xml';
  if (head.includes('%PDF-')) return 'pdf';
  return 'unknown';
}

export type XmlDocumentKind =
  | { kind: 'ubl' }
  | { kind: 'finvoice' }
  | { kind: 'cii' }
  | { kind: 'not_invoice'; description: string }
  | { kind: 'unknown'; rootName: string };

/** Known business documents that are deliberately not invoices. */
const NON_INVOICE_ROOTS: Readonly<Record<string, string>> = {
  SCRDMCCBDACIOMessageStructure: 'an Order-X purchase order (UN/CEFACT Cross Industry Order)',
  CrossIndustryOrder: 'a UN/CEFACT Cross Industry Order',
  CrossIndustryDespatchAdvice: 'a UN/CEFACT despatch advice',
  Order: 'a UBL purchase order',
  OrderResponse: 'a UBL order response',
  OrderChange: 'a UBL order change',
  DespatchAdvice: 'a UBL despatch advice',
  ApplicationResponse: 'a UBL application response (invoice status message)',
  Catalogue: 'a UBL catalogue',
  Reminder: 'a UBL payment reminder',
};

export function classifyXmlRoot(root: XmlElement): XmlDocumentKind {
  switch (root.name) {
    case 'Invoice':
    case 'CreditNote':
      return { kind: 'ubl' };
    case 'Finvoice':
      return { kind: 'finvoice' };
    case 'CrossIndustryInvoice':
    case 'CrossIndustryDocument':
      return { kind: 'cii' };
  }
  const description = NON_INVOICE_ROOTS[root.name];
  return description ? { kind: 'not_invoice', description } : { kind: 'unknown', rootName: root.name };
}

/**
 * Finvoice messages are often delivered with an ebXML SOAP envelope in front of the
 * Finvoice document in the same file ("<SOAP-ENV:Envelope>...</SOAP-ENV:Envelope><?xml ...?>
 * <Finvoice>"), which is not one well-formed XML document. Returns the bytes of the Finvoice
 * document alone (from its own XML declaration, so its encoding is honoured), or null when
 * the file holds no framed Finvoice.
 */
export function unwrapFramedFinvoice(bytes: Uint8Array): Uint8Array | null {
  const text = latin1(bytes);
  const rootStart = text.search(/<Finvoice[\s>]/);
  if (rootStart <= 0) return null;
  const end = text.lastIndexOf('</Finvoice>');
  if (end < rootStart) return null;
  const declarationStart = lastXmlDeclarationBefore(text, rootStart);
  const start =
    declarationStart !== -1 && onlyPrologBetween(text, declarationStart, rootStart) ? declarationStart : rootStart;
  // Only a byte order mark or whitespace in front: an ordinary Finvoice file, nothing to cut.
  if (/^(?:\xEF\xBB\xBF)?\s*$/.test(text.slice(0, start))) return null;
  return bytes.subarray(start, end + '</Finvoice>'.length);
}

/** The XML declaration itself, not a `<?xml-stylesheet ...?>` instruction after it. */
function lastXmlDeclarationBefore(text: string, position: number): number {
  let found = -1;
  for (const match of text.slice(0, position).matchAll(/<\?xml\s/g)) found = match.index;
  return found;
}

/**
 * True when only processing instructions, comments and whitespace lie between the positions.
 * Scanned once: a lazy `<!--[\s\S]*?-->` alternation re-reads the rest of the text from every
 * unclosed `<!--` and took quadratic time on a hostile envelope.
 */
function onlyPrologBetween(text: string, from: number, to: number): boolean {
  let index = skipWhitespace(text, from);
  while (index < to) {
    const [open, end] = text.startsWith('<?', index)
      ? ['<?', '?>']
      : text.startsWith('<!--', index)
        ? ['<!--', '-->']
        : [null, null];
    if (open === null) return false;
    const closeAt = text.indexOf(end, index + open.length);
    // Not closed before `to`: not prolog.
    if (closeAt === -1 || closeAt + end.length > to) return false;
    index = skipWhitespace(text, closeAt + end.length);
  }
  return true;
}
