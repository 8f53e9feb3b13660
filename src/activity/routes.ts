import type { RequestActor } from '../auth/actor.js';
import { assertIfMatch } from '../http/etag.js';
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
import { listActivityPage, listCommentRepliesPage } from './lists.js';
import { serializeComments } from './serialize.js';

const tag = 'Activity and comments';

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
    handler: async ({ query, actor, deps }) => ({ body: await listActivityPage(deps, actor.organizationId, query) }),
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
    handler: async ({ params, query, actor, deps }) => ({
      body: await listCommentRepliesPage(deps, actor.organizationId, params.id, query),
    }),
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
