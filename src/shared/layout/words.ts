/**
 * Positioned words: the one input of the layout reader. pdf.js text items become words here;
 * OCR words (Tesseract TSV/hOCR) can be given in the same shape and the rest stays the same.
 *
 * Coordinates are page units with the origin at the top left of the page: `y` grows downwards
 * and is the word's baseline, `height` its font size (or box height for OCR).
 */
export interface Word {
  text: string;
  /** Left edge. */
  x: number;
  /** Baseline, from the top of the page. */
  y: number;
  width: number;
  height: number;
  /** 1-based page number. */
  page: number;
  /** 0..1 for OCR words; absent for words from a text layer (certain). */
  confidence?: number;
}

/** A pdf.js text item as `getTextContent` gives it. */
export interface TextItemLike {
  str: string;
  transform: number[];
  width: number;
}

/** Bounds the work on hostile text layers: no invoice page holds more words. */
export const MAX_WORDS_PER_PAGE = 6000;

const SPACES = /[\s\u00a0\u2007\u2009\u202f]+/u;
const LEADING_GROUP = /^[-−(]?\d{1,3}$/u;
const FOLLOWING_GROUP = /^\d{3}(?:[.,]\d{1,4})?[-)]?$/u;
const FOLLOWING_INNER_GROUP = /^\d{3}$/u;
/** Stands for a thousands space inside a word while the item is split at its other spaces. */
const GROUP_MARK = '\u0001';

/** "1 234,56" printed as one item keeps its thousands spaces (one space between digit groups). */
function markDigitGroups(text: string): string {
  const parts = text.split(/([\s\u00a0\u2007\u2009\u202f]+)/u);
  let out = parts[0] ?? '';
  let grouping = LEADING_GROUP.test(out);
  for (let index = 1; index + 1 < parts.length; index += 2) {
    const separator = parts[index] ?? '';
    const next = parts[index + 1] ?? '';
    if (grouping && separator.length === 1 && FOLLOWING_GROUP.test(next)) {
      out += GROUP_MARK + next;
      grouping = FOLLOWING_INNER_GROUP.test(next);
    } else {
      out += separator + next;
      grouping = LEADING_GROUP.test(next);
    }
  }
  return out;
}

/**
 * Splits each text item at its spaces into words, sharing the item's width out by character
 * count (pdf.js does not give glyph positions; for proportional fonts the error is a fraction of
 * a character, far below the gaps that separate columns).
 */
export function wordsFromTextItems(items: readonly TextItemLike[], page: number, pageHeight: number): Word[] {
  const words: Word[] = [];
  for (const item of items) {
    if (words.length >= MAX_WORDS_PER_PAGE) break;
    const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = item.transform;
    const height = Math.hypot(c, d) || Math.hypot(a, b) || 10;
    // "1 234,56" printed as one item keeps its thousands space: the digit groups are one word.
    const text = markDigitGroups(item.str);
    if (text.trim() === '') continue;
    const charWidth = text.length > 0 ? item.width / text.length : 0;
    let offset = 0;
    for (const part of text.split(SPACES)) {
      const start = text.indexOf(part, offset);
      offset = start + part.length;
      if (part === '') continue;
      words.push({
        text: part.replaceAll(GROUP_MARK, ' '),
        x: x + start * charWidth,
        y: pageHeight - y,
        width: part.length * charWidth,
        height,
        page,
      });
    }
  }
  return joinSplitWords(words);
}

/**
 * Producers split words at will ("RE-20", "201121", "/50", "8"): fragments on one baseline that
 * touch are one word.
 */
export function joinSplitWords(words: readonly Word[]): Word[] {
  const sorted = [...words].sort((p, q) => p.page - q.page || p.y - q.y || p.x - q.x);
  const joined: Word[] = [];
  for (const word of sorted) {
    const previous = joined.at(-1);
    if (previous && previous.page === word.page && Math.abs(previous.y - word.y) < 0.2 * word.height) {
      const gap = word.x - (previous.x + previous.width);
      // Touching fragments are one word, unless one word ends and a capitalised one starts
      // ("Artikelnummer" "Beschreibung" printed edge to edge in a narrow header).
      const newWord = /\p{Ll}$/u.test(previous.text) && /^\p{Lu}\p{Ll}/u.test(word.text);
      if (gap < 0.08 * word.height && gap > -0.5 * word.height && !newWord) {
        joined[joined.length - 1] = {
          ...previous,
          text: previous.text + word.text,
          width: word.x + word.width - previous.x,
        };
        continue;
      }
    }
    joined.push(word);
  }
  return joined;
}
