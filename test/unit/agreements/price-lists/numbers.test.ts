import { describe, expect, it } from 'vitest';
import {
  currencyInHeader,
  currencyInNumberFormat,
  resolveCurrency,
} from '../../../../src/agreements/price-lists/currency.js';
import { decimalFromExcelNumber, parseNumberText } from '../../../../src/agreements/price-lists/numbers.js';

function parsed(text: string) {
  const result = parseNumberText(text);
  return result.ok
    ? {
        value: result.value.toFixed(),
        negative: result.negative,
        percent: result.percent,
        currency: result.currencyToken,
      }
    : { problem: result.problem };
}

describe('parseNumberText', () => {
  it.each([
    ['1 234,50', '1234.5'],
    ['1.234,50', '1234.5'],
    ['1,234.50', '1234.5'],
    ['1234.5', '1234.5'],
    ['1234,5', '1234.5'],
    ['12', '12'],
    ['0,125', '0.125'],
    ['1.234.567', '1234567'],
    ['1,234,567.891', '1234567.891'],
    ["1'234.50", '1234.5'],
    ['1\u00a0234,50', '1234.5'],
    ['120,-', '120'],
    ['.5', '0.5'],
    ['1 234,567', '1234.567'],
  ])('reads %s as %s', (text, value) => {
    expect(parsed(text)).toEqual({ value, negative: false, percent: false, currency: null });
  });

  it('takes a currency written before or after the number', () => {
    expect(parsed('kr 120,00')).toEqual({ value: '120', negative: false, percent: false, currency: 'kr' });
    expect(parsed('€ 12')).toEqual({ value: '12', negative: false, percent: false, currency: '€' });
    expect(parsed('12 EUR')).toEqual({ value: '12', negative: false, percent: false, currency: 'EUR' });
    expect(parsed('€12,50')).toEqual({ value: '12.5', negative: false, percent: false, currency: '€' });
    expect(parsed('120,- kr')).toEqual({ value: '120', negative: false, percent: false, currency: 'kr' });
    expect(parsed('US$ 5.25')).toEqual({ value: '5.25', negative: false, percent: false, currency: 'US$' });
  });

  it('marks percents and negatives', () => {
    expect(parsed('5 %')).toEqual({ value: '5', negative: false, percent: true, currency: null });
    expect(parsed('2,5%')).toEqual({ value: '2.5', negative: false, percent: true, currency: null });
    expect(parsed('-12')).toEqual({ value: '12', negative: true, percent: false, currency: null });
    expect(parsed('−12,00')).toEqual({ value: '12', negative: true, percent: false, currency: null });
    expect(parsed('(12.00)')).toEqual({ value: '12', negative: true, percent: false, currency: null });
    expect(parsed('12.00-')).toEqual({ value: '12', negative: true, percent: false, currency: null });
    expect(parsed('€ -3')).toEqual({ value: '3', negative: true, percent: false, currency: '€' });
  });

  it('reports a lone separator before three digits as ambiguous', () => {
    expect(parsed('1,234')).toEqual({ problem: 'is ambiguous: 1234 or 1.234?' });
    expect(parsed('12.500')).toEqual({ problem: 'is ambiguous: 12500 or 12.500?' });
  });

  it.each(['abc', '', '12 34', '1,23,4', '1.2.3,4,5', '12 EUR NOK', '5 % EUR', '1e5', '--', '12abc34'])(
    'rejects %j as not a number',
    (text) => {
      expect(parsed(text)).toEqual({ problem: 'is not a number' });
    },
  );
});

describe('decimalFromExcelNumber', () => {
  it('drops binary noise but keeps real decimals', () => {
    expect(decimalFromExcelNumber(0.1 + 0.2)?.toFixed()).toBe('0.3');
    expect(decimalFromExcelNumber(1234.56)?.toFixed()).toBe('1234.56');
    expect(decimalFromExcelNumber(19.99 * 3)?.toFixed()).toBe('59.97');
    expect(decimalFromExcelNumber(0.0000012345)?.toFixed()).toBe('0.0000012345');
    expect(decimalFromExcelNumber(1 / 3)?.toFixed()).toBe('0.3333333333');
    expect(decimalFromExcelNumber(123456789012)?.toFixed()).toBe('123456789012');
    expect(decimalFromExcelNumber(Number.NaN)).toBeNull();
  });
});

describe('currencies', () => {
  it('resolves codes and symbols, using the preferred code when a symbol is shared', () => {
    expect(resolveCurrency('eur', ['NOK'])).toEqual({ code: 'EUR' });
    expect(resolveCurrency('€', ['NOK'])).toEqual({ code: 'EUR' });
    expect(resolveCurrency('kr', ['SEK'])).toEqual({ code: 'SEK' });
    expect(resolveCurrency('kr.', ['DKK'])).toEqual({ code: 'DKK' });
    expect(resolveCurrency('kr', ['EUR'])).toEqual({
      problem: "currency 'kr' could be NOK, SEK, DKK or ISK; write the currency code",
    });
    expect(resolveCurrency('XYZ', ['EUR'])).toEqual({ problem: "currency 'XYZ' is not an ISO 4217 code" });
  });

  it('finds the currency an Excel number format shows', () => {
    expect(currencyInNumberFormat('#,##0.00 [$€-407]')).toBe('€');
    expect(currencyInNumberFormat('[$NOK] #,##0.00')).toBe('NOK');
    expect(currencyInNumberFormat('"kr" #,##0.00')).toBe('kr');
    expect(currencyInNumberFormat('#,##0.00 €')).toBe('€');
    expect(currencyInNumberFormat('[$-409]#,##0.00')).toBeNull();
    expect(currencyInNumberFormat('0.00%')).toBeNull();
    expect(currencyInNumberFormat(undefined)).toBeNull();
  });

  it('finds a currency named in a price header', () => {
    expect(currencyInHeader('Price (NOK)')).toBe('NOK');
    expect(currencyInHeader('Preis €')).toBe('€');
    expect(currencyInHeader('Pris kr')).toBe('kr');
    expect(currencyInHeader('Price for all')).toBeNull();
    expect(currencyInHeader('Pris ekskl. mva')).toBeNull();
  });
});
