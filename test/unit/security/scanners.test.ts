// The hand-written scanners that replaced backtracking patterns accept exactly what those
// patterns accepted: each is compared with its old pattern on many short random inputs built
// from the characters that matter (short, so the old pattern's quadratic time does not matter).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDirective } from '../../../src/agreements/context-suggestions/directives.js';
import { removeDefinedNames } from '../../../src/agreements/documents/extraction/spreadsheet.js';
import { bracketedCurrency } from '../../../src/agreements/price-lists/currency.js';
import { trailingCurrency } from '../../../src/agreements/price-lists/numbers.js';
import { removeDelimited } from '../../../src/shared/text-scan.js';

const QUOTED_OR_BRACKETED = [
  ['"', '"'],
  ['[', ']'],
] as const;
const fromPieces = (pieces: string[], maxLength = 12) =>
  fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));

const OLD_DIRECTIVE = new RegExp(
  [
    String.raw`^\s*(?:[-*•]\s*)?do not flag:\s*(?<checker>[a-z0-9_\-]+)`,
    String.raw`(?:\s+for item\s+"(?<item>(?:[^"\\]|\\.)*)")?`,
    String.raw`(?:\s+at unit price\s+(?<price>-?\d+(?:\.\d+)?)(?:\s+(?<currency>[a-z]{3})\b)?)?`,
    String.raw`(?:\s+\(ref\s+(?<ref>[^\s()]+)\))?`,
    String.raw`\s*[.;]?\s*(?:reason:\s*(?<reason>.*?))?\s*$`,
  ].join(''),
  'i',
);

function oldDirective(line: string) {
  const g = OLD_DIRECTIVE.exec(line)?.groups;
  if (!g) return null;
  return {
    checker: g.checker!.toLowerCase(),
    item: g.item !== undefined ? g.item.replace(/\\(.)/g, '$1') : null,
    unitPrice: g.price ?? null,
    currencyCode: g.currency?.toUpperCase() ?? null,
    ref: g.ref ?? null,
    reason: g.reason ? g.reason : null,
  };
}

describe('scanners agree with the patterns they replaced', () => {
  it('instruction directives', () => {
    const pieces = [
      ' ',
      '  ',
      '\t',
      '\r',
      '\u2028',
      'x',
      'EUR',
      'eur1',
      '12',
      '.5',
      '-',
      '.',
      ';',
      '"',
      '\\',
      '\\"',
      '(',
      ')',
      'ref',
      '(ref ',
      ' for item ',
      ' at unit price ',
      'reason',
      'reason:',
      'REASON: ok',
      ':',
      '•',
    ];
    const lines = fc
      .tuple(
        fc.constantFrom('', ' ', '- ', '•', '*'),
        fc.constantFrom('do not flag:', 'Do Not Flag: ', 'do not flag'),
        fromPieces(pieces, 14),
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(lines, (line) => {
        expect(parseDirective(line)).toEqual(oldDirective(line));
      }),
      { numRuns: 5000 },
    );
    expect(parseDirective('Do not flag: pricingreason: agreed')).toEqual(
      oldDirective('Do not flag: pricingreason: agreed'),
    );
  });

  it('the currency after a price', () => {
    const pattern = /\s*(\p{L}+\p{Sc}|\p{L}{1,3}\.?|\p{Sc})$/u;
    const text = fromPieces(['1', ' ', '\u00a0', 'k', 'r', 'E', 'ä', '𝐀', '$', '€', '.', ',', '-']);
    fc.assert(
      fc.property(text, (value) => {
        const match = pattern.exec(value);
        expect(trailingCurrency(value)).toEqual(match ? { token: match[1], index: match.index } : null);
      }),
      { numRuns: 5000 },
    );
  });

  it('the bracketed currency of a number format', () => {
    const pattern = /\[\$([^\]-]+)(?:-[0-9A-Fa-f]+)?\]/;
    const text = fromPieces(['[$', '[', ']', '-', '$', '€', 'NOK', '40', '7', 'g', '"', '#,##0']);
    fc.assert(
      fc.property(text, (value) => {
        expect(bracketedCurrency(value)).toEqual(pattern.exec(value)?.[1]);
      }),
      { numRuns: 5000 },
    );
  });

  it('quoted and bracketed parts of a number format', () => {
    const text = fromPieces(['"', '[', ']', 'kr', '€', '$', '0.00']);
    fc.assert(
      fc.property(text, (value) => {
        expect(removeDelimited(value, QUOTED_OR_BRACKETED)).toEqual(value.replace(/"[^"]*"|\[[^\]]*\]/g, ''));
      }),
      { numRuns: 5000 },
    );
  });

  it('defined names in a workbook part', () => {
    const pattern = /<(?:\w+:)?definedNames\b[^>]*\/>|<(?:\w+:)?definedNames\b[\s\S]*?<\/(?:\w+:)?definedNames>/g;
    const text = fromPieces(['<', '</', '>', '/>', '/', 'x:', 'definedNames', 'definedNamesX', ' a="1"', 'z', ':'], 10);
    fc.assert(
      fc.property(text, (value) => {
        expect(removeDefinedNames(value)).toEqual(value.replace(pattern, ''));
      }),
      { numRuns: 5000 },
    );
  });
});
