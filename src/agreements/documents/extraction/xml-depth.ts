/**
 * How deeply the elements of an XML part nest, found by a linear scan of its bytes.
 *
 * mammoth converts the XML tree recursively: 2,000 nested elements (a few KB of DOCX) already
 * overflow the call stack. Node can catch that, but it strikes in the middle of a library's work
 * and says nothing useful. No program writes Office XML more than a few dozen levels deep, so
 * parts beyond a modest limit are refused before any library parses them.
 *
 * The scan understands just enough XML not to be fooled: quoted attribute values (which may
 * contain "/>" or ">"), comments, CDATA, processing instructions and the DOCTYPE.
 */
const LESS_THAN = 0x3c;
const GREATER_THAN = 0x3e;
const SLASH = 0x2f;
const EXCLAMATION = 0x21;
const QUESTION = 0x3f;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** The deepest nesting, or the first depth above `limit` (scanning stops there). */
export function maxElementDepth(xml: Buffer, limit: number): number {
  let depth = 0;
  let deepest = 0;
  for (
    let position = xml.indexOf(LESS_THAN);
    position !== -1 && position < xml.length;
    position = xml.indexOf(LESS_THAN, position)
  ) {
    const next = xml[position + 1];
    if (next === SLASH) {
      depth -= 1;
      position = endOfTag(xml, position);
    } else if (next === EXCLAMATION || next === QUESTION) {
      position = endOfMarkupDeclaration(xml, position);
    } else {
      const end = endOfTag(xml, position);
      if (xml[end - 2] !== SLASH) depth += 1;
      deepest = Math.max(deepest, depth);
      if (deepest > limit) return deepest;
      position = end;
    }
  }
  return deepest;
}

/** Index just after the ">" that closes the tag at `start`, skipping quoted attribute values. */
function endOfTag(xml: Buffer, start: number): number {
  let quote: number | null = null;
  for (let position = start + 1; position < xml.length; position += 1) {
    const byte = xml[position];
    if (quote !== null) {
      if (byte === quote) quote = null;
    } else if (byte === DOUBLE_QUOTE || byte === SINGLE_QUOTE) {
      quote = byte;
    } else if (byte === GREATER_THAN) {
      return position + 1;
    }
  }
  return xml.length;
}

/** Index just after a comment, CDATA section, processing instruction or DOCTYPE starting at `start`. */
function endOfMarkupDeclaration(xml: Buffer, start: number): number {
  if (startsWithAt(xml, start, '<!--')) return endOf(xml, start, '-->');
  if (startsWithAt(xml, start, '<![CDATA[')) return endOf(xml, start, ']]>');
  if (xml[start + 1] === QUESTION) return endOf(xml, start, '?>');
  return endOfDoctype(xml, start);
}

/** A DOCTYPE may hold an internal subset in brackets, whose declarations contain ">". */
function endOfDoctype(xml: Buffer, start: number): number {
  let brackets = 0;
  for (let position = start + 2; position < xml.length; position += 1) {
    const byte = xml[position];
    if (byte === OPEN_BRACKET) brackets += 1;
    else if (byte === CLOSE_BRACKET) brackets -= 1;
    else if (byte === GREATER_THAN && brackets <= 0) return position + 1;
  }
  return xml.length;
}

function startsWithAt(xml: Buffer, position: number, text: string): boolean {
  return xml.toString('latin1', position, position + text.length) === text;
}

function endOf(xml: Buffer, start: number, terminator: string): number {
  const found = xml.indexOf(terminator, start + 2, 'latin1');
  return found === -1 ? xml.length : found + terminator.length;
}
