import type { Prisma } from '../generated/prisma/client.js';
import { ApiError } from '../http/errors.js';

// Per-organization processing capacity: at most `invoiceProcessingCapacity` imports in any
// 24 hours (null: unlimited). Checked inside the transaction that records the import, under a
// per-organization lock, so concurrent requests cannot overshoot it.
const WINDOW_MS = 24 * 3_600_000;

export async function reserveProcessingCapacity(tx: Prisma.TransactionClient, organizationId: string): Promise<void> {
  const organization = await tx.organization.findUniqueOrThrow({
    where: { id: organizationId },
    select: { invoiceProcessingCapacity: true },
  });
  const capacity = organization.invoiceProcessingCapacity;
  // Unlimited organizations take no lock, so their imports never wait on each other here.
  if (capacity === null) return;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`capacity:${organizationId}`}))`;
  const since = new Date(Date.now() - WINDOW_MS);
  const recent = await tx.invoiceImport.findMany({
    where: { organizationId, createdAt: { gt: since } },
    orderBy: { createdAt: 'asc' },
    select: { createdAt: true },
    take: capacity,
  });
  if (recent.length < capacity) return;
  const retryAfter = Math.max(1, Math.ceil((recent[0]!.createdAt.getTime() + WINDOW_MS - Date.now()) / 1000));
  throw new ApiError(
    429,
    'invoice_processing_capacity_exhausted',
    `The organization's processing capacity of ${capacity} invoices per 24 hours is used up.`,
    {
      headers: { 'Retry-After': String(retryAfter) },
    },
  );
}
