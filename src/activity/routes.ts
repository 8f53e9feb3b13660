import type { RequestActor } from '../auth/actor.js';
import { assertIfMatch } from '../http/etag.js';
import { keyset, pageOf, resolvePage, type SortColumn } from '../http/pagination.js';
import { defineRoute, idParams } from '../http/route.js';
import { assertSentAsRead, listResponse } from '../http/schemas.js';
import { createComment, deleteComment, editComment, findComment } from './comments.js';
import {
  activityEntrySchema,
  activityQuery,
  COMMENT_FIXED_FIELDS,
  commentSchema,
  createCommentSchema,
  patchCommentSchema,
  repliesQuery,
} from './schemas.js';
import { serializeComments, serializeTimeline } from './serialize.js';
import { assertTimelineExists, timelinePage } from './timeline.js';

const tag = 'Activity and comments';
const CREATED_AT: SortColumn = { field: 'created_at', kind: 'date' };
const REPLY_ORDER: SortColumn = { field: 'createdAt', kind: 'date' };

async function commentResponse(
  deps: Parameters<typeof serializeComments>[0],
  actor: RequestActor,
  comment: Parameters<typeof serializeComments>[2][number],
) {
  return (await serializeComments(deps, actor.organizationId, [comment]))[0]!;
}

export const activityRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/activity',
    operationId: 'listActivity',
    summary:
      "A record's timeline (entity_type and entity_id) or the organization's: activity entries and top-level comments, newest first unless direction=asc",
    tag,
    access: { level: 'read' },
    query: activityQuery,
    fieldsOf: activityEntrySchema,
    responses: {
      200: { description: 'A page of entries', schema: listResponse(activityEntrySchema) },
      404: { description: 'The record does not exist and has no history' },
    },
    handler: async ({ query, actor, deps }) => {
      const organizationId = actor.organizationId;
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
      return { body: { data: await serializeTimeline(deps, organizationId, visible), next_cursor: nextCursor } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/comments',
    operationId: 'createComment',
    summary:
      "Comment on an invoice, agreement, alert or claim as the API key's owner (topics cannot be commented on); parent_comment_id replies to a top-level comment. Not safe to repeat without an Idempotency-Key",
    tag,
    access: { level: 'write' },
    idempotent: true,
    body: createCommentSchema,
    responses: {
      201: { description: 'The comment; Location points to it', schema: commentSchema },
      404: { description: 'The record does not exist' },
    },
    handler: async ({ body, actor, deps }) => {
      const comment = await createComment(deps, actor, body);
      return {
        status: 201,
        body: await commentResponse(deps, actor, comment),
        headers: { Location: `/v1/comments/${comment.id}` },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/comments/{id}',
    operationId: 'getComment',
    summary: 'Read a comment',
    tag,
    access: { level: 'read' },
    params: idParams,
    etag: true,
    fieldsOf: commentSchema,
    responses: { 200: { description: 'The comment', schema: commentSchema } },
    handler: async ({ params, actor, deps }) => ({
      body: await commentResponse(deps, actor, await findComment(deps, actor.organizationId, params.id)),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/comments/{id}/replies',
    operationId: 'listCommentReplies',
    summary: 'The replies to a comment, oldest first unless direction=desc',
    tag,
    access: { level: 'read' },
    params: idParams,
    query: repliesQuery,
    fieldsOf: commentSchema,
    responses: { 200: { description: 'A page of replies', schema: listResponse(commentSchema) } },
    handler: async ({ params, query, actor, deps }) => {
      const parent = await findComment(deps, actor.organizationId, params.id);
      const page = resolvePage(deps.cursors, query, { sort: 'created_at', direction: 'asc' }, { parent: parent.id });
      const { where, orderBy, take } = keyset(page, REPLY_ORDER);
      const rows = await deps.db.comment.findMany({
        where: { AND: [{ parentCommentId: parent.id, organizationId: parent.organizationId }, where] },
        orderBy,
        take,
      });
      const { rows: visible, nextCursor } = pageOf(deps.cursors, page, REPLY_ORDER, rows);
      return { body: { data: await serializeComments(deps, parent.organizationId, visible), next_cursor: nextCursor } };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/comments/{id}',
    operationId: 'updateComment',
    summary:
      'Edit the body of your own comment (403 not_comment_author for anyone else); If-Match optional (412 on mismatch)',
    tag,
    access: { level: 'write' },
    params: idParams,
    body: patchCommentSchema,
    etag: true,
    responses: {
      200: { description: 'The comment', schema: commentSchema },
      403: { description: 'not_comment_author' },
      412: { description: 'precondition_failed: If-Match does not match' },
    },
    handler: async ({ params, body, actor, deps, ctx }) => {
      const comment = await findComment(deps, actor.organizationId, params.id);
      const current = await commentResponse(deps, actor, comment);
      assertIfMatch(ctx, current);
      assertSentAsRead(ctx.request.body, current, COMMENT_FIXED_FIELDS);
      return { body: await commentResponse(deps, actor, await editComment(deps, actor, comment, body.body)) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/comments/{id}',
    operationId: 'deleteComment',
    summary:
      'Delete your own comment and its replies (403 not_comment_author for anyone else); If-Match optional (412 on mismatch)',
    tag,
    access: { level: 'write' },
    params: idParams,
    responses: {
      204: { description: 'Deleted' },
      403: { description: 'not_comment_author' },
      412: { description: 'precondition_failed: If-Match does not match' },
    },
    handler: async ({ params, actor, deps, ctx }) => {
      const comment = await findComment(deps, actor.organizationId, params.id);
      assertIfMatch(ctx, await commentResponse(deps, actor, comment));
      await deleteComment(deps, actor, comment);
      return { status: 204 };
    },
  }),
];
