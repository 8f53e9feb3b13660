import type { XmlElement } from './xml-tree.js';

/**
 * A single-pass XML reader that builds the element tree (xml-tree.ts) directly: one scan of the
 * text, each character looked at a bounded number of times, no regular expressions, no
 * intermediate object model. It replaced fast-xml-parser's validator plus parser plus a tree
 * conversion, which took about 14 s for a 27 MiB, 50,000-line invoice (this reads it in a
 * fraction of a second).
 *
 * What it accepts is what the service accepted before (docs/invoice-parsing.md):
 * - well-formedness of what the readers see: names, matching end tags, quoted and unique
 *   attributes separated by whitespace, `&` only as a reference, nothing left open;
 * - references: the five XML entities, decimal and hexadecimal character references, and the
 *   common HTML and currency names producers write by mistake (`&nbsp;`, `&euro;`); another
 *   name (`&foo;`) or a character reference to no character stays as written;
 * - comments, processing instructions and CDATA anywhere, their content not interpreted;
 * - anything after the root element's end is ignored.
 * DOCTYPE and ENTITY declarations never reach it (loadXml refuses them first), and a
 * `<!DOCTYPE` inside the content is not well-formed here.
 *
 * The tree: names without their namespace prefix, attributes by local name (`xmlns`
 * declarations left out), an element's text the trimmed text runs around its children
 * joined (CDATA kept as written), every value a string.
 */

export type ScanFailure = { code: 'malformed_xml' | 'xml_too_deep'; message: string };
export type Scanned = { ok: true; root: XmlElement } | { ok: false; failure: ScanFailure };

interface MutableElement {
  name: string;
  attributes: Record<string, string>;
  children: MutableElement[];
  text: string;
}

interface Open {
  element: MutableElement;
  rawName: string;
  at: number;
  text: string;
}

// Shared by every element without attributes (most of them): the readers only read it.
const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze(Object.create(null) as Record<string, string>);

const NAMED_REFERENCES: Readonly<Record<string, string>> = Object.assign(Object.create(null) as Record<string, string>, {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
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
});

/** The longest reference looked for after `&` (`&#x10FFFF;` is 10): keeps the scan linear on `&&&&…`. */
const MAX_REFERENCE_LENGTH = 12;

const LT = 60; // <
const GT = 62; // >
const SLASH = 47; // /
const BANG = 33; // !
const QUESTION = 63; // ?
const EQUALS = 61; // =
const AMP = 38; // &
const SEMICOLON = 59; // ;
const HASH = 35; // #
const QUOTE = 34; // "
const APOSTROPHE = 39; // '
const COLON = 58; // :

const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;

function isNameStart(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95 || code === COLON || code >= 0xc0;
}

function isNameChar(code: number): boolean {
  return isNameStart(code) || (code >= 48 && code <= 57) || code === 45 || code === 46 || code === 0xb7;
}

const localName = (name: string) => {
  const colon = name.lastIndexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
};

class NotWellFormed extends Error {
  constructor(
    readonly reason: string,
    readonly at: number,
  ) {
    super(reason);
  }
}

class TooDeep extends Error {}

export function scanXml(text: string, maxDepth: number): Scanned {
  try {
    return { ok: true, root: new Scanner(text, maxDepth).document() };
  } catch (error) {
    if (error instanceof TooDeep) return { ok: false, failure: { code: 'xml_too_deep', message: `The XML nests elements deeper than ${maxDepth} levels.` } };
    if (error instanceof NotWellFormed) {
      const { line, column } = lineAndColumn(text, error.at);
      return { ok: false, failure: { code: 'malformed_xml', message: `The XML is not well-formed: ${error.reason} (line ${line}, column ${column}).` } };
    }
    throw error;
  }
}

function lineAndColumn(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < at; index = text.indexOf('\n', index + 1)) {
    line += 1;
    lineStart = index + 1;
  }
  return { line, column: at - lineStart + 1 };
}

