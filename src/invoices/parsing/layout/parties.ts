/** The parties without labels: the buyer's address block and the supplier's letterhead. */
import type { LabelHit, ValueCandidate } from './fields.js';
import type { Found } from './field-reader.js';
import { LEGAL_FORMS, TITLES, normalizeLabel } from './labels.js';
import type { Line } from '../../../shared/layout/lines.js';

/** The lines of the block a buyer label introduces (its value and the address lines under it). */
export function blockLines(lines: readonly Line[], candidate: ValueCandidate): Set<number> {
  const block = new Set<number>([candidate.line.index]);
  const x0 = candidate.words[0]?.x ?? 0;
  let previous = candidate.line;
  for (let index = candidate.line.index + 1; index < lines.length && block.size < 7; index += 1) {
    const line = lines[index];
    if (!line || line.page !== previous.page || line.y - previous.y > 2 * line.height) break;
    if (line.segments.some((segment) => Math.abs(segment.x0 - x0) < 2 * line.height)) {
      block.add(index);
      previous = line;
    }
  }
  if (candidate.line.index > 0) block.add(candidate.line.index - 1);
  return block;
}

/** "0155 Oslo", "111 51 Stockholm", "D-80331 München", "1015 AA Amsterdam", "Leeds LS1 6DT", "Austin, TX 78701". */
const POSTAL_LINE =
  /^(?:[A-Z]{1,2}-)?\d{4,5}(?: [A-Z]{2})? \p{L}|^\d{3} \d{2} \p{L}|^\p{L}[\p{L} ]*,? (?:[A-Z]{2} \d{5}|[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2})$/u;

/**
 * Without a buyer label: the address window. The first line of an address block (ending in a
 * postal code and city) near the top of page one that is not the supplier's own address.
 */
export function buyerFromAddressBlock(lines: readonly Line[], supplierName: string | null): Found<string> | null {
  const firstPage = lines.filter((line) => line.page === 1);
  // Pages are at least A5 high: a short page of text does not pull the window up.
  const limit = Math.max(...firstPage.map((line) => line.y), 700) * 0.4;
  for (const line of firstPage) {
    if (line.y > limit) break;
    // The sender line printed small above the address window: the next line under it is the buyer.
    const sender = line.segments.find(
      (segment) => (segment.words[0]?.height ?? line.height) < 8 && (segment.text.match(/ [·•|] /gu) ?? []).length >= 2,
    );
    const under = sender
      ? lines[line.index + 1]?.segments.find((segment) => Math.abs(segment.x0 - sender.x0) < 2)
      : undefined;
    const underLine = lines[line.index + 1];
    if (
      under &&
      underLine &&
      underLine.y - line.y < 3 * (under.words[0]?.height ?? underLine.height) &&
      /\p{L}{2}/u.test(under.text)
    ) {
      return {
        value: under.text,
        hit: undefined as unknown as LabelHit,
        candidate: { text: under.text, words: under.words, where: 'below', line: underLine },
      };
    }
    for (const segment of line.segments) {
      if (!POSTAL_LINE.test(segment.text)) continue;
      let top: { line: Line; segment: typeof segment } = { line, segment };
      for (let index = line.index - 1; index >= 0 && index >= line.index - 4; index -= 1) {
        const above = lines[index];
        const aligned = above?.segments.find((candidate) => Math.abs(candidate.x0 - segment.x0) < 2);
        if (!above || !aligned || top.line.y - above.y > 2 * above.height) break;
        top = { line: above, segment: aligned };
      }
      const name = top.segment.text;
      if (top.line === line || name === supplierName || (supplierName !== null && name.includes(supplierName)))
        continue;
      if (top.line.height < 7.5 && /[·•|]/u.test(name)) continue;
      const words = top.segment.words;
      return {
        value: name,
        hit: undefined as unknown as LabelHit,
        candidate: { text: name, words, where: 'below', line: top.line },
      };
    }
  }
  return null;
}

/**
 * Without a seller label: a company name (a legal form at its end), preferring the letterhead
 * (top of page one, large type), names printed more than once, and the name beside the seller's
 * registration number; never the buyer's block.
 */
export function supplierFromLayout(
  lines: readonly Line[],
  buyerLines: ReadonlySet<number>,
  orgLine: Line | null,
): string | null {
  const scores = new Map<string, number>();
  const firstPage = lines.filter((line) => line.page === 1);
  const pageBottom = Math.max(...firstPage.map((line) => line.y), 1);
  const largest = Math.max(...firstPage.map((line) => line.height), 1);
  for (const line of lines) {
    if (buyerLines.has(line.index)) continue;
    for (const segment of line.segments) {
      for (const name of companyNames(segment.text)) {
        let score = scores.get(name) ?? 0;
        score += 1;
        if (line.page === 1 && line.y < pageBottom * 0.25) score += 2;
        if (line.height >= largest * 0.95) score += 2;
        if (orgLine && Math.abs(orgLine.index - line.index) <= 2 && orgLine.page === line.page) score += 2;
        scores.set(name, score);
      }
    }
  }
  const best = [...scores.entries()].sort((a, b) => b[1] - a[1])[0];
  if (best) return best[0];
  // No legal form anywhere: the largest text at the top of page one that is not a title.
  const top = firstPage.filter((line) => line.y < pageBottom * 0.2 && !buyerLines.has(line.index));
  const titled = new Set<string>([...TITLES.invoice, ...TITLES.creditNote]);
  const biggest = top
    .flatMap((line) => line.segments.map((segment) => ({ segment, height: line.height })))
    .filter(({ segment }) => /\p{L}{3}/u.test(segment.text) && !titled.has(normalizeLabel(segment.text)))
    .sort((a, b) => b.height - a.height)[0];
  return biggest && biggest.height > largest * 0.99 ? biggest.segment.text : null;
}

const LEGAL_FORM_SET = new Set(LEGAL_FORMS.map(normalizeLabel));

/** Company names in a cell: the words up to a legal form ("Nordlys Data AS", "Bäckström AB"). */
function companyNames(text: string): string[] {
  const names: string[] = [];
  for (const part of text.split(/ [·|•–] | - |, /u)) {
    const words = part.trim().split(' ');
    for (let end = words.length; end >= 2; end -= 1) {
      const tail2 = normalizeLabel(words.slice(Math.max(0, end - 2), end).join(' '));
      const tail1 = normalizeLabel(words[end - 1] ?? '');
      if ((LEGAL_FORM_SET.has(tail1) || LEGAL_FORM_SET.has(tail2)) && /^[\p{Lu}\d]/u.test(words[0] ?? '')) {
        const name = words
          .slice(0, end)
          .join(' ')
          .replace(/[,;:]$/u, '');
        if (name.length <= 80 && !/\d{4,}/u.test(name)) names.push(name);
        break;
      }
    }
  }
  return names;
}
