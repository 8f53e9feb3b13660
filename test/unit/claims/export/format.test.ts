import { describe, expect, it } from 'vitest';
import { neutraliseFormula } from '../../../../src/claims/export/columns.js';
import {
  groupThousands,
  isDecimalString,
  showLongDate,
  showMoney,
  showPeriod,
  showQuantity,
  utcDate,
} from '../../../../src/claims/export/format.js';

describe('claim letter formatting', () => {
  it('groups thousands on the decimal string itself, keeping every decimal and the sign', () => {
    expect(groupThousands('0.00')).toBe('0.00');
    expect(groupThousands('999.99')).toBe('999.99');
    expect(groupThousands('1000')).toBe('1,000');
    expect(groupThousands('1234567.50')).toBe('1,234,567.50');
    expect(groupThousands('-12345.125')).toBe('-12,345.125');
    // Beyond what a float holds exactly: still exact.
    expect(groupThousands('90071992547409931.01')).toBe('90,071,992,547,409,931.01');
  });

  it('writes money with at least two decimals, padding the string, never rounding', () => {
    expect(showMoney('1250')).toBe('1,250.00');
    expect(showMoney('1250.5')).toBe('1,250.50');
    expect(showMoney('-7')).toBe('-7.00');
    expect(showMoney('0.000125')).toBe('0.000125');
    expect(showMoney('1234567.125')).toBe('1,234,567.125');
    expect(showMoney(null)).toBe('–');
    expect(showMoney('n/a')).toBe('n/a');
  });

  it('leaves anything that is not a plain decimal string as it is', () => {
    for (const text of ['', '-', '1.', '.5', '1e5', '12,5', 'abc', '1.2.3', '--1']) {
      expect(isDecimalString(text)).toBe(false);
      expect(groupThousands(text)).toBe(text);
    }
    expect(isDecimalString('-0.5')).toBe(true);
  });

  it('is linear on long input', () => {
    const digits = '9'.repeat(200_000);
    expect(groupThousands(`${digits}!`)).toBe(`${digits}!`);
    expect(groupThousands(digits).length).toBe(200_000 + Math.floor((200_000 - 1) / 3));
  });

  it('writes quantities with their unit, dates in words and periods', () => {
    expect(showQuantity('1250.5', 'HUR')).toBe('1,250.5 HUR');
    expect(showQuantity(null, 'HUR')).toBe('HUR');
    expect(showQuantity(null, null)).toBe('');
    expect(showLongDate('2026-06-01T23:59:59Z')).toBe('1 June 2026');
    expect(showLongDate('not a date')).toBe('not a date');
    expect(showPeriod('2026-01-01', '2026-12-31')).toBe('1 January 2026 to 31 December 2026');
    expect(showPeriod(null, '2026-12-31')).toBe('until 31 December 2026');
    expect(showPeriod(null, null)).toBeNull();
    expect(utcDate('2026-03-14')?.toISOString()).toBe('2026-03-14T00:00:00.000Z');
    expect(utcDate('14.03.2026')).toBeNull();
  });

  it('neutralises every character a spreadsheet executes at the start of a cell', () => {
    for (const first of ['=', '+', '-', '@', '\t', '\r'])
      expect(neutraliseFormula(`${first}SUM(A1)`)).toBe(`'${first}SUM(A1)`);
    expect(neutraliseFormula('Consulting = 2 days')).toBe('Consulting = 2 days');
    expect(neutraliseFormula('')).toBe('');
  });
});
