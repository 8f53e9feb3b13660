import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { retryInteractiveTransactions, TRANSACTION_OPTIONS } from './transactions.js';

export type Db = InstanceType<typeof PrismaClient>;
export { Prisma } from '../generated/prisma/client.js';

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
