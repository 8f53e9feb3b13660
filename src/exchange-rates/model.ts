/** Central banks whose published rate files we read. */
export type RateSource = 'ecb' | 'norges_bank';

/** The currency each bank quotes everything against; used to prefer "the invoice currency's own central bank". */
export const HOME_CURRENCY: Readonly<Record<string, string>> = {
  ecb: 'EUR',
  norges_bank: 'NOK',
  riksbank: 'SEK',
};

/** One published observation: 1 `baseCurrency` = `rate` `quoteCurrency` on `date`. */
export interface ExchangeRateRow {
  source: RateSource;
  /** YYYY-MM-DD, the day the bank set the rate for. */
  date: string;
  baseCurrency: string;
  quoteCurrency: string;
  /** Decimal string, per ONE unit of the base currency (unit multipliers already applied). */
  rate: string;
}

/** A file that cannot be read as the format it claims; `line` is 1-based, null when no line is to blame. */
export class RateFileError extends Error {
  override readonly name = 'RateFileError';

  constructor(
    readonly reason: string,
    readonly line: number | null,
  ) {
    super(line === null ? reason : `Line ${line}: ${reason}`);
  }
}
