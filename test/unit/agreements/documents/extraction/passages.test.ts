import { describe, expect, it } from 'vitest';
import { normalizeParagraph } from '../../../../../src/agreements/documents/extraction/normalize.js';
import {
  DocumentTextBuilder,
  PASSAGE_MAX,
  PASSAGE_MIN,
  type TextBlock,
} from '../../../../../src/agreements/documents/extraction/passages.js';
import { contractParagraph, expectConsistentPassages } from './fixtures.js';

function build(blocks: TextBlock[], maxCharacters = 2_000_000) {
  const builder = new DocumentTextBuilder(maxCharacters);
  for (const block of blocks) if (!builder.add(block)) break;
  const passages = builder.passages();
  return {
    builder,
    passages,
    result: {
      kind: 'text' as const,
      format: 'text' as const,
      passages,
      truncated: builder.truncated,
      pageCount: null,
      characterCount: builder.characterCount,
    },
  };
}

const prose = (text: string): TextBlock => ({ text, page: null, sheet: null });

describe('passages', () => {
  it('joins short paragraphs into passages of PASSAGE_MIN..PASSAGE_MAX characters with exact offsets', () => {
    const paragraphs = Array.from({ length: 30 }, (_, index) => contractParagraph(180, index));
    const { passages, result } = build(paragraphs.map(prose));
    const wholeText = paragraphs.join('\n\n');
    expectConsistentPassages(result, wholeText);
    expect(result.characterCount).toBe(wholeText.length);
    for (const passage of passages.slice(0, -1)) expect(passage.text.length).toBeGreaterThanOrEqual(PASSAGE_MIN);
    expect(passages.length).toBeGreaterThan(3);
    // Short paragraphs are never split: each passage starts where a paragraph starts.
    for (const passage of passages)
      expect(paragraphs.some((paragraph) => passage.text.startsWith(paragraph))).toBe(true);
  });

  it('splits a long paragraph after sentence ends, never inside a word', () => {
    const paragraph = contractParagraph(5_000);
    const { passages, result } = build([prose(paragraph)]);
    expectConsistentPassages(result, paragraph);
    expect(passages.length).toBeGreaterThanOrEqual(5);
    for (const passage of passages) {
      expect(passage.text).toMatch(/[.;]$/);
      expect(passage.text.length).toBeGreaterThanOrEqual(PASSAGE_MIN);
    }
  });

  it('splits text without punctuation at spaces', () => {
    const paragraph = Array.from({ length: 900 }, (_, index) => `word${index}`).join(' ');
    const { passages, result } = build([prose(paragraph)]);
    expectConsistentPassages(result, paragraph);
    for (const passage of passages) {
      const before = paragraph[passage.startOffset - 1];
      const after = paragraph[passage.endOffset];
      expect(before === undefined || before === ' ').toBe(true);
      expect(after === undefined || after === ' ').toBe(true);
    }
  });

  it('cuts a single "word" longer than PASSAGE_MAX (encoded data) into pieces of PASSAGE_MAX', () => {
    const blob = 'QUJD'.repeat(800);
    const { passages, result } = build([prose(blob)]);
    expectConsistentPassages(result, blob);
    expect(passages.map((passage) => passage.text.length)).toEqual([PASSAGE_MAX, PASSAGE_MAX, 800]);
  });

  it('splits table rows between lines, not after a dot inside a row', () => {
    const rows = Array.from(
      { length: 200 },
      (_, index) => `Art. ${index} | Screws no. 4. Stainless | ${(index * 1.25).toFixed(2)}`,
    );
    const { passages, result } = build([{ text: rows.join('\n'), page: null, sheet: 'Prices', lineOriented: true }]);
    expectConsistentPassages(result, rows.join('\n'));
    for (const passage of passages) {
      expect(passage.sheet).toBe('Prices');
      for (const line of passage.text.split('\n')) expect(rows).toContain(line);
    }
  });

  it('never puts two pages into one passage', () => {
    const { passages, result } = build([
      { text: 'Page one text.', page: 1, sheet: null },
      { text: 'Page two text.', page: 2, sheet: null },
      { text: 'More on page two.', page: 2, sheet: null },
    ]);
    expectConsistentPassages(result, 'Page one text.\n\nPage two text.\n\nMore on page two.');
    expect(passages.map((passage) => [passage.page, passage.text])).toEqual([
      [1, 'Page one text.'],
      [2, 'Page two text.\n\nMore on page two.'],
    ]);
  });

  it('stops at the character budget at a word boundary and says so', () => {
    const { builder, passages, result } = build(
      [prose('Alpha beta gamma delta.'), prose('Epsilon zeta eta theta iota kappa.')],
      40,
    );
    expect(builder.truncated).toBe(true);
    expect(result.characterCount).toBeLessThanOrEqual(40);
    expect(passages.map((passage) => passage.text)).toEqual(['Alpha beta gamma delta.\n\nEpsilon zeta']);
    expect(builder.add(prose('More text'))).toBe(false);
  });
});

describe('normalizeParagraph', () => {
  it('collapses whitespace of every kind and keeps letters and case as written', () => {
    expect(normalizeParagraph('  Leverandøren\t skal\u00a0\u00a0levere  VAREN \r\n\r\n  innen 30\u2009dager.  ')).toBe(
      'Leverandøren skal levere VAREN\ninnen 30 dager.',
    );
  });

  it('removes invisible characters, resolves ligatures and composes accents', () => {
    expect(normalizeParagraph('De\ufb01nition\u00ad of \u200bterms')).toBe('Definition of terms');
    expect(normalizeParagraph('Vilka\u030ar')).toBe('Vilkår');
  });
});
