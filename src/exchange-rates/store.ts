import { Prisma, type Db } from '../db/client.js';
import type { ExchangeRateRow } from './model.js';

const BATCH = 1000;

// Stores published rates; a rate published again for the same source, day and pair replaces the
// stored one (banks correct rates now and then), so loading the same file twice changes nothing.
export async function storeRates(db: Db, rows: ExchangeRateRow[]): Promise<number> {
  for (let start = 0; start < rows.length; start += BATCH) {
    const values = rows
      .slice(start, start + BATCH)
      .map(
        (row) =>
          Prisma.sql`(${row.source}, ${row.date}::date, ${row.baseCurrency}, ${row.quoteCurrency}, ${row.rate}::numeric)`,
      );
    await db.$executeRaw`
      INSERT INTO exchange_rates (source, date, base_currency, quote_currency, rate)
      VALUES ${Prisma.join(values)}
      ON CONFLICT (source, date, base_currency, quote_currency) DO UPDATE SET rate = EXCLUDED.rate`;
  }
  return rows.length;
}
