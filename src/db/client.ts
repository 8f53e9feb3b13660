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

// PostgreSQL's statement_timeout for every connection of a pool: a statement running (or waiting
// for a lock) longer is cancelled by the server (SQLSTATE 57014), so one runaway query cannot hold
// a connection and its locks without end. The API and the worker set theirs from config
// (DATABASE_STATEMENT_TIMEOUT_SECONDS, WORKER_DATABASE_STATEMENT_TIMEOUT_SECONDS); 0 or unset: none
// (command-line tools, and migrations, which run on a pool of their own: scripts/migrate.mjs).
export interface PoolLimits {
  statementTimeoutSeconds?: number;
}

function poolConfig(databaseUrl: string, poolSize: number, limits: PoolLimits): pg.PoolConfig {
  const seconds = limits.statementTimeoutSeconds ?? 0;
  return {
    connectionString: databaseUrl,
    max: poolSize,
    ...(seconds > 0 ? { statement_timeout: Math.round(seconds * 1000) } : {}),
  };
}

// Prisma 7 with the pg driver adapter: no native query engine is needed.
export function createDb(databaseUrl: string, poolSize = 10, limits: PoolLimits = {}): Db {
  return clientOn(new PrismaPg(poolConfig(databaseUrl, poolSize, limits)));
}

// The same, on a pg pool the caller also uses for plain SQL (the shared rate-limit store); the
// caller ends the pool after disconnecting Prisma.
export function createDbWithPool(
  databaseUrl: string,
  poolSize = 10,
  onPoolError: (error: Error) => void = () => undefined,
  limits: PoolLimits = {},
): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool(poolConfig(databaseUrl, poolSize, limits));
  // An idle connection that the server drops must not crash the process: the next query fails
  // (and is answered 503) instead.
  pool.on('error', onPoolError);
  return { db: clientOn(new PrismaPg(pool)), pool };
}

// Reads straight on the pg pool under Prisma, with Prisma's tagged-template interface, so the same
// statement runs through either. For the list pages (one statement each, src/<domain>/list.ts)
// and the views' extras: there Prisma's query costs as much client CPU per statement
// as the statement takes in PostgreSQL (docs/benchmarks.md, sessions 7 and 8). Outside any
// transaction only.
export type RawReader = {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T>;
};

const DATE_OID = 1082;
const NUMERIC_OID = 1700;
const INT8_OID = 20;
// Column values as Prisma reads them: a date as midnight UTC (pg's own parser gives local
// midnight), a numeric as Prisma's Decimal, a bigint as a BigInt.
const READER_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === DATE_OID) return (value: string) => new Date(`${value}T00:00:00Z`);
    if (oid === NUMERIC_OID) return (value: string) => new Prisma.Decimal(value);
    if (oid === INT8_OID) return (value: string) => BigInt(value);
    return pg.types.getTypeParser(oid, format) as (value: string) => unknown;
  }) as typeof pg.types.getTypeParser,
};

const fieldNames = new Map<string, string>();
const fieldNameOf = (column: string): string => {
  let name = fieldNames.get(column);
  if (name === undefined) {
    name = column.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
    fieldNames.set(column, name);
  }
  return name;
};

// A row of a raw read (`SELECT i.*, <extra columns> ...`) as Prisma's model and the statement's
// extra columns apart: snake_case columns become the model's camelCase fields (every model maps
// its columns so). A list column that is NULL stays null here, where Prisma reads it as an empty
// list: the caller knows its model's lists.
export function modelAndExtras<T, E>(row: Record<string, unknown>, extraColumns: ReadonlySet<string>): [T, E] {
  const model: Record<string, unknown> = {};
  const extras: Record<string, unknown> = {};
  for (const column in row) {
    if (extraColumns.has(column)) extras[column] = row[column];
    else model[fieldNameOf(column)] = row[column];
  }
  return [model as T, extras as E];
}

const NO_COLUMNS: ReadonlySet<string> = new Set();
export function asModel<T>(row: Record<string, unknown>): T {
  return modelAndExtras<T, never>(row, NO_COLUMNS)[0];
}

// A json column of a raw read: parsed by the pg pool, text from Prisma's raw query.
export const jsonColumn = <T>(value: unknown): T | null =>
  (typeof value === 'string' ? JSON.parse(value) : value) as T | null;

export function poolReader(pool: pg.Pool): RawReader {
  return {
    async $queryRaw<T>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T> {
      const statement = query instanceof Prisma.Sql ? query : Prisma.sql(query, ...values);
      return (await pool.query({ text: statement.text, values: statement.values, types: READER_TYPES })).rows as T;
    },
  };
}
