import type { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { keyset, pageOf, resolvePage, type SortColumn } from '../http/pagination.js';
import { findComment } from './comments.js';
import type { ActivityQuery, repliesQuery } from './schemas.js';
import { serializeComments, serializeTimeline } from './serialize.js';
import { assertTimelineExists, timelinePage } from './timeline.js';

// The two lists of the activity API: a timeline (GET /v1/activity) and a comment's replies.

type Deps = Pick<AppDeps, 'db' | 'cursors'>;

const CREATED_AT: SortColumn = { field: 'created_at', kind: 'date' };
const REPLY_ORDER: SortColumn = { field: 'createdAt', kind: 'date' };

// A page of a record's timeline, or of the organization's: activity entries and top-level comments.
export async function listActivityPage(deps: Deps, organizationId: string, query: ActivityQuery) {
  if (query.entity_type && query.entity_id)
    await assertTimelineExists(deps, organizationId, query.entity_type, query.entity_id);
  const { entity_type, entity_id, entry_type, include_related_alerts } = query;
  const page = resolvePage(
    deps.cursors,
    query,
    { sort: 'created_at', direction: 'desc' },
    { entity_type, entity_id, entry_type, include_related_alerts },
  );
  const rows = await timelinePage(deps, organizationId, query, page);
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, CREATED_AT, rows);
  return { data: await serializeTimeline(deps, organizationId, visible), next_cursor: nextCursor };
}

// A page of the replies to a comment of the organization, oldest first unless direction=desc.
export async function listCommentRepliesPage(
  deps: Deps,
  organizationId: string,
  commentId: string,
  query: z.infer<typeof repliesQuery>,
) {
  const parent = await findComment(deps, organizationId, commentId);
  const page = resolvePage(deps.cursors, query, { sort: 'created_at', direction: 'asc' }, { parent: parent.id });
  const { where, orderBy, take } = keyset(page, REPLY_ORDER);
  const rows = await deps.db.comment.findMany({
    where: { AND: [{ parentCommentId: parent.id, organizationId: parent.organizationId }, where] },
    orderBy,
    take,
  });
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, REPLY_ORDER, rows);
  return { data: await serializeComments(deps, parent.organizationId, visible), next_cursor: nextCursor };
}
