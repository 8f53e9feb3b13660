/**
 * Plain text and CSV: decoding (BOM aware, UTF-8 with a Windows-1252 fallback) and, for CSV,
 * rows turned into "cell | cell | cell" lines like spreadsheet rows.
 */
import type { DocumentTextBuilder } from './passages.js';
import { splitParagraphs } from './normalize.js';

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
}

/** The share of control characters above which bytes are taken to be binary, not text. */
const MAX_CONTROL_SHARE = 0.01;
/** Looking at the start is enough to tell text from binary and keeps the check cheap. */
const SNIFF_CHARACTERS = 64 * 1024;

/**
 * A byte order mark decides; otherwise UTF-8 if the bytes are valid UTF-8, else Windows-1252.
 * Windows-1252 is what "latin1" means in practice (the WHATWG label maps it so): it agrees with
 * ISO-8859-1 on letters and also gives "€" and quotes that Nordic Windows exports use.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return decodeAs(bytes.subarray(3), 'utf-8');
  if (startsWith(bytes, [0xff, 0xfe])) return decodeAs(bytes.subarray(2), 'utf-16le');
  if (startsWith(bytes, [0xfe, 0xff])) return decodeAs(bytes.subarray(2), 'utf-16be');
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: decodeWindows1252(bytes), encoding: 'windows-1252' };
  }
}

function decodeAs(bytes: Uint8Array, encoding: 'utf-8' | 'utf-16le' | 'utf-16be'): DecodedText {
  return { text: new TextDecoder(encoding).decode(bytes), encoding };
}

/**
 * Bytes 0x80-0x9F in Windows-1252; the five bytes it leaves undefined stay control characters.
 * Node 20's TextDecoder('windows-1252') decodes these as ISO-8859-1 controls, so the table is ours.
 */
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (char) => WINDOWS_1252_HIGH[char.charCodeAt(0) - 0x80]!);
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

/** False for binary data: too many control characters or undecodable sequences. */
export function looksLikeText(text: string): boolean {
  const sample = text.slice(0, SNIFF_CHARACTERS);
  if (sample.length === 0) return true;
  // eslint-disable-next-line no-control-regex -- counting control characters is the point
  const controls = sample.match(/[\u0000-\u0008\u000e-\u001f\u007f-\u009f\ufffd]/g)?.length ?? 0;
  return controls / sample.length <= MAX_CONTROL_SHARE;
}

export function extractPlainText(text: string, builder: DocumentTextBuilder): void {
  for (const paragraph of splitParagraphs(text)) {
    if (!builder.add({ text: paragraph, page: null, sheet: null })) return;
  }
}

/** Rows per paragraph: small enough to stop close to the character limit, large enough to be cheap. */
const CSV_ROWS_PER_BLOCK = 200;

export function extractCsv(text: string, builder: DocumentTextBuilder): void {
  let rows: string[] = [];
  const flush = () => {
    const keepGoing = builder.add({ text: rows.join('\n'), page: null, sheet: null, lineOriented: true });
    rows = [];
    return keepGoing;
  };
  for (const cells of parseCsv(text, detectDelimiter(text))) {
    const line = cellsToLine(cells);
    if (line !== '') rows.push(line);
    if (rows.length >= CSV_ROWS_PER_BLOCK && !flush()) return;
  }
  if (rows.length > 0) flush();
}

/**
 * Cells of one row as "a | b | c". Empty cells are left out: they carry nothing to search, and a
 * row with one cell in the last column would otherwise become thousands of separators.
 */
export function cellsToLine(cells: readonly string[]): string {
  return cells
    .map((cell) => cell.replace(/\s+/g, ' ').trim())
    .filter((cell) => cell !== '')
    .join(' | ');
}

const CANDIDATE_DELIMITERS = [';', ',', '\t', '|'] as const;
const DELIMITER_SNIFF_LINES = 20;

/** The candidate that splits the first lines most consistently into the most columns. */
export function detectDelimiter(text: string): string {
  const lines = text.split(/\r\n?|\n/, DELIMITER_SNIFF_LINES).filter((line) => line.trim() !== '');
  let best: { delimiter: string; score: number } = { delimiter: ',', score: 0 };
  for (const delimiter of CANDIDATE_DELIMITERS) {
    const counts = lines.map((line) => countOutsideQuotes(line, delimiter));
    const minimum = Math.min(...counts);
    // Every line having the delimiter matters more than one line having many.
    const score = minimum * 1000 + counts.reduce((sum, count) => sum + count, 0);
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

function countOutsideQuotes(line: string, delimiter: string): number {
  let count = 0;
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (char === delimiter && !quoted) count += 1;
  }
  return count;
}

/** RFC 4180 rows: quoted fields may hold delimiters, line breaks and doubled quotes. */
export function* parseCsv(text: string, delimiter: string): Generator<string[]> {
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      const escapedQuote = char === '"' && text[index + 1] === '"';
      if (escapedQuote) index += 1;
      if (char !== '"' || escapedQuote) field += char;
      else quoted = false;
      continue;
    }
    if (char === '"' && field.trim() === '') {
      quoted = true;
    } else if (char === delimiter) {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      yield [...row, field];
      row = [];
      field = '';
    } else {
      field += char;
    }
  }
  if (field !== '' || row.length > 0) yield [...row, field];
}
