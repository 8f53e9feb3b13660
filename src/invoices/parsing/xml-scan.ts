import { SaxesParser, type SaxesTagPlain } from 'saxes';
import type { XmlElement } from './xml-tree.js';

/**
 * Builds the element tree (xml-tree.ts) from the events of `saxes`, a conformant, non-validating
 * XML 1.0 parser: one pass over the text, no intermediate object model. It replaced
 * fast-xml-parser's validator plus parser plus a tree conversion, which took seconds for a
 * 50,000-line invoice (docs/benchmarks.md).
 *
 * Well-formedness is XML 1.0's, checked by saxes for the whole document (a second root or
 * text after the root is not well-formed; fast-xml-parser ignored both). References: the five XML entities, character references, and
 * the common HTML and currency names producers write by mistake (`&nbsp;`, `&euro;`); any other
 * name is not well-formed. DOCTYPE and ENTITY declarations never reach it (loadXml refuses them
 * first).
 *
 * The tree: names without their namespace prefix, attributes by local name (`xmlns`
 * declarations left out), an element's text the trimmed text runs around its children joined
 * (CDATA kept as written), every value a string.
 */

export type ScanFailure = { code: 'malformed_xml' | 'xml_too_deep' | 'xml_too_many_elements'; message: string };
export type Scanned = { ok: true; root: XmlElement } | { ok: false; failure: ScanFailure };

interface MutableElement {
  name: string;
  attributes: Record<string, string>;
  children: MutableElement[];
  text: string;
}

// Shared by every element without attributes (most of them): the readers only read it.
const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze(Object.create(null) as Record<string, string>);

// fast-xml-parser expanded these (its htmlEntities option); kept so such files still read.
const HTML_NAMES: Readonly<Record<string, string>> = {
  nbsp: '\u00a0',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  mdash: '\u2014',
  ndash: '\u2013',
  hellip: '\u2026',
  laquo: '\u00ab',
  raquo: '\u00bb',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  bull: '\u2022',
  para: '\u00b6',
  sect: '\u00a7',
  deg: '\u00b0',
  frac12: '\u00bd',
  frac14: '\u00bc',
  frac34: '\u00be',
  cent: '\u00a2',
  pound: '\u00a3',
  curren: '\u00a4',
  yen: '\u00a5',
  euro: '\u20ac',
  dollar: '$',
  fnof: '\u0192',
  inr: '\u20b9',
  af: '\u060b',
  birr: '\u1265\u122d',
  peso: '\u20b1',
  rub: '\u20bd',
  won: '\u20a9',
  yuan: '\u00a5',
  cedil: '\u00b8',
};

// Names JavaScript objects would mishandle as keys elsewhere; refused as element names.
const REFUSED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

const localName = (name: string) => {
  const colon = name.lastIndexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
};

class NotWellFormed extends Error {}
class TooDeep extends Error {}
class TooManyAttributes extends Error {}

// An e-invoice element carries a handful of attributes (currencyID, unitCode, schemeID, ...). The
// parser's cost per attribute grows with the number on one element, so far more is refused early.
export const MAX_XML_ATTRIBUTES_PER_ELEMENT = 100;

export function scanXml(text: string, maxDepth: number): Scanned {
  const parser = new SaxesParser({ xmlns: false, position: true });
  Object.assign(parser.ENTITIES, HTML_NAMES);
  const open: { element: MutableElement; text: string }[] = [];
  let root: MutableElement | null = null;
  let attributesOfTag = 0;

  parser.on('opentagstart', () => {
    attributesOfTag = 0;
  });
  parser.on('attribute', () => {
    attributesOfTag += 1;
    if (attributesOfTag > MAX_XML_ATTRIBUTES_PER_ELEMENT) throw new TooManyAttributes();
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    if (REFUSED_NAMES.has(tag.name))
      throw new NotWellFormed(`${parser.line}:${parser.column}: tag '${tag.name}' is not allowed.`);
    const element: MutableElement = {
      name: localName(tag.name),
      attributes: attributesOf(tag.attributes),
      children: [],
      text: '',
    };
    const parent = open[open.length - 1];
    if (parent) parent.element.children.push(element);
    else root = element;
    // A self-closing element is open until its closetag event, which follows at once.
    if (!tag.isSelfClosing && open.length >= maxDepth) throw new TooDeep();
    open.push({ element, text: '' });
  });
  parser.on('closetag', () => {
    const closed = open.pop();
    if (closed) closed.element.text = closed.text.trim();
  });
  parser.on('text', (value: string) => {
    const top = open[open.length - 1];
    const trimmed = value.trim();
    if (top && trimmed) top.text += trimmed;
  });
  parser.on('cdata', (value: string) => {
    const top = open[open.length - 1];
    if (top) top.text += value;
  });
  parser.on('error', (error: Error) => {
    throw new NotWellFormed(error.message);
  });

  try {
    parser.write(text).close();
  } catch (error) {
    if (error instanceof TooManyAttributes)
      return {
        ok: false,
        failure: {
          code: 'xml_too_many_elements',
          message: `An element of the XML has more than ${MAX_XML_ATTRIBUTES_PER_ELEMENT} attributes.`,
        },
      };
    if (error instanceof TooDeep)
      return {
        ok: false,
        failure: { code: 'xml_too_deep', message: `The XML nests elements deeper than ${maxDepth} levels.` },
      };
    if (error instanceof NotWellFormed)
      return { ok: false, failure: { code: 'malformed_xml', message: notWellFormed(error.message) } };
    throw error;
  }
  // saxes reports a missing root or an unclosed element as an error; this is a second guard.
  if (root === null || open.length > 0)
    return {
      ok: false,
      failure: {
        code: 'malformed_xml',
        message: 'The XML is not well-formed: the root element is missing or not closed.',
      },
    };
  return { ok: true, root };
}

function attributesOf(raw: Record<string, string>): Record<string, string> {
  let attributes: Record<string, string> | null = null;
  for (const name in raw) {
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
    attributes ??= Object.create(null) as Record<string, string>;
    attributes[localName(name)] = raw[name]!;
  }
  return attributes ?? NO_ATTRIBUTES;
}

// saxes says "line:column: message."; the public message keeps the place and drops its format.
function notWellFormed(raw: string): string {
  const match = /^(\d{1,9}):(\d{1,9}): (.{0,300})/.exec(raw);
  if (!match) return `The XML is not well-formed: ${raw.slice(0, 300)}`;
  return `The XML is not well-formed: ${match[3]!.replace(/\.$/, '')} (line ${match[1]}, column ${match[2]}).`;
}
