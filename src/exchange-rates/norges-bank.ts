import { Decimal } from 'decimal.js';
import { headerDelimiter, readRecords, type CsvRecord } from './csv.js';
import { RateFileError, type ExchangeRateRow } from './model.js';
import { CURRENCY_CODE, isMissingValue, isoDay, rateValue } from './values.js';

const REQUIRED_COLUMNS = ['BASE_CUR', 'QUOTE_CUR', 'TIME_PERIOD', 'OBS_VALUE'] as const;

/** Synthetic series in the EXR flow that are indices, not currencies (XDR is a real ISO code and stays). */
const INDEX_SERIES = new Set(['I44', 'TWI']);

/** Largest UNIT_MULT accepted; Norges Bank uses 0 (per unit) and 2 (per 100: JPY, SEK, DKK, ...). */
const MAX_UNIT_MULT = 6;

type Columns = Record<(typeof REQUIRED_COLUMNS)[number], number> & {
  UNIT_MULT: number | null;
  FREQ: number | null;
  width: number;
};

/**
 * Norges Bank's exchange rates from data.norges-bank.no, the CSV export of the SDMX API
 * (`/api/data/EXR/B..NOK.SP?format=csv&locale=en|no`): one row per currency and business day,
 * each code column followed by its label column (FREQ;Frequency;BASE_CUR;Base Currency;...;
 * UNIT_MULT;Unit Multiplier;...;TIME_PERIOD;OBS_VALUE), semicolon separated by default, with a
 * decimal comma under locale=no. OBS_VALUE is QUOTE_CUR per 10^UNIT_MULT BASE_CUR; rows here are
 * per ONE unit.
 */
export function parseNorgesBankCsv(text: string): ExchangeRateRow[] {
  const [header, ...records] = readRecords(text, headerDelimiter(text));
  if (!header) throw new RateFileError('The file is empty.', null);
  const columns = norgesBankColumns(header);
  return records.flatMap((record) => norgesBankRow(record, columns) ?? []);
}

function norgesBankColumns({ line, cells }: CsvRecord): Columns {
  const at = (name: string): number | null => {
    const index = cells.indexOf(name);
    return index === -1 ? null : index;
  };
  const missing = REQUIRED_COLUMNS.filter((name) => at(name) === null);
  if (missing.length > 0)
    throw new RateFileError(`The header lacks the column(s) ${missing.join(', ')} (a Norges Bank EXR CSV).`, line);
  const columns = Object.fromEntries(REQUIRED_COLUMNS.map((name) => [name, at(name)])) as Columns;
  return { ...columns, UNIT_MULT: at('UNIT_MULT'), FREQ: at('FREQ'), width: cells.length };
}

function norgesBankRow({ line, cells }: CsvRecord, columns: Columns): ExchangeRateRow | null {
  // An unquoted decimal comma in a comma separated file splits the value and shifts the columns.
  if (cells.length > columns.width) {
    throw new RateFileError(
      `The row has ${cells.length} values for ${columns.width} columns (an unquoted decimal comma?).`,
      line,
    );
  }
  const cell = (index: number | null): string => (index === null ? '' : (cells[index] ?? ''));
  const base = cell(columns.BASE_CUR);
  const quote = cell(columns.QUOTE_CUR);
  if (INDEX_SERIES.has(base)) return null;
  if (!CURRENCY_CODE.test(base)) throw new RateFileError(`BASE_CUR "${base}" is not a currency code.`, line);
  if (!CURRENCY_CODE.test(quote)) throw new RateFileError(`QUOTE_CUR "${quote}" is not a currency code.`, line);
  const date = observationDay(cell(columns.TIME_PERIOD), cell(columns.FREQ), line);
  const value = cell(columns.OBS_VALUE);
  if (isMissingValue(value)) return null;
  const perUnits = rateValue(value, line, 'OBS_VALUE');
  // Dividing by a power of ten only moves the decimal point, so the rate stays exact.
  const rate = perUnits.div(new Decimal(10).pow(unitMultiplier(cell(columns.UNIT_MULT), line))).toFixed();
  return { source: 'norges_bank', date, baseCurrency: base, quoteCurrency: quote, rate };
}

// Monthly and annual series are averages, not the rate of a day: loading them as daily rates
// would be wrong, so they are refused rather than skipped.
function observationDay(period: string, frequency: string, line: number): string {
  const date = isoDay(period);
  if (date !== null && (frequency === '' || frequency === 'B' || frequency === 'D')) return date;
  throw new RateFileError(
    `TIME_PERIOD "${period}"${frequency ? ` (FREQ ${frequency})` : ''} is not a business day; load the daily series (EXR/B..NOK.SP).`,
    line,
  );
}

function unitMultiplier(text: string, line: number): number {
  if (text === '') return 0;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > MAX_UNIT_MULT || !/^\d+$/.test(text)) {
    throw new RateFileError(`UNIT_MULT "${text}" is not a whole number from 0 to ${MAX_UNIT_MULT}.`, line);
  }
  return value;
}
