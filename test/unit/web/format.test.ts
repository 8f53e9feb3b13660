import { describe, expect, it } from 'vitest';
import { decimalText, formatterFor, money } from '../../../src/web/format.js';

// Money and numbers per language: the digits come from decimal.js (exact, whatever their count),
// Intl only groups them and places the sign and currency symbol as the language writes them.

const NBSP = '\u00a0';

describe('English (en-GB)', () => {
  const fmt = formatterFor('en');

  it('writes amounts as before languages came (the module functions are the English ones)', () => {
    expect(fmt.money('1234567.5', 'EUR')).toBe('€1,234,567.50');
    expect(money('1234567.5', 'EUR')).toBe('€1,234,567.50');
    expect(fmt.money('-12.5', 'GBP')).toBe('-£12.50');
    expect(fmt.money('0.0125', 'EUR')).toBe('€0.0125');
    expect(fmt.money('1234.56', 'NOK')).toBe(`NOK${NBSP}1,234.56`);
    expect(fmt.money('5', null)).toBe('5');
    expect(fmt.money('5', 'XX1')).toBe('5 XX1');
    expect(fmt.money(null, 'EUR')).toBe('—');
  });

  it('keeps every digit of a long amount (no float on the way)', () => {
    expect(fmt.money('12345678901234567890.123456789', 'EUR')).toBe('€12,345,678,901,234,567,890.123456789');
    expect(fmt.decimalText('0.1')).toBe('0.1');
  });

  it('groups quantities and marks negatives with a minus sign', () => {
    expect(fmt.decimalText('1234567.25')).toBe('1,234,567.25');
    expect(decimalText('-3.5')).toBe('−3.5');
    expect(fmt.decimalText('')).toBe('—');
  });
});

describe('Norwegian (nb-NO)', () => {
  const fmt = formatterFor('nb');

  it('writes kroner and other currencies the Norwegian way', () => {
    expect(fmt.money('1234.56', 'NOK')).toBe(`1${NBSP}234,56${NBSP}kr`);
    expect(fmt.money('-1234.5', 'NOK')).toBe(`−1${NBSP}234,50${NBSP}kr`);
    expect(fmt.money('1234567.5', 'EUR')).toBe(`1${NBSP}234${NBSP}567,50${NBSP}€`);
    expect(fmt.money('0.0125', 'NOK')).toBe(`0,0125${NBSP}kr`);
    expect(fmt.money('5', null)).toBe('5');
    expect(fmt.money(undefined, 'NOK')).toBe('—');
  });

  it('keeps every digit of a long amount (no float on the way)', () => {
    expect(fmt.money('12345678901234567890.123456789', 'NOK')).toBe(
      `12${NBSP}345${NBSP}678${NBSP}901${NBSP}234${NBSP}567${NBSP}890,123456789${NBSP}kr`,
    );
  });

  it('groups quantities with a space and a decimal comma', () => {
    expect(fmt.decimalText('1234567.25')).toBe(`1${NBSP}234${NBSP}567,25`);
    expect(fmt.decimalText('-3.5')).toBe('−3,5');
  });

  it('keeps dates in ISO 8601, as in English', () => {
    expect(fmt.date('2026-11-28T10:20:30Z')).toBe('2026-11-28');
    expect(fmt.dateTime('2026-11-28T10:20:30Z')).toBe('2026-11-28 10:20 UTC');
  });
});

describe('formatters', () => {
  it('are built once per language', () => {
    expect(formatterFor('nb')).toBe(formatterFor('nb'));
    expect(formatterFor('en')).not.toBe(formatterFor('nb'));
  });
});
