import { describe, expect, it } from 'vitest';
import {
  foldForSearch,
  MARK_END,
  MARK_START,
  parseHeadline,
  phraseMatches,
  phrasePattern,
} from '../../../../src/documents/search/text.js';

describe('search text preparation', () => {
  it('folds case for every letter, Nordic capitals included, and composes combining marks', () => {
    expect(foldForSearch('ÅRLIG Ærlig ØKNING Ä')).toBe('årlig ærlig økning ä');
    expect(foldForSearch('A\u030A')).toBe('å');
  });

  it('turns a phrase into a literal pattern where any whitespace matches any other', () => {
    const pattern = phrasePattern('  0,5 %  (per dag) ');
    expect(phraseMatches('Dagbot utgjør 0,5 %\n(PER DAG) av ordreverdien.', pattern)).toEqual([{ start: 14, end: 29 }]);
    expect(phraseMatches('0x5 % (per dag)', pattern)).toEqual([]);
    expect(phraseMatches('a.b*c a.b*c', phrasePattern('A.B*C'))).toEqual([
      { start: 0, end: 5 },
      { start: 6, end: 11 },
    ]);
    expect(phraseMatches('path/to [x]{1} ^$|?+\\', phrasePattern('path/to [x]{1} ^$|?+\\'))).toHaveLength(1);
  });

  it('reads highlights out of a ts_headline result, and refuses one that does not reproduce the passage', () => {
    const text = 'Oppsigelse skjer skriftlig. Ved oppsigelse gjelder avtalen.';
    const headline = `${MARK_START}Oppsigelse${MARK_END} skjer skriftlig. Ved ${MARK_START}oppsigelse${MARK_END} gjelder avtalen.`;
    expect(parseHeadline(headline, text)).toEqual([
      { start: 0, end: 10 },
      { start: 32, end: 42 },
    ]);
    expect(parseHeadline('something else', text)).toBeNull();
  });
});
