import type { AppDeps } from '../deps.js';
import type { Comment } from '../generated/prisma/client.js';
import type { TimelineRow } from './timeline.js';

// Entries and comments as the API shows them. The names of the people and runs behind a page are
// read in two queries whatever its size (ids as one array parameter each).

type Deps = Pick<AppDeps, 'db'>;

export interface ActorView {
  type: 'user' | 'api_key' | 'system';
  user_id: string | null;
  api_key_id: string | null;
  run_id: string | null;
  name: string | null;
}

interface Names {
  users: Map<string, string>;
  runs: Map<string, string>;
}

async function namesOf(
  deps: Deps,
  organizationId: string,
  userIds: (string | null)[],
  runIds: (string | null)[],
): Promise<Names> {
  const users = [...new Set(userIds.filter((id): id is string => id !== null))];
  const runs = [...new Set(runIds.filter((id): id is string => id !== null))];
  const [userRows, runRows] = await Promise.all([
    users.length
      ? deps.db.user.findMany({ where: { id: { in: users } }, select: { id: true, name: true, email: true } })
      : [],
    runs.length
      ? deps.db.workflowRun.findMany({ where: { id: { in: runs }, organizationId }, select: { id: true, type: true } })
      : [],
  ]);
  return {
    users: new Map(userRows.map((u) => [u.id, u.name ?? u.email])),
    runs: new Map(runRows.map((r) => [r.id, r.type])),
  };
}

function actorView(
  names: Names,
  type: ActorView['type'],
  userId: string | null,
  apiKeyId: string | null,
  runId: string | null,
): ActorView {
  // The system names the kind of run it did the work for ("System (check)"), when the run is known.
  const name =
    type === 'system'
      ? runId && names.runs.has(runId)
        ? `System (${names.runs.get(runId)})`
        : 'System'
      : userId
        ? (names.users.get(userId) ?? null)
        : null;
  return { type, user_id: userId, api_key_id: apiKeyId, run_id: runId, name };
}

async function replyCounts(deps: Deps, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await deps.db.$queryRaw<{ id: string; count: number }[]>`
    SELECT parent_comment_id::text AS id, count(*)::int AS count FROM comments WHERE parent_comment_id = ANY(${ids}::uuid[]) GROUP BY 1`;
  return new Map(rows.map((row) => [row.id, row.count]));
}

function commentView(comment: Comment, names: Names, replies: Map<string, number>) {
  return {
    id: comment.id,
    entity_type: comment.entityType as 'invoice' | 'agreement' | 'alert' | 'claim',
    entity_id: comment.entityId,
    parent_comment_id: comment.parentCommentId,
    body: comment.body,
    mentions: comment.mentions,
    author: actorView(
      names,
      comment.authorApiKeyId ? 'api_key' : 'user',
      comment.authorUserId,
      comment.authorApiKeyId,
      null,
    ),
    reply_count: replies.get(comment.id) ?? 0,
    created_at: comment.createdAt.toISOString(),
    updated_at: comment.updatedAt.toISOString(),
    edited_at: comment.editedAt?.toISOString() ?? null,
  };
}

export async function serializeComments(deps: Deps, organizationId: string, comments: Comment[]) {
  const [names, replies] = await Promise.all([
    namesOf(
      deps,
      organizationId,
      comments.map((c) => c.authorUserId),
      [],
    ),
    replyCounts(
      deps,
      comments.map((c) => c.id),
    ),
  ]);
  return comments.map((comment) => commentView(comment, names, replies));
}

export async function serializeTimeline(deps: Deps, organizationId: string, rows: TimelineRow[]) {
  const commentIds = rows.filter((row) => row.entry_type === 'comment').map((row) => row.id);
  const comments = commentIds.length
    ? await deps.db.comment.findMany({ where: { id: { in: commentIds }, organizationId } })
    : [];
  const [names, replies] = await Promise.all([
    namesOf(
      deps,
      organizationId,
      rows.map((r) => r.actor_user_id),
      rows.map((r) => r.actor_run_id),
    ),
    replyCounts(deps, commentIds),
  ]);
  const byId = new Map(comments.map((c) => [c.id, c]));
  return rows.map((row) => {
    const comment = row.entry_type === 'comment' ? byId.get(row.id) : undefined;
    return {
      id: row.id,
      entry_type: row.entry_type,
      entity_type: row.entity_type,
      entity_id: row.entity_id,
      action: row.action,
      actor: actorView(names, row.actor_type, row.actor_user_id, row.actor_api_key_id, row.actor_run_id),
      changes: row.entry_type === 'activity' ? (row.changes ?? {}) : null,
      comment: comment ? commentView(comment, names, replies) : null,
      created_at: row.created_at.toISOString(),
    };
  });
}
