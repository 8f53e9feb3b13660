import type { PrismaClient } from '../generated/prisma/client.js';

// Interactive transactions (`db.$transaction(async (tx) => ...)`) everywhere in the service, API
// and worker alike, go through the two rules below, set once on the client (src/db/client.ts).
//
// 1. Time: how long a transaction may wait for a pooled connection and how long it may run.
//    Prisma's defaults (2 s and 5 s) are shorter than a lock wait behind a running check or price
//    import on a loaded machine; past them the request failed with a 500. A transaction that still
//    runs out of time is answered 503 (src/http/outages.ts), never 500.
// 2. Conflicts: PostgreSQL ends one side of a deadlock (40P01) or a serialization failure (40001)
//    and says "retry"; Prisma reports both as P2034. The whole transaction rolled back, so running
//    its callback again is safe as long as the callback does nothing outside the database that a
//    second run would repeat: callbacks keep their results in their own variables, and the only
//    outside calls they make (Temporal Schedule upserts) are idempotent.

export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;

// Attempts in all for a transaction that lost a deadlock or a serialization conflict.
const CONFLICT_ATTEMPTS = 4;

// P2034: "Transaction failed due to a write conflict or a deadlock"; the SQLSTATEs when the error
// arrives as the driver's own (a raw statement) or as the adapter's classification.
const CONFLICT_SQLSTATES = new Set(['40001', '40P01']);

export function isTransactionConflict(error: unknown): boolean {
  const candidate = error as {
    code?: unknown;
    meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } };
    cause?: unknown;
  } | null;
  if (!candidate || typeof candidate !== 'object') return false;
  if (candidate.code === 'P2034') return true;
  if (typeof candidate.code === 'string' && CONFLICT_SQLSTATES.has(candidate.code)) return true;
  const adapter = candidate.meta?.driverAdapterError?.cause;
  if (adapter?.kind === 'TransactionWriteConflict') return true;
  if (typeof adapter?.originalCode === 'string' && CONFLICT_SQLSTATES.has(adapter.originalCode)) return true;
  return false;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Runs `attempt` again after a conflict, with a short random pause so the two sides of a deadlock
// do not meet again in step.
export async function retryOnConflict<T>(attempt: () => Promise<T>, attempts = CONFLICT_ATTEMPTS): Promise<T> {
  for (let tried = 1; ; tried++) {
    try {
      return await attempt();
    } catch (error) {
      if (tried >= attempts || !isTransactionConflict(error)) throw error;
      await pause(20 * tried + Math.random() * 50 * tried);
    }
  }
}

// Makes the client's interactive transactions retry on conflicts. The array form
// (`$transaction([a, b])`) is left alone: its queries are built once and cannot run again.
export function retryInteractiveTransactions<C extends PrismaClient>(client: C): C {
  const transaction = client.$transaction.bind(client) as (input: unknown, options?: unknown) => Promise<unknown>;
  const retrying = (input: unknown, options?: unknown) =>
    typeof input === 'function' ? retryOnConflict(() => transaction(input, options)) : transaction(input, options);
  Object.defineProperty(client, '$transaction', { value: retrying, configurable: true, writable: true });
  return client;
}
