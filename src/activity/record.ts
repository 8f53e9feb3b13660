import type { RequestActor } from '../auth/actor.js';
import { Prisma } from '../db/client.js';
import { canonicalJson } from '../shared/canonical-json.js';

// Who did what to money-relevant state (docs/audit.md). Every change of an alert, price item,
// agreement's terms, invoice amounts or topic writes its entries with `recordActivity`, on the
// transaction client of the change itself: the change and its record commit or fail together.

type Tx = Pick<Prisma.TransactionClient, '$executeRaw'>;

export const ACTIVITY_ENTITY_TYPES = ['alert', 'price_item', 'agreement', 'invoice', 'topic', 'claim'] as const;
export type ActivityEntityType = (typeof ACTIVITY_ENTITY_TYPES)[number];

// A person through one of their API keys, a person in a session of the web application, or the
// service itself doing the work of a run (checks, topic reconcile).
export type Actor =
  | { type: 'api_key'; userId: string; apiKeyId: string }
  | { type: 'user'; userId: string }
  | { type: 'system'; runId: string | null };

export function actorOf(actor: RequestActor | Actor): Actor {
  if ('type' in actor) return actor;
  if (actor.kind === 'member') {
    // A session of the web application is the person themself, through no key.
    return actor.apiKeyId
      ? { type: 'api_key', userId: actor.userId, apiKeyId: actor.apiKeyId }
      : { type: 'user', userId: actor.userId };
  }
  // Ingestion tokens only upload and read invoices: they never change money-relevant state.
  throw new Error(`a ${actor.kind} cannot be the actor of a recorded change`);
}

export const systemActor = (runId: string | null): Actor => ({ type: 'system', runId });

export type FieldChange = { before: unknown; after: unknown };
export type Changes = Record<string, FieldChange>;

export interface ActivityEntryInput {
  entityType: ActivityEntityType;
  entityId: string;
  // created, updated, deleted, dismissed, credited, uncredited, reopened, alerts_moved, ...
  action: string;
  // The fields the change touched, before and after (API field names, JSON values).
  changes?: Changes;
}

// Records the entries as done by `actor` now (the transaction's time). One statement whatever
// the count: the rows travel as one array per column (PostgreSQL allows 65,535 bind parameters).
export async function recordActivity(
  tx: Tx,
  organizationId: string,
  actor: RequestActor | Actor,
  entries: ActivityEntryInput[],
): Promise<void> {
  if (entries.length === 0) return;
  const who = actorOf(actor);
  const userId = who.type === 'system' ? null : who.userId;
  const apiKeyId = who.type === 'api_key' ? who.apiKeyId : null;
  const runId = who.type === 'system' ? who.runId : null;
  await tx.$executeRaw`
    INSERT INTO activity_entries (organization_id, entity_type, entity_id, action, actor_type, actor_user_id, actor_api_key_id, actor_run_id, changes)
    SELECT ${organizationId}::uuid, e.entity_type, e.entity_id, e.action, ${who.type}, ${userId}::uuid, ${apiKeyId}::uuid, ${runId}::uuid, e.changes::jsonb
    FROM unnest(${entries.map((e) => e.entityType)}::text[], ${entries.map((e) => e.entityId)}::uuid[], ${entries.map((e) => e.action)}::text[], ${entries.map((e) => JSON.stringify(e.changes ?? {}))}::text[])
      AS e(entity_type, entity_id, action, changes)`;
}

// The fields whose values differ between two views of a record (compared as JSON), for `changes`.
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  fields: readonly string[] = Object.keys(after),
): Changes {
  const changes: Changes = {};
  for (const field of fields) {
    const was = before[field] ?? null;
    const now = after[field] ?? null;
    if (canonicalJson(was) !== canonicalJson(now)) changes[field] = { before: was, after: now };
  }
  return changes;
}

// Thrown inside the transaction of an edit that turned out to change nothing, to undo its writes:
// a client that sends back what it read leaves the record (and its updated_at) as it was.
export class NothingChanged extends Error {
  constructor() {
    super('nothing changed');
  }
}

// The transaction's result, or `unchanged` when the transaction threw NothingChanged.
export async function orUnchanged<T>(transaction: Promise<T>, unchanged: () => T | Promise<T>): Promise<T> {
  try {
    return await transaction;
  } catch (error) {
    if (error instanceof NothingChanged) return unchanged();
    throw error;
  }
}
