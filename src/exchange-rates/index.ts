/**
 * Central bank exchange rates: parsers for the files the banks publish, and the lookup the
 * compliance checks convert prices with. Pure: no network, no database, no files of its own.
 */
export { parseEcbCsv } from './ecb.js';
export { detectFormat, parseRateFile, type RateFileFormat } from './formats.js';
export {
  createRateLookup,
  DERIVED_RATE_SIGNIFICANT_DIGITS,
  MAX_RATE_AGE_DAYS,
  type FoundRate,
  type RateLookup,
  type RateLookupRow,
} from './lookup.js';
export { RateFileError, type ExchangeRateRow, type RateSource } from './model.js';
export { parseNorgesBankCsv } from './norges-bank.js';
