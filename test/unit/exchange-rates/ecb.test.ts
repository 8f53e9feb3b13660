import { describe, expect, it } from 'vitest';
import { parseEcbCsv } from '../../../src/exchange-rates/index.js';
import { errorOf, fixture } from './fixtures.js';

describe('ECB eurofxref-hist.csv', () => {
  const rows = parseEcbCsv(fixture('eurofxref-hist.csv'));

  it('reads every quoted currency of every day as 1 EUR = rate', () => {
    // 11 days x 30 currencies still quoted; the 11 discontinued ones are N/A throughout.
    expect(rows).toHaveLength(11 * 30);
    expect(rows).toContainEqual({
      source: 'ecb',
      date: '2025-12-19',
      baseCurrency: 'EUR',
      quoteCurrency: 'NOK',
      rate: '11.8631',
    });
    expect(rows).toContainEqual({
      source: 'ecb',
      date: '2025-12-31',
      baseCurrency: 'EUR',
      quoteCurrency: 'IDR',
      rate: '19496.63',
    });
    expect(rows.every((row) => row.baseCurrency === 'EUR' && row.source === 'ecb')).toBe(true);
  });

  it('skips N/A values instead of reading them as zero', () => {
    const currencies = new Set(rows.map((row) => row.quoteCurrency));
    for (const gone of ['CYP', 'EEK', 'HRK', 'RUB', 'TRL']) expect(currencies.has(gone)).toBe(false);
    expect(rows.some((row) => row.rate === '0')).toBe(false);
  });

  it('keeps the published digits as a canonical decimal string', () => {
    const gbp = rows.find((row) => row.date === '2025-12-19' && row.quoteCurrency === 'GBP');
    expect(gbp?.rate).toBe('0.87848');
    const jpy = rows.find((row) => row.date === '2025-12-30' && row.quoteCurrency === 'JPY');
    expect(jpy?.rate).toBe('182.9'); // published as "182.90"
  });

  it('skips an empty cell and tolerates CRLF line ends and a byte order mark', () => {
    const text = '\ufeffDate,USD,JPY,NOK,\r\n2025-12-19,1.1756,,11.8631,\r\n  \r\n';
    expect(parseEcbCsv(text).map((row) => row.quoteCurrency)).toEqual(['USD', 'NOK']);
  });
});

describe('ECB eurofxref.csv (the daily file)', () => {
  it('reads the "21 November 2025" date and the spaced columns', () => {
    const rows = parseEcbCsv(fixture('eurofxref.csv'));
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((row) => row.date))).toEqual(new Set(['2025-11-21']));
    expect(rows).toContainEqual({
      source: 'ecb',
      date: '2025-11-21',
      baseCurrency: 'EUR',
      quoteCurrency: 'GBP',
      rate: '0.8803',
    });
    expect(rows).toContainEqual({
      source: 'ecb',
      date: '2025-11-21',
      baseCurrency: 'EUR',
      quoteCurrency: 'SEK',
      rate: '11.0075',
    });
  });

  it('reads a single-digit day', () => {
    expect(parseEcbCsv('Date, USD, \n3 June 2021, 1.2187, \n')[0]?.date).toBe('2021-06-03');
  });
});

describe('ECB files that are broken', () => {
  it('names the line of a value that is not a number', () => {
    const error = errorOf(() => parseEcbCsv('Date,USD,NOK,\n2025-12-19,1.1756,11.8631,\n2025-12-18,1.174,eleven,\n'));
    expect(error.line).toBe(3);
    expect(error.message).toBe('Line 3: The NOK rate "eleven" is not a positive number.');
  });

  it('refuses zero and negative rates', () => {
    expect(errorOf(() => parseEcbCsv('Date,USD,\n2025-12-19,0,\n')).message).toMatch(/Line 2: .*zero/);
    expect(errorOf(() => parseEcbCsv('Date,USD,\n2025-12-19,-1.1,\n')).message).toMatch(
      /Line 2: .*not a positive number/,
    );
  });

  it('names the line of a date it cannot read, including impossible days', () => {
    expect(errorOf(() => parseEcbCsv('Date,USD,\n2025-12-19,1.17,\n19.12.2025,1.17,\n')).line).toBe(3);
    expect(errorOf(() => parseEcbCsv('Date,USD,\n2025-02-30,1.17,\n')).message).toMatch(/"2025-02-30" is not a date/);
    expect(errorOf(() => parseEcbCsv('Date,USD,\n31 Foo 2025,1.17,\n')).line).toBe(2);
  });

  it('refuses a row with more values than currencies', () => {
    expect(errorOf(() => parseEcbCsv('Date,USD,\n2025-12-19,1.17,1.18,\n')).message).toMatch(/Line 2: .*more values/);
  });

  it('refuses a header that is not an ECB header', () => {
    expect(errorOf(() => parseEcbCsv('Day,USD,\n2025-12-19,1.17,\n')).line).toBe(1);
    expect(errorOf(() => parseEcbCsv('Date,US Dollar,\n')).message).toMatch(/"US Dollar" is not a currency code/);
    expect(errorOf(() => parseEcbCsv('')).message).toBe('The file is empty.');
  });

  it('reports broken CSV quoting with its line', () => {
    const error = errorOf(() => parseEcbCsv('Date,USD,\n2025-12-19,"1.17,\n'));
    expect(error.message).toMatch(/^Line \d+: The file is not valid CSV/);
  });
});
