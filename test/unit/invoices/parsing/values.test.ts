import { describe, expect, it } from 'vitest';
import { parseCompactDate, parseIsoDate } from '../../../../src/invoices/parsing/dates.js';
import { normalizeDecimal, sumDecimals } from '../../../../src/invoices/parsing/decimal.js';

describe('normalizeDecimal', () => {
  it.each([
    ['1656.25', '1656.25'],
    ['7125', '7125'],
    ['1116,00', '1116.00'],
    ['-56,75', '-56.75'],
    ['+0.50', '0.50'],
    ['.5', '0.5'],
    ['007', '7'],
    ['-0.00', '0.00'],
    [' 25.0 ', '25.0'],
    ['12345678901234567890.123456789', '12345678901234567890.123456789'],
  ])('%s → %s', (raw, expected) => {
    expect(normalizeDecimal(raw)).toBe(expected);
  });

  it.each(['', 'abc', '1e5', '1.234,56', '1,2,3', 'NaN', 'Infinity', '1'.repeat(65), '12 EUR'])('rejects %j', (raw) => {
    expect(normalizeDecimal(raw)).toBeNull();
  });

  it('sums at the largest written scale', () => {
    expect(sumDecimals(['496.00', '75.04'])).toBe('571.04');
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals(['1', null])).toBeNull();
  });
});

describe('dates', () => {
  it('reads UBL dates with and without a time zone', () => {
    expect(parseIsoDate('2017-11-13')).toBe('2017-11-13');
    expect(parseIsoDate('2017-11-13+01:00')).toBe('2017-11-13');
    expect(parseIsoDate('2017-02-30')).toBeNull();
    expect(parseIsoDate('13.11.2017')).toBeNull();
  });

  it('reads CCYYMMDD (format 102) and refuses month or week precision', () => {
    expect(parseCompactDate('20180305', '102')).toBe('2018-03-05');
    expect(parseCompactDate('20190121', 'CCYYMMDD')).toBe('2019-01-21');
    expect(parseCompactDate('201803', '610')).toBeNull();
    expect(parseCompactDate('20181305', '102')).toBeNull();
  });
});
