import { headerCells, headerDelimiter } from './csv.js';
import { parseEcbCsv } from './ecb.js';
import { RateFileError, type ExchangeRateRow } from './model.js';
import { parseNorgesBankCsv } from './norges-bank.js';
import { CURRENCY_CODE } from './values.js';

export type RateFileFormat = 'ecb_eurofxref' | 'norges_bank_exr';

const PARSERS: Readonly<Record<RateFileFormat, (text: string) => ExchangeRateRow[]>> = {
  ecb_eurofxref: parseEcbCsv,
  norges_bank_exr: parseNorgesBankCsv,
};

/** Which rate file this is, from its header line alone; null when it is none we read. */
export function detectFormat(text: string): RateFileFormat | null {
  const commaCells = headerCells(text, ',');
  if (commaCells[0] === 'Date' && isCurrencyList(commaCells.slice(1))) return 'ecb_eurofxref';
  const sdmxCells = new Set(headerCells(text, headerDelimiter(text)));
  if (['BASE_CUR', 'QUOTE_CUR', 'TIME_PERIOD', 'OBS_VALUE'].every((name) => sdmxCells.has(name)))
    return 'norges_bank_exr';
  return null;
}

function isCurrencyList(cells: string[]): boolean {
  const named = cells.filter((cell) => cell !== '');
  return named.length > 0 && named.every((cell) => CURRENCY_CODE.test(cell));
}

/** Detects the format and parses; a file of no known format is a RateFileError. */
export function parseRateFile(text: string): { format: RateFileFormat; rows: ExchangeRateRow[] } {
  const format = detectFormat(text);
  if (format === null) {
    throw new RateFileError(
      text.trim() === ''
        ? 'The file is empty.'
        : 'The file is neither an ECB eurofxref CSV (header "Date,USD,JPY,...") nor a Norges Bank EXR CSV (columns BASE_CUR, QUOTE_CUR, TIME_PERIOD, OBS_VALUE).',
      null,
    );
  }
  return { format, rows: PARSERS[format](text) };
}
