/**
 * Collects paragraphs into one whole text under a character budget and cuts it into passages
 * of roughly PASSAGE_MIN..PASSAGE_MAX characters for full-text search.
 *
 * Passages are ranges of the whole text, so `wholeText.slice(startOffset, endOffset)` is the
 * passage by construction and offsets cannot drift from the text.
 */
import type { Passage } from '../../../documents/extraction-model.js';
import { normalizeParagraph } from './normalize.js';

/** Paragraphs shorter than this are joined with their neighbours on the same page or sheet. */
export const PASSAGE_MIN = 300;
/** Longer paragraphs are split, at a sentence end where possible. */
export const PASSAGE_MAX = 1200;
const PARAGRAPH_SEPARATOR = '\n\n';

export interface TextBlock {
  text: string;
  page: number | null;
  sheet: string | null;
  /** Rows of a table: split between lines rather than after sentence punctuation. */
  lineOriented?: boolean;
}

interface PlacedBlock extends Omit<TextBlock, 'text'> {
  start: number;
  end: number;
}

interface Range {
  start: number;
  end: number;
  page: number | null;
  sheet: string | null;
}

export class DocumentTextBuilder {
  private readonly parts: string[] = [];
  private readonly blocks: PlacedBlock[] = [];
  private length = 0;
  private full = false;

  constructor(private readonly maxCharacters: number) {}

  /** True once the character budget is used up; callers stop extracting then. */
  get truncated(): boolean {
    return this.full;
  }

  /** Characters still free, for extractors that want to stop reading early. */
  get remaining(): number {
    return Math.max(0, this.maxCharacters - this.length);
  }

  /** Adds one paragraph; returns false when the budget is used up and extraction should stop. */
  add(block: TextBlock): boolean {
    if (this.full) return false;
    const text = normalizeParagraph(block.text);
    if (text === '') return true;
    const separator = this.parts.length === 0 ? '' : PARAGRAPH_SEPARATOR;
    const room = this.maxCharacters - this.length - separator.length;
    const fitting = text.length <= room ? text : cutAtWordBoundary(text, room);
    if (fitting !== '') this.append(separator, fitting, block);
    if (fitting.length < text.length) this.full = true;
    return !this.full;
  }

  /** Marks the text incomplete for a reason other than characters (pages, time). */
  markTruncated(): void {
    this.full = true;
  }

  get characterCount(): number {
    return this.length;
  }

  passages(): Passage[] {
    const wholeText = this.parts.join('');
    const pieces = this.blocks.flatMap((block) => splitBlock(wholeText, block));
    return packPieces(pieces).map((range, index) => ({
      index,
      text: wholeText.slice(range.start, range.end),
      page: range.page,
      sheet: range.sheet,
      startOffset: range.start,
      endOffset: range.end,
    }));
  }

  private append(separator: string, text: string, block: TextBlock): void {
    const start = this.length + separator.length;
    this.parts.push(separator, text);
    this.length = start + text.length;
    this.blocks.push({
      start,
      end: this.length,
      page: block.page,
      sheet: block.sheet,
      lineOriented: block.lineOriented,
    });
  }
}

/** The longest prefix of at most `room` characters that ends at the end of a word. */
function cutAtWordBoundary(text: string, room: number): string {
  if (room <= 0) return '';
  if (/\s/.test(text.charAt(room))) return text.slice(0, room).trimEnd();
  const lastSpace = text.slice(0, room).search(/\s\S*$/);
  return lastSpace > 0 ? text.slice(0, lastSpace).trimEnd() : '';
}

/** A paragraph as pieces of at most PASSAGE_MAX characters. */
function splitBlock(text: string, block: PlacedBlock): Range[] {
  const pieces: Range[] = [];
  let start = block.start;
  while (block.end - start > PASSAGE_MAX) {
    // Leave at least PASSAGE_MIN for the rest, so a paragraph does not end in a stub.
    const longest = Math.min(PASSAGE_MAX, block.end - start - PASSAGE_MIN);
    const cut = findCut(text, start, longest, block.lineOriented === true);
    pieces.push({ start, end: trimmedEnd(text, start, cut), page: block.page, sheet: block.sheet });
    start = skipWhitespace(text, cut, block.end);
  }
  if (start < block.end) pieces.push({ start, end: block.end, page: block.page, sheet: block.sheet });
  return pieces;
}

/**
 * Where to end a piece that starts at `start` and may be `longest` characters long: after the
 * last sentence (or, for tables, the last row) that ends at PASSAGE_MIN or later; else at the
 * last line break or space; a single "word" that long (encoded data, not language) is cut where
 * it must be.
 */
function findCut(text: string, start: number, longest: number, lineOriented: boolean): number {
  const window = text.slice(start, start + longest + 1);
  const preferred = lineOriented ? [/\n/g, SENTENCE_END] : [SENTENCE_END, /\n/g];
  for (const boundary of [...preferred, /\s/g]) {
    const position = lastBoundary(window, boundary, boundary === preferred[0] ? PASSAGE_MIN : 1, longest);
    if (position !== null) return start + position;
  }
  return safeHardCut(text, start + longest);
}

/** Sentence punctuation, optionally closed by quotes or brackets, followed by whitespace. */
const SENTENCE_END = /[.!?…;:]["'’”»)\]]*(?=\s)/g;

/** Index just after the last match ending between `minimum` and `maximum`, or null. */
function lastBoundary(window: string, boundary: RegExp, minimum: number, maximum: number): number | null {
  let found: number | null = null;
  for (const match of window.matchAll(boundary)) {
    const end = match.index + match[0].length;
    if (end >= minimum && end <= maximum) found = end;
  }
  return found;
}

/** Never separates the two halves of a surrogate pair. */
function safeHardCut(text: string, position: number): number {
  const code = text.charCodeAt(position - 1);
  return code >= 0xd800 && code <= 0xdbff ? position - 1 : position;
}

function trimmedEnd(text: string, start: number, end: number): number {
  let position = end;
  while (position > start && /\s/.test(text.charAt(position - 1))) position -= 1;
  return position;
}

function skipWhitespace(text: string, position: number, end: number): number {
  let current = position;
  while (current < end && /\s/.test(text.charAt(current))) current += 1;
  return current;
}

/** Joins consecutive pieces from the same page or sheet while the result stays within PASSAGE_MAX. */
function packPieces(pieces: Range[]): Range[] {
  const passages: Range[] = [];
  let current: Range | undefined;
  for (const piece of pieces) {
    if (current && sameLocation(current, piece) && piece.end - current.start <= PASSAGE_MAX) {
      current.end = piece.end;
    } else {
      if (current) passages.push(current);
      current = { ...piece };
    }
  }
  if (current) passages.push(current);
  return passages;
}

function sameLocation(a: Range, b: Range): boolean {
  return a.page === b.page && a.sheet === b.sheet;
}
