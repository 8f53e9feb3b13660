// PostgreSQL takes at most 65,535 bind parameters per statement, and Prisma turns every value of
// an `in: [...]` list or a createMany row into parameters of its own. Lists whose length follows
// the data (an invoice's lines, a run's invoices) are either passed as one array parameter in raw
// SQL (`= ANY($1::uuid[])`, `unnest`) or, where a Prisma query stays clearer, split with these.

// Well under the limit, and small enough that one statement's plan and result stay cheap.
export const ID_BATCH = 10_000;

export function batchesOf<T>(items: readonly T[], size = ID_BATCH): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}

// `query` once per batch of `items`, one after another (a transaction client runs one statement
// at a time anyway), the results concatenated in batch order.
export async function inBatches<T, R>(
  items: readonly T[],
  query: (batch: T[]) => Promise<R[]>,
  size = ID_BATCH,
): Promise<R[]> {
  const results: R[] = [];
  for (const batch of batchesOf(items, size)) results.push(...(await query(batch)));
  return results;
}

// For writes that answer a count (updateMany, deleteMany).
export async function countInBatches<T>(
  items: readonly T[],
  write: (batch: T[]) => Promise<{ count: number }>,
  size = ID_BATCH,
): Promise<number> {
  let count = 0;
  for (const batch of batchesOf(items, size)) count += (await write(batch)).count;
  return count;
}
