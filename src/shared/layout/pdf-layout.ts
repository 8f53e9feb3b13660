/**
 * Rebuilds reading-order text lines from positioned PDF text fragments.
 *
 * A PDF does not store lines, only fragments at coordinates; producers split words at will
 * ("RE-20", "201121", "/50", "8" for "RE-20201121/508"). Fragments on the same baseline are
 * joined, with a space only where the page shows a visible gap.
 */
export interface PositionedText {
  text: string;
  /** Left edge, PDF user space units. */
  x: number;
  /** Baseline, PDF user space units (grows upwards). */
  y: number;
  width: number;
  fontSize: number;
}

/** Fragments whose baselines differ by less than this share of the font size are one line. */
const SAME_LINE_TOLERANCE = 0.45;
/** A horizontal gap wider than this share of the font size is a word space. */
const WORD_GAP = 0.2;

export function layoutLines(fragments: readonly PositionedText[]): string[] {
  const visible = fragments.filter((fragment) => fragment.text.trim() !== '');
  const topToBottom = [...visible].sort((a, b) => b.y - a.y || a.x - b.x);
  const rows: PositionedText[][] = [];
  for (const fragment of topToBottom) {
    const row = rows.at(-1);
    const anchor = row?.[0];
    if (row && anchor && Math.abs(anchor.y - fragment.y) <= SAME_LINE_TOLERANCE * Math.max(anchor.fontSize, 1))
      row.push(fragment);
    else rows.push([fragment]);
  }
  return rows.map(joinRow).filter((line) => line !== '');
}

function joinRow(row: PositionedText[]): string {
  const leftToRight = [...row].sort((a, b) => a.x - b.x);
  let line = '';
  let previousEnd: number | null = null;
  for (const fragment of leftToRight) {
    const gap = previousEnd === null ? 0 : fragment.x - previousEnd;
    if (previousEnd !== null && gap > WORD_GAP * Math.max(fragment.fontSize, 1)) line += ' ';
    line += fragment.text;
    previousEnd = fragment.x + fragment.width;
  }
  return normalizeSpaces(line);
}

/** No-break, thin and narrow spaces become plain spaces; runs of spaces collapse. */
export function normalizeSpaces(text: string): string {
  return text
    .replace(/[\u00a0\u2007\u2009\u202f\t]/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
}