class Scanner {
  private at = 0;
  private readonly open: Open[] = [];

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  document(): XmlElement {
    const { text } = this;
    if (text.charCodeAt(0) === 0xfeff) this.at = 1;
    // Prolog: whitespace, the declaration, comments and processing instructions.
    for (;;) {
      this.skipSpace();
      if (this.at >= text.length) throw new NotWellFormed('the document has no root element', this.at);
      if (text.charCodeAt(this.at) !== LT) throw new NotWellFormed(`text before the root element`, this.at);
      const next = text.charCodeAt(this.at + 1);
      if (next === QUESTION) this.skipPast('?>', 'processing instruction');
      else if (next === BANG && text.startsWith('<!--', this.at)) this.skipPast('-->', 'comment');
      else break;
    }
    const root = this.startTag();
    this.content();
    return root;
  }

  // From after the root's start tag to its end tag.
  private content(): void {
    const { text } = this;
    while (this.open.length > 0) {
      const lt = text.indexOf('<', this.at);
      if (lt === -1) {
        const top = this.open[this.open.length - 1]!;
        throw new NotWellFormed(`unclosed tag '${top.rawName}'`, top.at);
      }
      if (lt > this.at) this.appendText(this.at, lt);
      this.at = lt;
      const next = text.charCodeAt(lt + 1);
      if (next === SLASH) this.endTag();
      else if (next === BANG) this.bang();
      else if (next === QUESTION) this.skipPast('?>', 'processing instruction');
      else this.startTag();
    }
  }

  private appendText(from: number, to: number): void {
    const top = this.open[this.open.length - 1]!;
    const raw = this.text.slice(from, to);
    const decoded = raw.indexOf('&') === -1 ? raw : this.decode(raw, from);
    const trimmed = decoded.trim();
    if (trimmed) top.text += trimmed;
  }

  // `<!--`, `<![CDATA[`; any other declaration is not allowed in content.
  private bang(): void {
    const { text } = this;
    if (text.startsWith('<!--', this.at)) return this.skipPast('-->', 'comment');
    if (text.startsWith('<![CDATA[', this.at)) {
      const start = this.at + 9;
      const end = text.indexOf(']]>', start);
      if (end === -1) throw new NotWellFormed('unclosed CDATA section', this.at);
      this.open[this.open.length - 1]!.text += text.slice(start, end);
      this.at = end + 3;
      return;
    }
    throw new NotWellFormed('a declaration is not allowed inside an element', this.at);
  }

  private skipPast(end: string, what: string): void {
    const close = this.text.indexOf(end, this.at + 2);
    if (close === -1) throw new NotWellFormed(`unclosed ${what}`, this.at);
    this.at = close + end.length;
  }

  private skipSpace(): void {
    const { text } = this;
    while (this.at < text.length && isSpace(text.charCodeAt(this.at))) this.at += 1;
  }

  private name(what: string): string {
    const { text } = this;
    const start = this.at;
    if (!isNameStart(text.charCodeAt(start))) throw new NotWellFormed(`${what} has no valid name`, start);
    let end = start + 1;
    while (end < text.length && isNameChar(text.charCodeAt(end))) end += 1;
    this.at = end;
    return text.slice(start, end);
  }

  // At `<`: reads a start tag with its attributes, adds the element to its parent and opens it
  // unless it closes itself.
  private startTag(): MutableElement {
    const { text } = this;
    const tagAt = this.at;
    this.at += 1;
    const rawName = this.name('a tag');
    if (rawName === '__proto__' || rawName === 'constructor' || rawName === 'prototype') throw new NotWellFormed(`tag '${rawName}' is not allowed`, tagAt);
    const element: MutableElement = { name: localName(rawName), attributes: NO_ATTRIBUTES as Record<string, string>, children: [], text: '' };
    let selfClosing = false;
    let seen: Set<string> | null = null;
    for (;;) {
      const spaced = isSpace(text.charCodeAt(this.at));
      this.skipSpace();
      const code = text.charCodeAt(this.at);
      if (code === GT) {
        this.at += 1;
        break;
      }
      if (code === SLASH && text.charCodeAt(this.at + 1) === GT) {
        this.at += 2;
        selfClosing = true;
        break;
      }
      if (this.at >= text.length) throw new NotWellFormed(`unclosed tag '${rawName}'`, tagAt);
      if (!spaced) throw new NotWellFormed(`attributes of '${rawName}' must be separated by whitespace`, this.at);
      const attributeAt = this.at;
      const attribute = this.name('an attribute');
      seen ??= new Set();
      if (seen.has(attribute)) throw new NotWellFormed(`attribute '${attribute}' is repeated`, attributeAt);
      seen.add(attribute);
      const value = this.attributeValue(attribute);
      if (attribute === 'xmlns' || attribute.startsWith('xmlns:')) continue;
      if (element.attributes === NO_ATTRIBUTES) element.attributes = Object.create(null) as Record<string, string>;
      element.attributes[localName(attribute)] = value;
    }
    const parent = this.open[this.open.length - 1];
    parent?.element.children.push(element);
    if (selfClosing) return element;
    if (this.open.length >= this.maxDepth) throw new TooDeep();
    this.open.push({ element, rawName, at: tagAt, text: '' });
    return element;
  }

