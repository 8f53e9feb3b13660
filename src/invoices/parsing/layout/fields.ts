/**
 * Labels and their values on the page. A value is where a reader looks for it: after the label
 * in the same cell ("Invoice no: 123"), in the next cell to its right, or under it (a caption
 * printed above its value, as Swedish invoices do).
 */
import { TermIndex } from './label-match.js';
import {
  HEADER_LABELS,
  TOTAL_LABELS,
  normalizeLabel,
  type HeaderField,
  type Language,
  type TotalField,
} from './labels.js';
import type { Line, Segment } from '../../../shared/layout/lines.js';
import type { Word } from '../../../shared/layout/words.js';

export type LabelKey = HeaderField | TotalField;

const LABEL_TERMS = new TermIndex<LabelKey>({ ...HEADER_LABELS, ...TOTAL_LABELS });

/** Words that separate items printed on one line ("Acme AS · Org.nr 123 · Bank 1234"). */
const SEPARATOR_WORDS = new Set(['·', '|', '•', '–', '—', '-', '/']);

export interface LabelHit {
  keys: LabelKey[];
  languages: Language[];
  wordCount: number;
  /** The label as matched, normalized ("invoice no", "nummer"). */
  term: string;
  line: Line;
  segmentIndex: number;
  /** The label's own words and where they are. */
  x0: number;
  x1: number;
  /** Words after the label in its cell. */
  rest: Word[];
}

export interface ValueCandidate {
  text: string;
  words: Word[];
  where: 'inline' | 'right' | 'below';
  line: Line;
}

/** Every label that starts a cell (or an item of a separated cell) on the given lines. */
export function findLabels(lines: readonly Line[], skip: ReadonlySet<number>): LabelHit[] {
  const hits: LabelHit[] = [];
  for (const line of lines) {
    if (skip.has(line.index)) continue;
    for (const [segmentIndex, segment] of line.segments.entries()) {
      const found: Array<{ start: number; restStart: number; hit: LabelHit }> = [];
      const colonEnds = colonLabelEnds(segment);
      let labelEnd = -1;
      for (const start of candidateStarts(segment, colonEnds)) {
        // Not inside the label found before ("PO number:" is no "number:").
        if (start <= labelEnd) continue;
        const match = LABEL_TERMS.matchStart(segment.words.slice(start));
        if (!match) continue;
        // Inside a cell, a label must end in its colon ("... Due: 03.05.2025 Order: 4711").
        const end = start + match.used.length - 1;
        if (!isItemStart(segment, start) && !colonEnds.has(end)) continue;
        const first = match.used[0];
        const last = match.used.at(-1);
        if (!first || !last) continue;
        labelEnd = end;
        found.push({
          start,
          restStart: end + 1,
          hit: {
            keys: match.keys,
            languages: match.languages,
            wordCount: match.wordCount,
            term: normalizeLabel(textOf(match.used)),
            line,
            segmentIndex,
            x0: first.x,
            x1: last.x + last.width,
            rest: untilSeparator(match.rest),
          },
        });
      }
      found.forEach(({ restStart, hit }, index) => {
        const next = found.slice(index + 1).find((entry) => entry.start >= restStart);
        // The value ends where the next label starts.
        if (next) hit.rest = hit.rest.slice(0, Math.max(0, next.start - restStart));
        hits.push(hit);
      });
    }
  }
  return hits;
}

/** Indexes of the words that end in a colon. */
function colonLabelEnds(segment: Segment): Set<number> {
  const ends = new Set<number>();
  segment.words.forEach((word, index) => {
    if (word.text.endsWith(':') && word.text.length > 1) ends.add(index);
  });
  return ends;
}

function isItemStart(segment: Segment, start: number): boolean {
  return itemStarts(segment).includes(start);
}

