import { createHash } from 'node:crypto';
import type { Db } from '../db/client.js';
import { Prisma } from '../db/client.js';
import { errors } from './errors.js';
import type { RouteResponse } from './route.js';

// Idempotency-Key (Stripe / IETF draft semantics), scoped to the organization:
// - the first successful response is stored and replayed for the same key and request;
// - the same key with another request is 409 idempotency_key_reused;
// - a request still in flight with the same key is 409 idempotency_request_in_progress;
// - a failed request leaves nothing behind, so the corrected request may reuse the key.
// Work-starting handlers also derive their workflow ids from the key (see runs/service.ts), so even
// a crash between starting the work and storing the response cannot start the work twice.

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
// An in-flight record older than this belongs to a process that died mid-request.
const STALE_IN_FLIGHT_MS = 60_000;

export function readIdempotencyKey(header: string): string | null {
  const key = header.trim();
  if (!key) return null;
  if (!KEY_PATTERN.test(key)) {
    throw errors.validation('Idempotency-Key must be 1 to 255 visible ASCII characters.', [
      { field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' },
    ]);
  }
  return key;
}

export function digestRequest(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${JSON.stringify(body ?? null)}`)
    .digest('hex');
}

interface Scope {
  organizationId: string;
  key: string;
  requestDigest: string;
  retentionHours: number;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

async function reserve(db: Db, scope: Scope): Promise<RouteResponse | null> {
  const where = { organizationId_key: { organizationId: scope.organizationId, key: scope.key } };
  try {
    await db.idempotencyRecord.create({
      data: {
        organizationId: scope.organizationId,
        key: scope.key,
        requestDigest: scope.requestDigest,
        state: 'in_flight',
      },
    });
    return null;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const existing = await db.idempotencyRecord.findUnique({ where });
  if (!existing) return reserve(db, scope);
  const age = Date.now() - existing.createdAt.getTime();
  const expired = age > scope.retentionHours * 3_600_000;
  const staleInFlight = existing.state === 'in_flight' && age > STALE_IN_FLIGHT_MS;
  if (expired || staleInFlight) {
    // Take the record over only if nobody else did in the meantime.
    const taken = await db.idempotencyRecord.updateMany({
      where: { organizationId: scope.organizationId, key: scope.key, createdAt: existing.createdAt },
      data: {
        requestDigest: scope.requestDigest,
        state: 'in_flight',
        createdAt: new Date(),
        responseBody: Prisma.DbNull,
        responseStatus: null,
      },
    });
    if (taken.count === 1) return null;
    return reserve(db, scope);
  }
  if (existing.requestDigest !== scope.requestDigest) {
    throw errors.conflict('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
  }
  if (existing.state === 'in_flight') {
    throw errors.conflict(
      'idempotency_request_in_progress',
      'A request with this Idempotency-Key is still being processed; retry shortly.',
    );
  }
  return {
    status: existing.responseStatus ?? 200,
    body: existing.responseBody ?? undefined,
    headers: { ...((existing.responseHeaders as Record<string, string> | null) ?? {}), 'Idempotent-Replayed': 'true' },
  };
}

export async function withIdempotency(
  db: Db,
  scope: Scope,
  handle: () => Promise<RouteResponse>,
): Promise<RouteResponse> {
  const replay = await reserve(db, scope);
  if (replay) return replay;
  const where = { organizationId_key: { organizationId: scope.organizationId, key: scope.key } };
  let response: RouteResponse;
  try {
    response = await handle();
  } catch (error) {
    await db.idempotencyRecord.delete({ where }).catch(() => undefined);
    throw error;
  }
  await db.idempotencyRecord.update({
    where,
    data: {
      state: 'completed',
      completedAt: new Date(),
      responseStatus: response.status ?? 200,
      responseBody: response.body ?? Prisma.DbNull,
      responseHeaders: response.headers ?? {},
    },
  });
  return response;
}

export async function purgeExpiredIdempotencyRecords(db: Db, retentionHours: number): Promise<number> {
  const { count } = await db.idempotencyRecord.deleteMany({
    where: { createdAt: { lt: new Date(Date.now() - retentionHours * 3_600_000) } },
  });
  return count;
}
