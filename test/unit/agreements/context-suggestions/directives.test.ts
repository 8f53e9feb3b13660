import { describe, expect, it } from 'vitest';
import {
  directiveKey,
  formatDirective,
  isSuppressed,
  itemKeyOf,
  parseDirective,
  parseDirectives,
  type Directive,
  type SuppressionSubject,
} from '../../../../src/agreements/context-suggestions/directives.js';

const directive = (fields: Partial<Directive>): Directive => ({
  checker: 'price_mismatch',
  item: null,
  unitPrice: null,
  currencyCode: null,
  ref: null,
  reason: null,
  ...fields,
});
const subject = (fields: Partial<SuppressionSubject>): SuppressionSubject => ({
  checker: 'price_mismatch',
  fingerprint: 'price_mismatch:aaa',
  itemKey: '1001',
  unitPrice: '12.50',
  currencyCode: 'EUR',
  ...fields,
});

describe('parseDirectives', () => {
  it('reads every directive line and ignores the free text around it', () => {
    const instructions = [
      'Freight is included in the unit prices.',
      'Do not flag: price_mismatch for item "1001" at unit price 12.50 EUR. Reason: agreed by phone in March',
      '- do not flag: duplicate_charge (ref duplicate_charge:0123abcd)',
      'Please do not flag anything about Tuesday deliveries.',
      'Do not flag: vat_rate',
    ].join('\n');
    expect(parseDirectives(instructions)).toEqual([
      {
        checker: 'price_mismatch',
        item: '1001',
        unitPrice: '12.50',
        currencyCode: 'EUR',
        ref: null,
        reason: 'agreed by phone in March',
      },
      {
        checker: 'duplicate_charge',
        item: null,
        unitPrice: null,
        currencyCode: null,
        ref: 'duplicate_charge:0123abcd',
        reason: null,
      },
      { checker: 'vat_rate', item: null, unitPrice: null, currencyCode: null, ref: null, reason: null },
    ]);
  });

  it('has nothing to read in empty instructions', () => {
    expect(parseDirectives(null)).toEqual([]);
    expect(parseDirectives('')).toEqual([]);
    expect(parseDirectives('Prices are net of VAT.\r\nPay in 30 days.')).toEqual([]);
  });

  it('ignores a line that starts like a directive but says something it cannot read', () => {
    expect(parseDirective('Do not flag: price_mismatch for the whole of 2026')).toBeNull();
    expect(parseDirective('Do not flag: for item "1001"')).toBeNull();
    expect(parseDirective('Note: Do not flag: price_mismatch')).toBeNull();
  });

  it('reads back what it writes, quotes and backslashes in item names included', () => {
    const original = directive({
      item: 'Cable 3/4" \\ black',
      unitPrice: '0.125',
      currencyCode: 'NOK',
      ref: 'price_mismatch:ff00',
      reason: 'Agreed.',
    });
    const line = formatDirective(original);
    expect(line).toBe(
      'Do not flag: price_mismatch for item "Cable 3/4\\" \\\\ black" at unit price 0.125 NOK (ref price_mismatch:ff00). Reason: Agreed.',
    );
    expect(parseDirective(line)).toEqual(original);
  });

  it('keeps a directive on one line whatever the item and reason hold', () => {
    const line = formatDirective(directive({ item: 'Paper\nA4', reason: 'first line\nsecond line' }));
    expect(line).toBe('Do not flag: price_mismatch for item "Paper A4". Reason: first line second line');
    expect(parseDirectives(line)).toHaveLength(1);
  });
});

describe('directiveKey', () => {
  it('is the same for the same edit, whatever the wording, spelling of the item or reason', () => {
    const a = parseDirective('Do not flag: price_mismatch for item "AB-100.2" at unit price 12.5 eur. Reason: one')!;
    const b = parseDirective('do not flag: PRICE_MISMATCH for item "ab 1002" at unit price 12.50 EUR')!;
    expect(directiveKey(a)).toBe(directiveKey(b));
  });

  it('differs when what is suppressed differs', () => {
    const base = directive({ item: '1001', unitPrice: '12.50', currencyCode: 'EUR' });
    const keys = new Set(
      [
        base,
        { ...base, unitPrice: '12.51' },
        { ...base, item: '1002' },
        { ...base, checker: 'other' },
        { ...base, ref: 'x' },
        { ...base, currencyCode: 'SEK' },
      ].map(directiveKey),
    );
    expect(keys.size).toBe(6);
  });
});

describe('isSuppressed', () => {
  const priceRule = parseDirectives('Do not flag: price_mismatch for item "1001" at unit price 12.50 EUR');

  it('covers the same checker on the same item at the same price', () => {
    expect(isSuppressed(subject({}), priceRule)).toBe(true);
    expect(
      isSuppressed(subject({ unitPrice: '12.5000', fingerprint: 'price_mismatch:other-invoice' }), priceRule),
    ).toBe(true);
    expect(isSuppressed(subject({ itemKey: ' 1001 ' }), priceRule)).toBe(true);
  });

  it('does not cover another checker, item, price or currency', () => {
    expect(isSuppressed(subject({ checker: 'quantity_mismatch' }), priceRule)).toBe(false);
    expect(isSuppressed(subject({ itemKey: '1002' }), priceRule)).toBe(false);
    expect(isSuppressed(subject({ unitPrice: '13.00' }), priceRule)).toBe(false);
    expect(isSuppressed(subject({ currencyCode: 'SEK' }), priceRule)).toBe(false);
    expect(isSuppressed(subject({ itemKey: null, unitPrice: null }), priceRule)).toBe(false);
  });

  it('compares the currency only when the finding gives one', () => {
    expect(isSuppressed(subject({ currencyCode: undefined }), priceRule)).toBe(true);
  });

  it('covers exactly one problem with a ref', () => {
    const refRule = parseDirectives('Do not flag: totals_mismatch (ref totals_mismatch:abc)');
    expect(
      isSuppressed(
        subject({ checker: 'totals_mismatch', fingerprint: 'totals_mismatch:abc', itemKey: null, unitPrice: null }),
        refRule,
      ),
    ).toBe(true);
    expect(
      isSuppressed(
        subject({ checker: 'totals_mismatch', fingerprint: 'totals_mismatch:abd', itemKey: null, unitPrice: null }),
        refRule,
      ),
    ).toBe(false);
  });

  it('silences a whole checker when a person writes only its code', () => {
    expect(isSuppressed(subject({ checker: 'vat_rate' }), parseDirectives('Do not flag: vat_rate'))).toBe(true);
  });

  it('matches items whatever their case, spaces and punctuation', () => {
    const rule = parseDirectives('Do not flag: price_mismatch for item "Kopipapir A4, 80g"');
    expect(isSuppressed(subject({ itemKey: 'KOPIPAPIR  a4 80G' }), rule)).toBe(true);
  });

  it('names a line by its seller item id, else its description', () => {
    expect(itemKeyOf({ sellerItemId: '1001', description: 'Paper' })).toBe('1001');
    expect(itemKeyOf({ sellerItemId: '  ', description: 'Paper' })).toBe('Paper');
    expect(itemKeyOf({ sellerItemId: null, description: null })).toBeNull();
    expect(itemKeyOf(null)).toBeNull();
  });
});
