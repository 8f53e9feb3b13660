import { describe, expect, it } from 'vitest';
import {
  createRateLookup,
  parseEcbCsv,
  parseNorgesBankCsv,
  type ExchangeRateRow,
} from '../../../src/exchange-rates/index.js';
import { fixture } from './fixtures.js';

// ECB: TARGET days 2025-12-15 .. 2025-12-31 (no 25/26 December). Norges Bank: 19, 22, 23 December.
const ecb = parseEcbCsv(fixture('eurofxref-hist.csv'));
const norgesBank = parseNorgesBankCsv(fixture('norges-bank-exr-en.csv'));
const significantDigits = (rate: string) => rate.replace('.', '').replace(/^0+/, '').length;

describe('rate lookup: one source', () => {
  const lookup = createRateLookup(ecb);

  it('gives 1 for the same currency, on any day', () => {
    expect(lookup('NOK', 'NOK', '2030-01-01')).toEqual({ rate: '1', date: '2030-01-01', source: 'identity' });
  });

  it('gives the published rate of the day as published', () => {
    expect(lookup('EUR', 'NOK', '2025-12-19')).toEqual({ rate: '11.8631', date: '2025-12-19', source: 'ecb' });
    expect(lookup('eur', 'usd', '2025-12-19')).toEqual({ rate: '1.1756', date: '2025-12-19', source: 'ecb' });
  });

  it('inverts a published rate, keeping 10 significant digits', () => {
    expect(lookup('NOK', 'EUR', '2025-12-19')).toEqual({ rate: '0.08429499878', date: '2025-12-19', source: 'ecb' });
    const idr = lookup('IDR', 'EUR', '2025-12-19');
    expect(idr?.rate).toBe('0.00005107580978'); // never exponent notation
    expect(significantDigits(idr!.rate)).toBe(10);
  });

  it('crosses through the common base, saying which', () => {
    expect(lookup('NOK', 'SEK', '2025-12-19')).toEqual({
      rate: '0.9220861326',
      date: '2025-12-19',
      source: 'ecb',
      via: 'EUR',
    });
    expect(lookup('GBP', 'JPY', '2025-12-19')).toEqual({
      rate: '208.0639286',
      date: '2025-12-19',
      source: 'ecb',
      via: 'EUR',
    });
  });

  it('falls back over a weekend to the Friday rate', () => {
    expect(lookup('EUR', 'NOK', '2025-12-20')).toEqual({ rate: '11.8631', date: '2025-12-19', source: 'ecb' });
    expect(lookup('NOK', 'SEK', '2025-12-21')).toMatchObject({ date: '2025-12-19', via: 'EUR' });
  });

  it('falls back over the Christmas holidays to 24 December', () => {
    expect(lookup('EUR', 'USD', '2025-12-28')).toEqual({ rate: '1.1732', date: '2025-12-24', source: 'ecb' });
  });

  it('takes a rate up to 7 days old and none older', () => {
    // The last rate is of 2025-12-31.
    expect(lookup('EUR', 'USD', '2026-01-07')).toMatchObject({ date: '2025-12-31' });
    expect(lookup('EUR', 'USD', '2026-01-08')).toBeNull();
    expect(lookup('NOK', 'SEK', '2026-01-08')).toBeNull();
    expect(lookup('USD', 'EUR', '2026-01-08')).toBeNull();
  });

  it('never takes a later rate for an earlier day', () => {
    expect(lookup('EUR', 'USD', '2025-12-14')).toBeNull();
  });

  it('gives null for a currency it has no rate for', () => {
    expect(lookup('EUR', 'XYZ', '2025-12-19')).toBeNull();
    expect(lookup('XYZ', 'NOK', '2025-12-19')).toBeNull();
    expect(lookup('EUR', 'HRK', '2025-12-19')).toBeNull(); // N/A in the file: no row, not zero
  });

  it('refuses a date that is not YYYY-MM-DD', () => {
    expect(() => lookup('EUR', 'NOK', '19.12.2025')).toThrow(TypeError);
    expect(() => lookup('EUR', 'NOK', '2025-02-30')).toThrow(TypeError);
  });
});

