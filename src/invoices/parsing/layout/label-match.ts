/**
 * Finds dictionary terms at the start of a run of words: the longest term wins, and every
 * dictionary key that has a term of that length is returned (the value decides between them).
 */
import type { Language, LabelTerm } from './labels.js';
import { labelWords, termsOf } from './labels.js';
import type { Word } from '../../../shared/layout/words.js';

export interface TermMatch<K extends string> {
  keys: K[];
  languages: Language[];
  /** The words the term used (original words). */
  used: Word[];
  /** The words after the term in the same run. */
  rest: Word[];
  wordCount: number;
}

interface IndexedWord {
  label: string;
  /** Index of the original word the label word came from. */
  from: number;
}

export class TermIndex<K extends string> {
  private readonly byFirstWord = new Map<string, LabelTerm<K>[]>();

  constructor(dictionary: Parameters<typeof termsOf<K>>[0]) {
    for (const term of termsOf(dictionary)) {
      const first = term.words[0] ?? '';
      const list = this.byFirstWord.get(first) ?? [];
      list.push(term);
      this.byFirstWord.set(first, list);
    }
  }

  /**
   * The dictionary word one slip of OCR away from `label` (a letter replaced, added or dropped:
   * "jtem" for "item", "anzahll" for "anzahl"), when exactly one word of four letters or more is.
   */
  nearWord(label: string): string | null {
    if (label.length < 4) return null;
    let found: string | null = null;
    for (const word of this.byFirstWord.keys()) {
      if (word.length < 4 || word === label || !withinOneEdit(label, word)) continue;
      if (found !== null) return null;
      found = word;
    }
    return found;
  }

  /**
   * Two dictionary words that OCR ran together, with the space or slash between them read as a
   * letter or dropped ("anzahllme" for "Anzahl ME" or "Anzahl/ME"): the split, or null.
   */
  splitWords(label: string): [string, string] | null {
    for (let at = 2; at <= label.length - 2; at += 1) {
      const left = label.slice(0, at);
      if (!this.byFirstWord.has(left)) continue;
      for (const skipped of [0, 1]) {
        const right = label.slice(at + skipped);
        if (right.length >= 2 && this.byFirstWord.has(right)) return [left, right];
      }
    }
    return null;
  }

  /** The longest terms starting at `words[0]`. */
  matchStart(words: readonly Word[]): TermMatch<K> | null {
    const indexed = indexWords(words, 8);
    const first = indexed[0];
    if (!first) return null;
    const candidates = this.byFirstWord.get(first.label);
    if (!candidates) return null;
    const best: LabelTerm<K>[] = [];
    for (const term of candidates) {
      if (best.length > 0 && term.words.length < (best[0]?.words.length ?? 0)) break;
      if (term.words.every((word, index) => indexed[index]?.label === word)) best.push(term);
    }
    const top = best[0];
    if (!top) return null;
    const lastUsed = indexed[top.words.length - 1]?.from ?? 0;
    // A term must end at a word end: "nr" must not match the start of "nr123" split as "nr" "123"
    // only because punctuation was removed inside one word.
    const nextLabel = indexed[top.words.length];
    if (nextLabel && nextLabel.from === lastUsed && !/^[\d#]/u.test(nextLabel.label)) return null;
    const rest = words.slice(lastUsed + 1);
    const glued = words[lastUsed];
    if (nextLabel && nextLabel.from === lastUsed && glued && /\d/u.test(glued.text)) {
      // "No:123": the value is glued to the label.
      const digitAt = glued.text.search(/\d/u);
      rest.unshift({
        ...glued,
        text: glued.text.slice(digitAt),
        x: glued.x + (glued.width * digitAt) / glued.text.length,
      });
    }
    return {
      keys: [...new Set(best.map((term) => term.key))],
      languages: [...new Set(best.map((term) => term.language))],
      used: words.slice(0, lastUsed + 1),
      rest,
      wordCount: top.words.length,
    };
  }
}

function indexWords(words: readonly Word[], limit: number): IndexedWord[] {
  const indexed: IndexedWord[] = [];
  for (const [from, word] of words.entries()) {
    for (const label of labelWords(word.text)) {
      indexed.push({ label, from });
      if (indexed.length >= limit) return indexed;
    }
  }
  return indexed;
}

/** Whether two words differ by at most one letter replaced, added or dropped. */
export function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let [i, j, edits] = [0, 0, 0];
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i += 1;
      j += 1;
      continue;
    }
    edits += 1;
    if (edits > 1) return false;
    if (a.length > b.length) i += 1;
    else if (b.length > a.length) j += 1;
    else {
      i += 1;
      j += 1;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}
