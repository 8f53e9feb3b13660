import type { AppDeps } from '../deps.js';
import type { Prisma } from '../generated/prisma/client.js';
import { errors } from '../http/errors.js';
import { CLAIM_INCLUDE, type ClaimRecord } from './serialize.js';

// Reading and locking claim rows, for the claim's life (service.ts) and its alerts (claim-alerts.ts).

type Deps = Pick<AppDeps, 'db'>;
type Tx = Prisma.TransactionClient;

export async function findClaim(deps: Deps, organizationId: string, id: string): Promise<ClaimRecord> {
  const claim = await deps.db.claim.findFirst({ where: { id, organizationId }, include: CLAIM_INCLUDE });
  if (!claim) throw errors.notFound('claim');
  return claim;
}

export async function touchClaims(tx: Tx, claimIds: string[]): Promise<void> {
  await tx.claim.updateMany({ where: { id: { in: claimIds } }, data: { updatedAt: new Date() } });
}

export async function lockClaimRows(tx: Tx, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)].sort();
  await tx.$queryRaw`SELECT id FROM claims WHERE id = ANY(${unique}::uuid[]) ORDER BY id FOR UPDATE`;
}

export async function lockClaim(tx: Tx, organizationId: string, id: string): Promise<ClaimRecord> {
  const locked = await tx.$queryRaw<
    { id: string }[]
  >`SELECT id FROM claims WHERE id = ${id}::uuid AND organization_id = ${organizationId}::uuid FOR UPDATE`;
  if (locked.length === 0) throw errors.notFound('claim');
  return tx.claim.findUniqueOrThrow({ where: { id }, include: CLAIM_INCLUDE });
}
