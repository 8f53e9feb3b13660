import { describe, expect, it } from 'vitest';
import { parseNorgesBankCsv } from '../../../src/exchange-rates/index.js';
import { errorOf, fixture } from './fixtures.js';

const HEADER =
  'FREQ;Frequency;BASE_CUR;Base Currency;QUOTE_CUR;Quote Currency;TENOR;Tenor;DECIMALS;CALCULATED;UNIT_MULT;Unit Multiplier;COLLECTION;Collection Indicator;TIME_PERIOD;OBS_VALUE';
const row = (base: string, unitMult: string, period: string, value: string, frequency = 'B') =>
  `${frequency};Business;${base};${base} name;NOK;Norwegian krone;SP;Spot;4;false;${unitMult};Units;C;ECB concertation time 14:15 CET;${period};${value}`;

describe('Norges Bank EXR CSV (locale=en, semicolons)', () => {
  const rows = parseNorgesBankCsv(fixture('norges-bank-exr-en.csv'));

  it('reads one row per currency and business day, quoted against NOK', () => {
    expect(rows).toHaveLength(12);
    expect(rows).toContainEqual({
      source: 'norges_bank',
      date: '2025-12-19',
      baseCurrency: 'EUR',
      quoteCurrency: 'NOK',
      rate: '11.8631',
    });
    expect(rows).toContainEqual({
      source: 'norges_bank',
      date: '2025-12-23',
      baseCurrency: 'USD',
      quoteCurrency: 'NOK',
      rate: '10.091',
    });
  });

  it('applies UNIT_MULT: JPY and SEK are quoted per 100 units', () => {
    expect(rows).toContainEqual({
      source: 'norges_bank',
      date: '2025-12-19',
      baseCurrency: 'SEK',
      quoteCurrency: 'NOK',
      rate: '1.0845',
    });
    expect(rows).toContainEqual({
      source: 'norges_bank',
      date: '2025-12-22',
      baseCurrency: 'JPY',
      quoteCurrency: 'NOK',
      rate: '0.064905',
    });
  });
});

describe('Norges Bank EXR CSV (locale=no, decimal comma)', () => {
  it('reads the decimal comma and the Norwegian labels', () => {
    const rows = parseNorgesBankCsv(fixture('norges-bank-exr-no.csv'));
    expect(rows).toHaveLength(6);
    expect(rows).toContainEqual({
      source: 'norges_bank',
      date: '2025-12-19',
      baseCurrency: 'DKK',
      quoteCurrency: 'NOK',
      rate: '1.586',
    });
    expect(rows).toContainEqual({
      source: 'norges_bank',
      date: '2025-12-22',
      baseCurrency: 'GBP',
      quoteCurrency: 'NOK',
      rate: '13.504',
    });
  });

  it('reads thousands grouping in either locale', () => {
    const text = [HEADER, row('ISK', '2', '2025-12-19', '1 145,56'), row('HUF', '2', '2025-12-19', '1,145.56')].join(
      '\n',
    );
    expect(parseNorgesBankCsv(text).map((r) => r.rate)).toEqual(['11.4556', '11.4556']);
  });
});

describe('Norges Bank EXR CSV, other shapes', () => {
  it('reads a comma separated export, with a quoted decimal comma', () => {
    const text = [
      'BASE_CUR,QUOTE_CUR,UNIT_MULT,TIME_PERIOD,OBS_VALUE',
      'EUR,NOK,0,2025-12-19,11.8631',
      'SEK,NOK,2,2025-12-19,"108,45"',
    ].join('\r\n');
    expect(parseNorgesBankCsv(text)).toEqual([
      { source: 'norges_bank', date: '2025-12-19', baseCurrency: 'EUR', quoteCurrency: 'NOK', rate: '11.8631' },
      { source: 'norges_bank', date: '2025-12-19', baseCurrency: 'SEK', quoteCurrency: 'NOK', rate: '1.0845' },
    ]);
  });

  it('skips rows without a value, and the I44 and TWI indices', () => {
    const text = [
      HEADER,
      row('EUR', '0', '2025-12-19', ''),
      row('USD', '0', '2025-12-19', 'NaN'),
      row('I44', '0', '2025-12-19', '118.2'),
      row('TWI', '0', '2025-12-19', '117.9'),
      row('XDR', '0', '2025-12-19', '13.7'),
    ].join('\n');
    expect(parseNorgesBankCsv(text).map((r) => r.baseCurrency)).toEqual(['XDR']);
  });

  it('returns no rows for a header with no observations', () => {
    expect(parseNorgesBankCsv(`${HEADER}\n`)).toEqual([]);
  });
});

describe('Norges Bank files that are broken', () => {
  it('names the line of a value that is not a number', () => {
    const error = errorOf(() =>
      parseNorgesBankCsv(
        [HEADER, row('EUR', '0', '2025-12-19', '11.86'), row('EUR', '0', '2025-12-22', '11.8x')].join('\n'),
      ),
    );
    expect(error.line).toBe(3);
    expect(error.message).toBe('Line 3: OBS_VALUE "11.8x" is not a positive number.');
  });

  it('refuses monthly and annual averages rather than taking them for a day', () => {
    const error = errorOf(() => parseNorgesBankCsv([HEADER, row('EUR', '0', '2025-11', '11.7', 'M')].join('\n')));
    expect(error.line).toBe(2);
    expect(error.message).toMatch(/"2025-11" \(FREQ M\) is not a business day/);
  });

  it('refuses an unreadable UNIT_MULT and currency code', () => {
    expect(
      errorOf(() => parseNorgesBankCsv([HEADER, row('SEK', 'two', '2025-12-19', '108.45')].join('\n'))).message,
    ).toMatch(/Line 2: UNIT_MULT "two"/);
    expect(
      errorOf(() => parseNorgesBankCsv([HEADER, row('Euro', '0', '2025-12-19', '11.86')].join('\n'))).message,
    ).toMatch(/Line 2: BASE_CUR "Euro"/);
  });

  it('refuses a row split by an unquoted decimal comma instead of reading half the value', () => {
    const text = ['BASE_CUR,QUOTE_CUR,UNIT_MULT,TIME_PERIOD,OBS_VALUE', 'EUR,NOK,0,2025-12-19,11,8631'].join('\n');
    expect(errorOf(() => parseNorgesBankCsv(text)).message).toBe(
      'Line 2: The row has 6 values for 5 columns (an unquoted decimal comma?).',
    );
  });

  it('names the missing columns', () => {
    const error = errorOf(() => parseNorgesBankCsv('FREQ;BASE_CUR;QUOTE_CUR;TIME_PERIOD\nB;EUR;NOK;2025-12-19\n'));
    expect(error.line).toBe(1);
    expect(error.message).toMatch(/lacks the column\(s\) OBS_VALUE/);
  });

  it('reports an empty file', () => {
    expect(errorOf(() => parseNorgesBankCsv('\n\n')).message).toBe('The file is empty.');
  });
});
