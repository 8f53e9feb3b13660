import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { retryInteractiveTransactions, TRANSACTION_OPTIONS } from './transactions.js';

export type Db = InstanceType<typeof PrismaClient>;
export { Prisma };

// Every client of the service is made here, so every interactive transaction has the same time
// limits and retries a lost deadlock or serialization conflict (src/db/transactions.ts).
function clientOn(adapter: PrismaPg): Db {
  return retryInteractiveTransactions(new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS }));
}

// Prisma 7 with the pg driver adapter: no native query engine is needed.
export function createDb(databaseUrl: string, poolSize = 10): Db {
  return clientOn(new PrismaPg({ connectionString: databaseUrl, max: poolSize }));
}

// The same, on a pg pool the caller also uses for plain SQL (the shared rate-limit store); the
// caller ends the pool after disconnecting Prisma.
export function createDbWithPool(databaseUrl: string, poolSize = 10, onPoolError: (error: Error) => void = () => undefined): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  // An idle connection that the server drops must not crash the process: the next query fails
  // (and is answered 503) instead.
  pool.on('error', onPoolError);
  return { db: clientOn(new PrismaPg(pool)), pool };
}

// Reads straight on the pg pool under Prisma, with Prisma's tagged-template interface, so the same
// statement runs through either. For the raw statements a list page runs beside its Prisma query
// (an invoice page's lines and extras, an alert page's matches, an agreement page's links): there
// Prisma's raw query costs 0.3-0.6 ms of client CPU per statement, as much as the statement takes
// in PostgreSQL (docs/benchmarks.md, session 7). Outside any transaction only.
export type RawReader = { $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T> };

const DATE_OID = 1082;
// A date column reads as midnight UTC, as Prisma reads it (pg's own parser gives local midnight).
const READER_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === DATE_OID ? (value: string) => new Date(`${value}T00:00:00Z`) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

// A json column of a raw read: parsed by the pg pool, text from Prisma's raw query.
export const jsonColumn = <T>(value: unknown): T | null => (typeof value === 'string' ? JSON.parse(value) : value) as T | null;

export function poolReader(pool: pg.Pool): RawReader {
  return {
    async $queryRaw<T>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T> {
      const statement = query instanceof Prisma.Sql ? query : Prisma.sql(query, ...values);
      return (await pool.query({ text: statement.text, values: statement.values, types: READER_TYPES })).rows as T;
    },
  };
}
