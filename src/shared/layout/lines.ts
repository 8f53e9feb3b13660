/**
 * Lines (words on one baseline) and segments (runs of words without a column gap) of a page.
 * Segments are the cells of the page: a label, a value, a table cell.
 */
import type { Word } from './words.js';

export interface Segment {
  words: Word[];
  text: string;
  x0: number;
  x1: number;
}

export interface Line {
  page: number;
  /** Baseline from the top of the page. */
  y: number;
  height: number;
  words: Word[];
  segments: Segment[];
  text: string;
  /** Position in the document's reading order. */
  index: number;
}

/** Baselines closer than this share of the font size are one line. */
const SAME_LINE = 0.45;
/** A gap wider than this share of the font size separates two segments (cells). */
const SEGMENT_GAP = 0.9;
/** Digit groups closer than this are one number ("1 234,56"). */
const GROUP_GAP = 0.45;

const LEADING_GROUP = /^[-−(]?\d{1,3}$/u;
const FOLLOWING_GROUP = /^\d{3}(?:[.,]\d{1,4})?[-)]?$/u;

export function buildLines(words: readonly Word[]): Line[] {
  const sorted = [...words].sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x);
  const rows: Word[][] = [];
  for (const word of sorted) {
    const row = rows.at(-1);
    const anchor = row?.[0];
    if (
      row &&
      anchor &&
      anchor.page === word.page &&
      Math.abs(anchor.y - word.y) <= SAME_LINE * Math.max(anchor.height, word.height, 1)
    )
      row.push(word);
    else rows.push([word]);
  }
  return rows.map((row, index) => lineOf(row, index));
}

function lineOf(row: Word[], index: number): Line {
  const words = joinDigitGroups([...row].sort((a, b) => a.x - b.x));
  const height = Math.max(...words.map((word) => word.height));
  const segments: Segment[] = [];
  let current: Word[] = [];
  for (const word of words) {
    const previous = current.at(-1);
    if (previous && word.x - (previous.x + previous.width) > SEGMENT_GAP * Math.max(word.height, previous.height)) {
      segments.push(segmentOf(current));
      current = [];
    }
    current.push(word);
  }
  if (current.length > 0) segments.push(segmentOf(current));
  const first = words[0];
  return {
    page: first?.page ?? 1,
    y: first?.y ?? 0,
    height,
    words,
    segments,
    text: segments.map((segment) => segment.text).join('  '),
    index,
  };
}

function segmentOf(words: Word[]): Segment {
  const last = words.at(-1);
  return {
    words,
    text: words.map((word) => word.text).join(' '),
    x0: words[0]?.x ?? 0,
    x1: last ? last.x + last.width : 0,
  };
}

/** "1" "234,56" printed with a thousands space are one number, when the gap is a space's width. */
function joinDigitGroups(words: Word[]): Word[] {
  const joined: Word[] = [];
  for (const word of words) {
    const previous = joined.at(-1);
    if (
      previous &&
      LEADING_GROUP.test(previous.text.replace(/^\d{1,3}(?: \d{3})+$/u, '000')) &&
      FOLLOWING_GROUP.test(word.text)
    ) {
      const gap = word.x - (previous.x + previous.width);
      if (gap >= 0 && gap < GROUP_GAP * word.height) {
        joined[joined.length - 1] = {
          ...previous,
          text: `${previous.text} ${word.text}`,
          width: word.x + word.width - previous.x,
        };
        continue;
      }
    }
    joined.push(word);
  }
  return joined;
}
