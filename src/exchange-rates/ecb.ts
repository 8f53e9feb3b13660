import { readRecords, type CsvRecord } from './csv.js';
import { RateFileError, type ExchangeRateRow } from './model.js';
import { CURRENCY_CODE, ecbDay, isMissingValue, rateValue } from './values.js';

/**
 * The ECB's euro foreign exchange reference rates, as published in
 * https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip (eurofxref-hist.csv: "Date,USD,JPY,...,"
 * one ISO-dated row per TARGET day, N/A for currencies not quoted then) and eurofxref.zip
 * (eurofxref.csv: "Date, USD, ...," with one row dated "21 November 2025"). Both end every line
 * with a comma, so the last column is empty. Every rate is 1 EUR = rate <currency>.
 */
export function parseEcbCsv(text: string): ExchangeRateRow[] {
  const [header, ...records] = readRecords(text, ',');
  if (!header) throw new RateFileError('The file is empty.', null);
  const currencies = ecbColumns(header);
  return records.flatMap((record) => ecbRows(record, currencies));
}

/** The currency of each column after Date; null for the empty column the trailing comma makes. */
function ecbColumns(header: CsvRecord): (string | null)[] {
  const [first, ...rest] = header.cells;
  if (first !== 'Date')
    throw new RateFileError('The header must start with "Date" (an ECB eurofxref file).', header.line);
  const columns = rest.map((cell) => (cell === '' ? null : cell));
  const bad = columns.find((cell) => cell !== null && !CURRENCY_CODE.test(cell));
  if (bad !== undefined) throw new RateFileError(`Column "${bad}" is not a currency code.`, header.line);
  if (!columns.some((cell) => cell !== null)) throw new RateFileError('The header names no currency.', header.line);
  return columns;
}

function ecbRows({ line, cells }: CsvRecord, currencies: (string | null)[]): ExchangeRateRow[] {
  const [dateText = '', ...values] = cells;
  const date = ecbDay(dateText);
  if (date === null) throw new RateFileError(`"${dateText}" is not a date (YYYY-MM-DD or "21 November 2025").`, line);
  const unnamed = values.find((value, index) => value !== '' && (currencies[index] ?? null) === null);
  if (unnamed !== undefined)
    throw new RateFileError(`Value "${unnamed}" has no currency: the row has more values than the header names.`, line);
  const rows: ExchangeRateRow[] = [];
  currencies.forEach((currency, index) => {
    const value = values[index] ?? '';
    if (currency === null || isMissingValue(value)) return;
    const rate = rateValue(value, line, `The ${currency} rate`).toFixed();
    rows.push({ source: 'ecb', date, baseCurrency: 'EUR', quoteCurrency: currency, rate });
  });
  return rows;
}
