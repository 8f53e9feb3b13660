import { describe, expect, it } from 'vitest';
import { dateFromExcel, parseDateText } from '../../../../src/agreements/price-lists/dates.js';

describe('parseDateText', () => {
  it.each([
    ['2026-12-31', '2026-12-31'],
    ['2026-12-31T00:00:00Z', '2026-12-31'],
    ['2026/1/5', '2026-01-05'],
    ['31.12.2026', '2026-12-31'],
    ['1.2.2026', '2026-02-01'],
    ['31/12/2026', '2026-12-31'],
    ['31-12-2026', '2026-12-31'],
    ['12/31/2026', '2026-12-31'],
    ['05/05/2026', '2026-05-05'],
  ])('reads %s as %s', (text, date) => {
    expect(parseDateText(text)).toEqual({ ok: true, date });
  });

  it('rejects day/month orders it would have to guess', () => {
    expect(parseDateText('03/04/2026')).toEqual({
      ok: false,
      problem: "'03/04/2026' is ambiguous: 3 April or 4 March 2026? write it as YYYY-MM-DD",
    });
  });

  it('rejects two-digit years, impossible dates and other text', () => {
    expect(parseDateText('31.12.26')).toEqual({
      ok: false,
      problem: "'31.12.26' has a two-digit year; write the year in full",
    });
    expect(parseDateText('31.02.2026')).toEqual({ ok: false, problem: "'31.02.2026' is not a real date" });
    expect(parseDateText('2026-13-01')).toEqual({ ok: false, problem: "'2026-13-01' is not a real date" });
    expect(parseDateText('00/05/2026')).toEqual({ ok: false, problem: "'00/05/2026' is not a real date" });
    expect(parseDateText('end of year')).toEqual({
      ok: false,
      problem: "'end of year' is not a date (use YYYY-MM-DD, dd.mm.yyyy or dd/mm/yyyy)",
    });
  });
});

describe('dateFromExcel', () => {
  it('takes the calendar day, tolerating serial-day float noise', () => {
    expect(dateFromExcel(new Date(Date.UTC(2026, 11, 31)))).toBe('2026-12-31');
    expect(dateFromExcel(new Date(Date.UTC(2027, 0, 1) - 1))).toBe('2027-01-01');
    expect(dateFromExcel(new Date(Date.UTC(2026, 11, 31, 15, 30)))).toBe('2026-12-31');
    expect(dateFromExcel(new Date(Number.NaN))).toBeNull();
  });
});
