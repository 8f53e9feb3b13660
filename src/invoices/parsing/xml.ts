import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { failed, type FailedOutcome } from './model.js';
import { decodeXmlBytes } from './xml-encoding.js';
import type { XmlElement } from './xml-tree.js';

/** Real invoices nest about 10 levels deep; anything near this is an attack or garbage. */
export const MAX_XML_DEPTH = 64;
/**
 * Each element or attribute costs a few hundred bytes once parsed, so a file of "<a/>" filling
 * the byte limit would need gigabytes. A Peppol invoice line is about 18 of them (elements and
 * attributes): 1,500,000 is some 80,000 lines; a 70,000-line invoice (1.26 million) parsed within
 * 870 MB of resident memory.
 */
export const MAX_XML_NODES = 1_500_000;

export type LoadedXml = { ok: true; root: XmlElement } | { ok: false; failure: FailedOutcome };

/**
 * Turns XML bytes into an element tree, refusing what could hurt the process:
 * DTDs (entity expansion "billion laughs", external entities), deep nesting, and input
 * that is not well-formed. Never throws.
 */
export function loadXml(bytes: Uint8Array): LoadedXml {
  const decoded = decodeXmlBytes(bytes);
  if (!decoded.ok) return decoded;
  const text = decoded.text;
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
    return reject('xml_entities_rejected', 'The XML contains a DOCTYPE or ENTITY declaration; e-invoices never need one and it is refused for safety.');
  }
  if (exceedsNodeLimit(text)) {
    return reject('xml_too_many_elements', `The XML has more than ${MAX_XML_NODES} elements and attributes.`);
  }
  const validation = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (validation !== true) {
    const { msg, line, col } = validation.err;
    return reject('malformed_xml', `The XML is not well-formed: ${msg} (line ${line}, column ${col}).`);
  }
  return parseValidated(text);
}

/** Counts start tags and attribute values without building anything; stops once past the limit. */
function exceedsNodeLimit(text: string): boolean {
  const startTagOrAttribute = /<[\p{L}_]|=\s*["']/gu;
  let count = 0;
  while (startTagOrAttribute.exec(text) !== null) {
    count += 1;
    if (count > MAX_XML_NODES) return true;
  }
  return false;
}

function parseValidated(text: string): LoadedXml {
  let nodes: OrderedNode[];
  try {
    nodes = createParser().parse(text) as OrderedNode[];
  } catch (error) {
    return parseErrorToFailure(error);
  }
  const root = nodes.map(toElement).find((element): element is XmlElement => element !== null);
  if (!root) return reject('malformed_xml', 'The XML has no root element.');
  return { ok: true, root };
}

function createParser(): XMLParser {
  return new XMLParser({
    preserveOrder: true,
    removeNSPrefix: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    // Keep every value a string: "0150" or "1116.00" must not become numbers.
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    // Safe only because DTDs were refused above: this expands just the five XML
    // entities and numeric character references (&#228;).
    processEntities: true,
    htmlEntities: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    // The parser counts open ancestors, so the root itself is not included: depth - 1.
    maxNestedTags: MAX_XML_DEPTH - 1,
  });
}

function parseErrorToFailure(error: unknown): LoadedXml {
  const message = error instanceof Error ? error.message : String(error);
  if (/nested tags/i.test(message)) {
    return reject('xml_too_deep', `The XML nests elements deeper than ${MAX_XML_DEPTH} levels.`);
  }
  return reject('malformed_xml', `The XML could not be parsed: ${message}`);
}

function reject(code: FailedOutcome['code'], message: string): LoadedXml {
  return { ok: false, failure: failed(code, message) };
}

/** fast-xml-parser's preserveOrder shape: `{ tag: children, ':@': attributes }` or `{ '#text': text }`. */
type OrderedNode = Record<string, unknown>;

function toElement(node: OrderedNode): XmlElement | null {
  const name = Object.keys(node).find((key) => key !== ':@' && key !== '#text');
  if (name === undefined) return null;
  const content = asNodeList(node[name]);
  return {
    name: stripPrefix(name),
    attributes: attributesOf(node[':@']),
    children: content.map(toElement).filter((child): child is XmlElement => child !== null),
    text: content
      .map((child) => child['#text'])
      .filter((text): text is string => typeof text === 'string')
      .join('')
      .trim(),
  };
}

function asNodeList(value: unknown): OrderedNode[] {
  return Array.isArray(value) ? (value as OrderedNode[]) : [];
}

function attributesOf(value: unknown): Record<string, string> {
  const attributes: Record<string, string> = Object.create(null) as Record<string, string>;
  if (typeof value !== 'object' || value === null) return attributes;
  for (const [name, raw] of Object.entries(value)) {
    attributes[stripPrefix(name)] = String(raw);
  }
  return attributes;
}

/** The parser already removes prefixes; this covers names it leaves alone (e.g. on attributes). */
function stripPrefix(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}