  private attributeValue(attribute: string): string {
    const { text } = this;
    this.skipSpace();
    if (text.charCodeAt(this.at) !== EQUALS) throw new NotWellFormed(`attribute '${attribute}' has no value`, this.at);
    this.at += 1;
    this.skipSpace();
    const quote = text.charCodeAt(this.at);
    if (quote !== QUOTE && quote !== APOSTROPHE) throw new NotWellFormed(`the value of attribute '${attribute}' is not quoted`, this.at);
    const start = this.at + 1;
    const end = text.indexOf(quote === QUOTE ? '"' : "'", start);
    if (end === -1) throw new NotWellFormed(`the value of attribute '${attribute}' is not closed`, this.at);
    this.at = end + 1;
    const raw = text.slice(start, end);
    return raw.indexOf('&') === -1 ? raw : this.decode(raw, start);
  }

  // At `</`: closes the innermost element, whose text is now complete.
  private endTag(): void {
    const { text } = this;
    const tagAt = this.at;
    this.at += 2;
    const rawName = this.name('a closing tag');
    this.skipSpace();
    if (text.charCodeAt(this.at) !== GT) throw new NotWellFormed(`closing tag '${rawName}' is not closed`, this.at);
    this.at += 1;
    const top = this.open.pop()!;
    if (top.rawName !== rawName) throw new NotWellFormed(`closing tag '${rawName}' does not match the open tag '${top.rawName}'`, tagAt);
    top.element.text = top.text.trim();
  }

  // Replaces references in `raw` (which starts at `offset` in the text).
  private decode(raw: string, offset: number): string {
    let result = '';
    let from = 0;
    for (let amp = raw.indexOf('&'); amp !== -1; amp = raw.indexOf('&', from)) {
      result += raw.slice(from, amp);
      let semicolon = -1;
      const limit = Math.min(raw.length, amp + MAX_REFERENCE_LENGTH);
      for (let index = amp + 1; index < limit; index += 1) {
        if (raw.charCodeAt(index) === SEMICOLON) {
          semicolon = index;
          break;
        }
      }
      const body = semicolon === -1 ? '' : raw.slice(amp + 1, semicolon);
      if (!isReferenceBody(body)) throw new NotWellFormed(`'&' must start a reference such as &amp;`, offset + amp);
      result += referenced(body) ?? `&${body};`;
      from = semicolon + 1;
    }
    return result + raw.slice(from);
  }
}

function isReferenceBody(body: string): boolean {
  if (body.length === 0) return false;
  if (body.charCodeAt(0) === HASH) {
    const hex = body.charCodeAt(1) === 120; // x
    const digits = body.slice(hex ? 2 : 1);
    if (digits.length === 0) return false;
    for (let index = 0; index < digits.length; index += 1) {
      const code = digits.charCodeAt(index);
      const decimal = code >= 48 && code <= 57;
      const hexLetter = (code >= 97 && code <= 102) || (code >= 65 && code <= 70);
      if (!decimal && !(hex && hexLetter)) return false;
    }
    return true;
  }
  if (!isNameStart(body.charCodeAt(0))) return false;
  for (let index = 1; index < body.length; index += 1) if (!isNameChar(body.charCodeAt(index))) return false;
  return true;
}

// The character(s) a reference stands for, or null to keep it as written.
function referenced(body: string): string | null {
  if (body.charCodeAt(0) !== HASH) return NAMED_REFERENCES[body] ?? null;
  const hex = body.charCodeAt(1) === 120;
  const codePoint = Number.parseInt(body.slice(hex ? 2 : 1), hex ? 16 : 10);
  if (codePoint === 0) return '';
  if (codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return null;
  return String.fromCodePoint(codePoint);
}
