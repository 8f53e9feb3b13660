import { describe, expect, it } from 'vitest';
import { matchPriceItem } from '../../../../src/checks/checkers/index.js';
import { line, priceItem, rateItem } from './fixtures.js';

const on = { invoiceDate: '2026-03-01' };

describe('matchPriceItem', () => {
  it('matches by article number first, ignoring case, spaces, dots and dashes, and is certain in the same unit', () => {
    const match = matchPriceItem(
      line({ sellerItemId: 'p 100', description: 'Something else' }),
      [priceItem({ sellerItemId: 'P-100' })],
      on,
    );
    expect(match).toMatchObject({
      matchedBy: 'seller_item_id',
      confidence: 'certain',
      applies: true,
      unitsAgree: true,
      rivals: 0,
    });
    expect(match!.reason).toBe('article number p 100 is price item "Copy paper A4"; same unit (box)');
  });

  it('reads unit codes and written units as the same unit (C62/H87/EA/stk, HUR/timer)', () => {
    expect(matchPriceItem(line({ unitCode: 'C62' }), [priceItem({ unit: 'stk' })], on)!.unitsAgree).toBe(true);
    expect(matchPriceItem(line({ unitCode: 'H87' }), [priceItem({ unit: 'pcs' })], on)!.unitsAgree).toBe(true);
    expect(matchPriceItem(line({ unitCode: 'HUR' }), [priceItem({ unit: 'Timer' })], on)!.unitsAgree).toBe(true);
    expect(matchPriceItem(line({ unitCode: 'KGM' }), [priceItem({ unit: 'kg.' })], on)!.unitsAgree).toBe(true);
    expect(matchPriceItem(line({ unitCode: 'HUR' }), [priceItem({ unit: 'day' })], on)!.unitsAgree).toBe(false);
  });

  it('is less sure by article number when a unit is missing or different', () => {
    expect(matchPriceItem(line({ unitCode: null }), [priceItem()], on)).toMatchObject({
      confidence: 'high',
      unitsAgree: null,
    });
    expect(matchPriceItem(line({ unitCode: 'C62' }), [priceItem({ unit: 'box' })], on)).toMatchObject({
      confidence: 'medium',
      unitsAgree: false,
    });
  });

  it('falls back to the normalized description and unit, with high confidence', () => {
    const match = matchPriceItem(
      line({ sellerItemId: null, description: '  COPY-paper, a4 ' }),
      [priceItem({ sellerItemId: null })],
      on,
    );
    expect(match).toMatchObject({ matchedBy: 'description_and_unit', confidence: 'high' });
  });

  it('matches diacritics and Nordic letters alike (Kopipapir Ø = kopipapir o)', () => {
    const match = matchPriceItem(
      line({ sellerItemId: null, description: 'Kaffe Økologisk' }),
      [priceItem({ sellerItemId: null, description: 'kaffe okologisk' })],
      on,
    );
    expect(match?.matchedBy).toBe('description_and_unit');
  });

  it('matches by description alone with medium confidence when a unit is missing', () => {
    const match = matchPriceItem(line({ sellerItemId: null, unitCode: null }), [priceItem({ sellerItemId: null })], on);
    expect(match).toMatchObject({ matchedBy: 'description', confidence: 'medium' });
  });

  it('uses the description when the line has an article number the price list does not know', () => {
    const match = matchPriceItem(line({ sellerItemId: 'X-1' }), [priceItem({ sellerItemId: null })], on);
    expect(match?.matchedBy).toBe('description_and_unit');
  });

  it('never matches by description a price item with another article number', () => {
    expect(matchPriceItem(line({ sellerItemId: 'X-1' }), [priceItem({ sellerItemId: 'P-100' })], on)).toBeNull();
  });

  it('returns null when nothing fits', () => {
    expect(matchPriceItem(line({ sellerItemId: null, description: 'Stapler' }), [priceItem()], on)).toBeNull();
    expect(matchPriceItem(line({ sellerItemId: null, description: null }), [priceItem()], on)).toBeNull();
  });

  it('prefers the price in force on the invoice date, and says when the only one ran out', () => {
    const old = priceItem({ id: 'old', amount: '9.00', validUntil: '2026-01-31' });
    const spring = priceItem({ id: 'spring', amount: '10.00', validUntil: '2026-06-30' });
    const later = priceItem({ id: 'later', amount: '11.00', validUntil: null });
    expect(matchPriceItem(line(), [later, old, spring], on)!.priceItem.id).toBe('spring');
    const expired = matchPriceItem(line(), [old], on)!;
    expect(expired.applies).toBe(false);
    expect(expired.reason).toContain('valid until 2026-01-31, before the invoice date 2026-03-01');
  });

  it('prefers the candidate in the same unit', () => {
    const perPiece = priceItem({ id: 'piece', unit: 'pcs', amount: '1.00' });
    const perBox = priceItem({ id: 'box', unit: 'box', amount: '10.00' });
    expect(matchPriceItem(line({ unitCode: 'BX' }), [perPiece, perBox], on)!.priceItem.id).toBe('box');
    expect(matchPriceItem(line({ unitCode: 'EA' }), [perPiece, perBox], on)!.priceItem.id).toBe('piece');
  });

  it('takes the highest of equally good prices and is then at most medium sure', () => {
    const match = matchPriceItem(
      line(),
      [priceItem({ id: 'a', amount: '9.50' }), priceItem({ id: 'b', amount: '10.00' })],
      on,
    )!;
    expect(match).toMatchObject({ rivals: 1, confidence: 'medium' });
    expect(match.priceItem.id).toBe('b');
    expect(match.reason).toContain('2 price items fit equally well');
  });

  it('does not count identical duplicates as rivals', () => {
    expect(matchPriceItem(line(), [priceItem({ id: 'a' }), priceItem({ id: 'b' })], on)).toMatchObject({
      rivals: 0,
      confidence: 'certain',
    });
  });

  it('can be limited to one price type', () => {
    const fee = rateItem({ description: 'Copy paper A4' });
    expect(matchPriceItem(line({ sellerItemId: null }), [fee], { ...on, priceType: 'amount' })).toBeNull();
    expect(matchPriceItem(line({ sellerItemId: null }), [fee], on)?.priceItem.id).toBe('item-rate');
  });
});
