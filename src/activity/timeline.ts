import type { AppDeps } from '../deps.js';
import { Prisma } from '../db/client.js';
import { errors } from '../http/errors.js';
import type { PageRequest } from '../http/pagination.js';
import type { ActivityQuery, TimelineEntityType } from './schemas.js';

// GET /v1/activity: activity entries and top-level comments of one record (or of the whole
// organization), newest first, in one keyset-paged query over (created_at, id).

type Deps = Pick<AppDeps, 'db'>;

// The table of each record kind and, for include_related_alerts, the alert column naming it.
const RECORDS: Record<TimelineEntityType, { table: Prisma.Sql; alertColumn: Prisma.Sql | null }> = {
  invoice: { table: Prisma.sql`invoices`, alertColumn: Prisma.sql`invoice_id` },
  agreement: { table: Prisma.sql`agreements`, alertColumn: Prisma.sql`agreement_id` },
  alert: { table: Prisma.sql`alerts`, alertColumn: null },
  claim: { table: Prisma.sql`claims`, alertColumn: Prisma.sql`claim_id` },
  topic: { table: Prisma.sql`alert_topics`, alertColumn: Prisma.sql`topic_id` },
};

export interface TimelineRow {
  id: string;
  entry_type: 'activity' | 'comment';
  entity_type: string;
  entity_id: string;
  action: string;
  actor_type: 'user' | 'api_key' | 'system';
  actor_user_id: string | null;
  actor_api_key_id: string | null;
  actor_run_id: string | null;
  changes: Record<string, { before: unknown; after: unknown }> | null;
  created_at: Date;
}

// A record's timeline exists while the record does, and after it is gone as long as its history
// does; another organization's record is not found either way.
export async function assertTimelineExists(
  deps: Deps,
  organizationId: string,
  entityType: TimelineEntityType,
  entityId: string,
): Promise<void> {
  const { table } = RECORDS[entityType];
  const [row] = await deps.db.$queryRaw<{ found: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM ${table} WHERE id = ${entityId}::uuid AND organization_id = ${organizationId}::uuid)
        OR EXISTS (SELECT 1 FROM activity_entries WHERE organization_id = ${organizationId}::uuid AND entity_type = ${entityType} AND entity_id = ${entityId}::uuid) AS found`;
  if (!row?.found) throw errors.notFound(entityType);
}

function scopeOf(organizationId: string, query: ActivityQuery): Prisma.Sql {
  if (!query.entity_type || !query.entity_id) return Prisma.sql`TRUE`;
  const own = Prisma.sql`(entity_type = ${query.entity_type} AND entity_id = ${query.entity_id}::uuid)`;
  const column = RECORDS[query.entity_type].alertColumn;
  if (!query.include_related_alerts || !column) return own;
  return Prisma.sql`(${own} OR (entity_type = 'alert' AND entity_id IN (SELECT id FROM alerts WHERE organization_id = ${organizationId}::uuid AND ${column} = ${query.entity_id}::uuid)))`;
}

export async function timelinePage(
  deps: Deps,
  organizationId: string,
  query: ActivityQuery,
  page: PageRequest,
): Promise<TimelineRow[]> {
  const scope = scopeOf(organizationId, query);
  // Newest first unless direction=asc.
  const order = Prisma.raw(page.direction === 'asc' ? 'ASC' : 'DESC');
  const after = page.after
    ? Prisma.sql`AND (created_at, id) ${Prisma.raw(page.direction === 'asc' ? '>' : '<')} (${new Date(String(page.after.value))}::timestamptz, ${page.after.id}::uuid)`
    : Prisma.empty;
  const activity = Prisma.sql`
    SELECT id, 'activity' AS entry_type, entity_type, entity_id, action, actor_type, actor_user_id, actor_api_key_id, actor_run_id, changes, created_at
      FROM activity_entries
     WHERE organization_id = ${organizationId}::uuid AND ${scope} ${after}`;
  const comments = Prisma.sql`
    SELECT id, 'comment' AS entry_type, entity_type, entity_id, 'commented' AS action,
           CASE WHEN author_api_key_id IS NULL THEN 'user' ELSE 'api_key' END AS actor_type,
           author_user_id AS actor_user_id, author_api_key_id AS actor_api_key_id, NULL::uuid AS actor_run_id, NULL::jsonb AS changes, created_at
      FROM comments
     WHERE organization_id = ${organizationId}::uuid AND parent_comment_id IS NULL AND ${scope} ${after}`;
  // Each part is ordered and limited on its own, so each walks its (organization, ..., created_at)
  // index and stops after a page (incremental sort by id), instead of sorting a whole history.
  const limit = page.limit + 1;
  const pageOfPart = (part: Prisma.Sql) =>
    Prisma.sql`(${part} ORDER BY created_at ${order}, id ${order} LIMIT ${limit})`;
  const parts = (
    query.entry_type === 'activity' ? [activity] : query.entry_type === 'comment' ? [comments] : [activity, comments]
  ).map(pageOfPart);
  return deps.db.$queryRaw<TimelineRow[]>`
    SELECT entries.id::text AS id, entry_type, entity_type, entries.entity_id::text AS entity_id, action, actor_type,
           actor_user_id::text AS actor_user_id, actor_api_key_id::text AS actor_api_key_id, actor_run_id::text AS actor_run_id, changes, entries.created_at
      FROM (${Prisma.join(parts, ' UNION ALL ')}) AS entries
     ORDER BY entries.created_at ${order}, entries.id ${order}
     LIMIT ${limit}`;
}
