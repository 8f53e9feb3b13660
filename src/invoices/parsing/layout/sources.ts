/**
 * Where each value was read from: the page, the box of its words on the page (fractions of the
 * page's width and height, origin top left, so any rendering of the page can place it) and the
 * text it was read from. The interface between reading and the application's review page
 * (docs/invoice-parsing.md, "Where each value was read from").
 */
import type { Line } from '../../../shared/layout/lines.js';
import type { Word } from '../../../shared/layout/words.js';
import type { ValueSource } from '../model.js';
import type { FoundDate } from './dates.js';
import type { Found } from './field-reader.js';

/** A page's size in the words' units (PDF points for a text layer). */
export interface PageSize {
  width: number;
  height: number;
  /** Where the page's box starts on the x axis (a PDF's view box need not start at 0). */
  left?: number;
}

/** A word's box reaches this share of its font size above the baseline, and the rest below it. */
const ASCENT = 0.8;
const DESCENT = 0.25;
/** A source's text is cut to this many characters: it shows where, not the document. */
const MAX_TEXT = 200;

const fraction = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 10000) / 10000;

/** The box around words of one page, as fractions of the page; null without words or page size. */
export function sourceOfWords(words: readonly Word[], sizes: ReadonlyMap<number, PageSize>): ValueSource | null {
  const first = words[0];
  if (!first) return null;
  const size = sizes.get(first.page);
  if (!size || size.width <= 0 || size.height <= 0) return null;
  const own = words.filter((word) => word.page === first.page);
  const left = Math.min(...own.map((word) => word.x));
  const right = Math.max(...own.map((word) => word.x + word.width));
  const top = Math.min(...own.map((word) => word.y - word.height * ASCENT));
  const bottom = Math.max(...own.map((word) => word.y + word.height * DESCENT));
  const offset = size.left ?? 0;
  const x = fraction((left - offset) / size.width);
  const y = fraction(top / size.height);
  return {
    page: first.page,
    box: {
      x,
      y,
      width: fraction(fraction((right - offset) / size.width) - x),
      height: fraction(fraction(bottom / size.height) - y),
    },
    text: own
      .map((word) => word.text)
      .join(' ')
      .slice(0, MAX_TEXT),
  };
}

const squeezed = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/**
 * The words of a found value: a date's own words, else the candidate's words whose letters and
 * digits are part of the value ("Invoice no: F-123 Date" gives "F-123"), else its first word.
 */
export function valueWords(found: Found<unknown>): Word[] {
  const { value, candidate } = found;
  const words = candidate.words;
  if (isFoundDate(value)) return words.slice(value.start, value.start + value.wordCount);
  if (typeof value === 'string') {
    const whole = squeezed(value);
    const part = words.filter((word) => {
      const text = squeezed(word.text);
      return text !== '' && whole.includes(text);
    });
    if (part.length > 0) return part;
  }
  return words.slice(0, 1);
}

function isFoundDate(value: unknown): value is FoundDate {
  return typeof value === 'object' && value !== null && 'wordCount' in value && 'start' in value;
}

/** The first cell (segment) whose text holds the value: for values read without a label (the supplier's name). */
export function wordsHolding(lines: readonly Line[], value: string): Word[] {
  const wanted = squeezed(value);
  if (wanted === '') return [];
  for (const line of lines) {
    for (const segment of line.segments) {
      if (!squeezed(segment.text).includes(wanted)) continue;
      const part = segment.words.filter((word) => {
        const text = squeezed(word.text);
        return text !== '' && wanted.includes(text);
      });
      return part.length > 0 ? part : segment.words;
    }
  }
  return [];
}

/** Collects the sources of a reading by field name (named as in `extraction.confidence.fields`). */
export class SourceRecorder {
  readonly fields: Record<string, ValueSource> = {};

  constructor(private readonly sizes: ReadonlyMap<number, PageSize>) {}

  found(field: string, found: Found<unknown> | null | undefined): void {
    if (found?.candidate) this.words(field, valueWords(found));
  }

  words(field: string, words: readonly Word[]): void {
    const source = sourceOfWords(words, this.sizes);
    if (source) this.fields[field] = source;
  }

  /** A line table row's box: all its lines (wrapped descriptions included). */
  row(lines: readonly Line[]): ValueSource | null {
    return sourceOfWords(
      lines.flatMap((line) => line.words),
      this.sizes,
    );
  }
}
