/**
 * Using a supplier's layout memory on its next document: each remembered label is looked for
 * again, and the words where its value stood last time become that field's first candidates.
 * The reader still reads them with its own value readers and checks the result against the
 * invoice's arithmetic; a label the page no longer prints gives nothing (the layout changed).
 */
import type { LabelHit, ValueCandidate } from './fields.js';
import { normalizeLabel } from './labels.js';
import type { Line, Segment } from '../../../shared/layout/lines.js';
import type { LayoutMemory, RememberedField, ValueAnchor } from './memory.js';
import type { Word } from '../../../shared/layout/words.js';

export type Recalled = Map<RememberedField, ValueCandidate[]>;

/** Candidates per remembered field, the one nearest to where the value stood last time first. */
export function recall(memory: LayoutMemory, lines: readonly Line[]): Recalled {
  const recalled: Recalled = new Map();
  for (const [field, anchors] of Object.entries(memory.fields) as Array<[RememberedField, ValueAnchor[]]>) {
    const candidates = anchors.flatMap((anchor) => candidatesOf(anchor, lines));
    if (candidates.length > 0) recalled.set(field, candidates);
  }
  return recalled;
}

interface Placed {
  candidate: ValueCandidate;
  distance: number;
}

function candidatesOf(anchor: ValueAnchor, lines: readonly Line[]): ValueCandidate[] {
  const label = anchor.label.split(' ');
  const placed: Placed[] = [];
  for (const line of lines) {
    for (const [segmentIndex, segment] of line.segments.entries()) {
      const end = labelEnd(segment, label);
      if (end === null) continue;
      const candidate =
        anchor.direction === 'right' ? valueAfter(line, segmentIndex, end) : valueUnder(line, segment, anchor, lines);
      const first = candidate?.words[0];
      if (!candidate || !first) continue;
      const distance = (first.page === anchor.page ? 0 : 10_000) + Math.hypot(first.x - anchor.x, first.y - anchor.y);
      placed.push({ candidate, distance });
    }
  }
  return placed.sort((a, b) => a.distance - b.distance).map(({ candidate }) => candidate);
}

/** The index of the label's last word in the cell, when the cell prints the label's words in a row. */
function labelEnd(segment: Segment, label: readonly string[]): number | null {
  const tokens: Array<{ token: string; word: number }> = [];
  segment.words.forEach((word, index) => {
    for (const token of normalizeLabel(word.text).split(' ')) if (token !== '') tokens.push({ token, word: index });
  });
  for (let start = 0; start + label.length <= tokens.length; start += 1) {
    if (label.every((token, at) => tokens[start + at]?.token === token))
      return tokens[start + label.length - 1]?.word ?? null;
  }
  return null;
}

/** After the label in its cell, else the next cell of the line. */
function valueAfter(line: Line, segmentIndex: number, end: number): ValueCandidate | null {
  const segment = line.segments[segmentIndex] as Segment;
  const inline = segment.words.slice(end + 1).filter((word) => !/^[:#.\-–=]+$/u.test(word.text));
  if (inline.length > 0) return candidate(inline, 'inline', line);
  const next = line.segments[segmentIndex + 1];
  return next ? candidate(next.words, 'right', line) : null;
}

/** The cell of the next two lines nearest to where the value stood under its label. */
function valueUnder(line: Line, label: Segment, anchor: ValueAnchor, lines: readonly Line[]): ValueCandidate | null {
  const h = line.height || 1;
  const x = label.x0 + anchor.dx * h;
  const y = line.y + anchor.dy * h;
  let best: { segment: Segment; line: Line; distance: number } | null = null;
  for (let index = line.index + 1; index < lines.length && index <= line.index + 2; index += 1) {
    const under = lines[index];
    if (!under || under.page !== line.page || under.y - line.y > 3.2 * h) break;
    for (const segment of under.segments) {
      const distance = Math.abs(segment.x0 - x) + Math.abs(under.y - y);
      if (distance < 4 * h && (!best || distance < best.distance)) best = { segment, line: under, distance };
    }
  }
  return best ? candidate(best.segment.words, 'below', best.line) : null;
}

function candidate(words: Word[], where: ValueCandidate['where'], line: Line): ValueCandidate {
  return { text: words.map((word) => word.text).join(' '), words, where, line };
}

/** A label hit standing for a remembered label: as strong as a specific dictionary label. */
export function rememberedHit(candidate: ValueCandidate, field: RememberedField): LabelHit {
  const first = candidate.words[0];
  return {
    keys: [],
    languages: [],
    wordCount: 1,
    term: `remembered ${field}`,
    line: candidate.line,
    segmentIndex: 0,
    x0: first?.x ?? 0,
    x1: first ? first.x + first.width : 0,
    rest: [],
  };
}
