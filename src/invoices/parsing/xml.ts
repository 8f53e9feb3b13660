import { failed, type FailedOutcome } from './model.js';
import { decodeXmlBytes } from './xml-encoding.js';
import type { XmlElement } from './xml-tree.js';
import { scanXml } from './xml-scan.js';

/** Real invoices nest about 10 levels deep; anything near this is an attack or garbage. */
export const MAX_XML_DEPTH = 64;
/**
 * Each element or attribute costs a few hundred bytes once parsed, so a file of "<a/>" filling
 * the byte limit would need gigabytes. A Peppol invoice line is about 18 of them (elements and
 * attributes): 1,500,000 is some 80,000 lines, within the helper's memory
 * (docs/benchmarks.md).
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
    return reject(
      'xml_entities_rejected',
      'The XML contains a DOCTYPE or ENTITY declaration; e-invoices never need one and it is refused for safety.',
    );
  }
  if (exceedsNodeLimit(text)) {
    return reject('xml_too_many_elements', `The XML has more than ${MAX_XML_NODES} elements and attributes.`);
  }
  const scanned = scanXml(text, MAX_XML_DEPTH);
  return scanned.ok ? scanned : reject(scanned.failure.code, scanned.failure.message);
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

function reject(code: FailedOutcome['code'], message: string): LoadedXml {
  return { ok: false, failure: failed(code, message) };
}