describe('rate lookup: Norges Bank rows', () => {
  const lookup = createRateLookup(norgesBank);

  it('reads per-100 currencies per unit, and crosses through NOK', () => {
    expect(lookup('SEK', 'NOK', '2025-12-19')).toEqual({ rate: '1.0845', date: '2025-12-19', source: 'norges_bank' });
    expect(lookup('SEK', 'USD', '2025-12-19')).toEqual({
      rate: '0.1074709397',
      date: '2025-12-19',
      source: 'norges_bank',
      via: 'NOK',
    });
  });

  it('gives null when a leg is older than 7 days', () => {
    expect(lookup('SEK', 'USD', '2025-12-30')).toMatchObject({ date: '2025-12-23' });
    expect(lookup('SEK', 'USD', '2025-12-31')).toBeNull();
  });
});

describe('rate lookup: several sources', () => {
  const lookup = createRateLookup([...ecb, ...norgesBank]);

  it('prefers the central bank of the target currency, then of the source currency', () => {
    expect(lookup('EUR', 'NOK', '2025-12-19')).toMatchObject({ source: 'norges_bank', rate: '11.8631' });
    expect(lookup('USD', 'NOK', '2025-12-19')).toMatchObject({ source: 'norges_bank', rate: '10.0911' });
    expect(lookup('NOK', 'EUR', '2025-12-19')).toMatchObject({ source: 'ecb', rate: '0.08429499878' });
    // Neither bank is Sweden's: Norges Bank is the central bank of NOK, and publishes SEK/NOK itself.
    expect(lookup('NOK', 'SEK', '2025-12-19')).toEqual({
      rate: '0.9220839096',
      date: '2025-12-19',
      source: 'norges_bank',
    });
  });

  it('moves on to the next source when the preferred one has no rate within 7 days', () => {
    // Norges Bank's last rate in the fixture is of 23 December; the ECB's of 31 December.
    expect(lookup('EUR', 'NOK', '2025-12-31')).toEqual({ rate: '11.8133', date: '2025-12-31', source: 'ecb' });
  });

  it('prefers both legs of a cross rate from one source', () => {
    const riksbank = {
      source: 'riksbank',
      date: '2025-12-19',
      baseCurrency: 'EUR',
      quoteCurrency: 'SEK',
      rate: '10.95',
    };
    const withSek = createRateLookup([...ecb, riksbank]);
    // The Riksbank ranks first for SEK, but has no THB: both legs come from the ECB, not one from each.
    expect(withSek('SEK', 'THB', '2025-12-19')).toMatchObject({ source: 'ecb', via: 'EUR' });
  });

  it('crosses legs of two sources only when no source has both, dated by the older leg', () => {
    const withoutEcbNok = ecb.filter((row) => row.quoteCurrency !== 'NOK');
    const mixed = createRateLookup([...withoutEcbNok, ...norgesBank]);
    expect(mixed('NOK', 'THB', '2025-12-24')).toEqual({
      rate: '3.120220613',
      date: '2025-12-23',
      source: 'norges_bank+ecb',
      via: 'EUR',
    });
  });
});

describe('rate lookup: the rows it is given', () => {
  it('accepts the same observation twice (the ECB history and daily files overlap)', () => {
    const row: ExchangeRateRow = {
      source: 'ecb',
      date: '2025-12-19',
      baseCurrency: 'EUR',
      quoteCurrency: 'NOK',
      rate: '11.8631',
    };
    expect(createRateLookup([row, { ...row, rate: '11.86310' }])('EUR', 'NOK', '2025-12-19')?.rate).toBe('11.8631');
  });

  it('refuses two different rates for one day of one series', () => {
    const row: ExchangeRateRow = {
      source: 'ecb',
      date: '2025-12-19',
      baseCurrency: 'EUR',
      quoteCurrency: 'NOK',
      rate: '11.8631',
    };
    expect(() => createRateLookup([row, { ...row, rate: '11.9' }])).toThrow(
      /Two different ecb rates for EUR\/NOK on 2025-12-19/,
    );
  });

  it('gives null for everything but the same currency when it has no rows', () => {
    const lookup = createRateLookup([]);
    expect(lookup('EUR', 'NOK', '2025-12-19')).toBeNull();
    expect(lookup('EUR', 'EUR', '2025-12-19')).toMatchObject({ rate: '1' });
  });
});
