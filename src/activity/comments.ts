import { randomUUID } from 'node:crypto';
import type { MemberActor } from '../auth/actor.js';
import type { AppDeps } from '../deps.js';
import type { Comment } from '../generated/prisma/client.js';
import { ApiError, errors } from '../http/errors.js';
import { scanMentions } from './mentions.js';
import type { CommentableEntityType, CreateCommentInput } from './schemas.js';

// Comments on a record's timeline (docs/activity.md): written as the API key's owner, changed and
// deleted by that person only; replies hang under a top-level comment and go with it.

type Deps = Pick<AppDeps, 'db'>;

function invalid(field: string, message: string) {
  return errors.validation(`${field} ${message}.`, [{ field, message }]);
}

// The members of the organization among the ids the body mentions: an @[id] of anyone else stays
// plain text (a comment cannot reveal or notify people outside the organization).
async function memberMentions(deps: Deps, organizationId: string, body: string): Promise<string[]> {
  const ids = scanMentions(body);
  if (ids.length === 0) return [];
  const members = await deps.db.membership.findMany({
    where: { organizationId, userId: { in: ids } },
    select: { userId: true },
  });
  const found = new Set(members.map((m) => m.userId));
  return ids.filter((id) => found.has(id));
}

export async function findComment(deps: Deps, organizationId: string, id: string): Promise<Comment> {
  const comment = await deps.db.comment.findFirst({ where: { id, organizationId } });
  if (!comment) throw errors.notFound('comment');
  return comment;
}

export async function createComment(deps: Deps, actor: MemberActor, input: CreateCommentInput): Promise<Comment> {
  const organizationId = actor.organizationId;
  const entityType = input.entity_type;
  // A record of another organization (or none) is not found, as for every read of it.
  await assertRecordExists(deps, organizationId, entityType, input.entity_id);
  if (input.parent_comment_id) {
    const parent = await deps.db.comment.findFirst({ where: { id: input.parent_comment_id, organizationId } });
    if (!parent) throw invalid('parent_comment_id', 'names no comment');
    if (parent.entityType !== entityType || parent.entityId !== input.entity_id)
      throw invalid('parent_comment_id', 'is a comment on another record');
    if (parent.parentCommentId !== null)
      throw invalid(
        'parent_comment_id',
        'is a reply: reply to its top-level comment instead (replies are never nested deeper)',
      );
  }
  return deps.db.comment.create({
    data: {
      id: randomUUID(),
      organizationId,
      entityType,
      entityId: input.entity_id,
      parentCommentId: input.parent_comment_id ?? null,
      body: input.body,
      mentions: await memberMentions(deps, organizationId, input.body),
      authorUserId: actor.userId,
      authorApiKeyId: actor.apiKeyId,
    },
  });
}

// Comments are made on records that exist now (a timeline of a deleted record is read-only).
async function assertRecordExists(
  deps: Deps,
  organizationId: string,
  entityType: CommentableEntityType,
  entityId: string,
): Promise<void> {
  const where = { id: entityId, organizationId };
  const found =
    entityType === 'invoice'
      ? await deps.db.invoice.count({ where })
      : entityType === 'agreement'
        ? await deps.db.agreement.count({ where })
        : entityType === 'alert'
          ? await deps.db.alert.count({ where })
          : await deps.db.claim.count({ where });
  if (found === 0) throw errors.notFound(entityType);
}

function assertAuthor(actor: MemberActor, comment: Comment): void {
  if (comment.authorUserId !== actor.userId)
    throw new ApiError(403, 'not_comment_author', 'Only the author of a comment can change or delete it.');
}

// Editing to the same body changes nothing (no edited_at).
export async function editComment(deps: Deps, actor: MemberActor, comment: Comment, body: string): Promise<Comment> {
  assertAuthor(actor, comment);
  if (body === comment.body) return comment;
  const now = new Date();
  return deps.db.comment.update({
    where: { id: comment.id },
    data: { body, mentions: await memberMentions(deps, comment.organizationId, body), updatedAt: now, editedAt: now },
  });
}

// Its replies go with it (foreign key ON DELETE CASCADE).
export async function deleteComment(deps: Deps, actor: MemberActor, comment: Comment): Promise<void> {
  assertAuthor(actor, comment);
  await deps.db.comment.deleteMany({ where: { id: comment.id } });
}
