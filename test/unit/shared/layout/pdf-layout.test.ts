import { describe, expect, it } from 'vitest';
import { layoutLines, type PositionedText } from '../../../../src/shared/layout/pdf-layout.js';

const fragment = (text: string, x: number, y: number, width = text.length * 5): PositionedText => ({
  text,
  x,
  y,
  width,
  fontSize: 10,
});

describe('layoutLines', () => {
  it('joins fragments split inside a word and spaces fragments with a visible gap', () => {
    const lines = layoutLines([
      fragment('Invoice', 10, 700, 35),
      fragment('#', 50, 700, 5),
      fragment('RE-20', 60, 700, 25),
      fragment('201121', 85, 700, 30),
      fragment('/50', 115, 700, 15),
      fragment('8', 130, 700, 5),
    ]);
    expect(lines).toEqual(['Invoice # RE-20201121/508']);
  });

  it('orders lines top to bottom and fragments left to right, tolerating small baseline shifts', () => {
    const lines = layoutLines([
      fragment('104,00 €', 200, 500.8),
      fragment('Brutto', 10, 500),
      fragment('Netto 87,39 €', 10, 520),
    ]);
    expect(lines).toEqual(['Netto 87,39 €', 'Brutto 104,00 €']);
  });

  it('drops whitespace-only fragments and normalizes no-break spaces', () => {
    expect(layoutLines([fragment(' ', 0, 10), fragment('1\u00a0234,56', 10, 10)])).toEqual(['1 234,56']);
  });
});