/** Where a label may start: a cell's start, after a separator, or up to four words before a colon. */
function candidateStarts(segment: Segment, colonEnds: ReadonlySet<number>): number[] {
  const starts = new Set(itemStarts(segment));
  for (const end of colonEnds) for (let start = Math.max(0, end - 3); start <= end; start += 1) starts.add(start);
  return [...starts].sort((a, b) => a - b);
}

function itemStarts(segment: Segment): number[] {
  const starts = [0];
  for (const [index, word] of segment.words.entries()) {
    if (SEPARATOR_WORDS.has(word.text) && index + 1 < segment.words.length) starts.push(index + 1);
    else if (/[·|•,;]$/u.test(word.text) && index + 1 < segment.words.length && index > 0) starts.push(index + 1);
  }
  return starts;
}

function untilSeparator(words: readonly Word[]): Word[] {
  const end = words.findIndex((word) => SEPARATOR_WORDS.has(word.text));
  return end === -1 ? [...words] : words.slice(0, end);
}

/** Leading punctuation and filler between a label and its value: ":", "#", "no.", "nr". */
const FILLER = /^(?:[:#.\-–=]+|no\.?:?|nr\.?:?|n[°º]:?|nummer:?|number:?)$/iu;

/** The value candidates of a label, nearest first. */
export function valuesOf(hit: LabelHit, lines: readonly Line[], labelled: ReadonlySet<string>): ValueCandidate[] {
  const candidates: ValueCandidate[] = [];
  const inline = dropFiller(hit.rest);
  if (inline.length > 0) candidates.push({ text: textOf(inline), words: inline, where: 'inline', line: hit.line });
  const right = hit.line.segments[hit.segmentIndex + 1];
  if (right && !labelled.has(`${hit.line.index}:${hit.segmentIndex + 1}`)) {
    const words = dropFiller(right.words);
    if (words.length > 0) candidates.push({ text: textOf(words), words, where: 'right', line: hit.line });
  }
  const below = segmentBelow(hit, lines);
  if (below && !labelled.has(`${below.line.index}:${below.segmentIndex}`)) {
    candidates.push({ text: below.segment.text, words: below.segment.words, where: 'below', line: below.line });
  }
  return candidates;
}

function dropFiller(words: readonly Word[]): Word[] {
  let start = 0;
  while (start < words.length && FILLER.test(words[start]?.text ?? '')) start += 1;
  return words.slice(start);
}

export function textOf(words: readonly Word[]): string {
  return words
    .map((word) => word.text)
    .join(' ')
    .trim();
}

/**
 * The cell under the label on the next line or the one after: the one that overlaps most the
 * span from the label to the next cell of the label's line (a caption box's value may be
 * right-aligned in the box, well right of its caption).
 */
function segmentBelow(
  hit: LabelHit,
  lines: readonly Line[],
): { line: Line; segment: Segment; segmentIndex: number } | null {
  const h = hit.line.height;
  const previous = hit.line.segments[hit.segmentIndex - 1];
  const next = hit.line.segments[hit.segmentIndex + 1];
  const left = Math.max(hit.x0 - 2 * h, previous ? previous.x1 + h : Number.NEGATIVE_INFINITY);
  const right = next ? next.x0 - h : Math.max(hit.x1 + 6 * h, hit.x1);
  for (let index = hit.line.index + 1; index < lines.length && index <= hit.line.index + 2; index += 1) {
    const line = lines[index];
    if (!line || line.page !== hit.line.page || line.y - hit.line.y > 3.2 * h) return null;
    let best: { segment: Segment; segmentIndex: number; overlap: number } | null = null;
    for (const [segmentIndex, segment] of line.segments.entries()) {
      const overlap = Math.min(segment.x1, right) - Math.max(segment.x0, left);
      if (overlap > 0 && (!best || overlap > best.overlap)) best = { segment, segmentIndex, overlap };
    }
    if (best) return { line, segment: best.segment, segmentIndex: best.segmentIndex };
  }
  return null;
}
