import { defineRoute, idParams } from '../../http/route.js';
import { assertSentAsRead, listResponse } from '../../http/schemas.js';
import { createTopicSchema, moveAlertsSchema, patchTopicSchema, topicListQuery, topicSchema } from './schemas.js';
import {
  createTopic,
  deleteTopic,
  findTopic,
  listTopicsPage,
  moveAlerts,
  patchTopic,
  serializeTopic,
} from './service.js';

const tag = 'Alert topics';

export const alertTopicRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/alert-topics',
    operationId: 'listAlertTopics',
    summary: 'List alert topics; topics without alerts only with include_empty=true',
    tag,
    access: { level: 'read' },
    query: topicListQuery,
    fieldsOf: topicSchema,
    responses: { 200: { description: 'A page of topics', schema: listResponse(topicSchema) } },
    handler: async ({ query, actor, deps }) => ({ body: await listTopicsPage(deps, actor.organizationId, query) }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/alert-topics',
    operationId: 'createAlertTopic',
    summary: 'Create a topic on an agreement, optionally moving alerts of that agreement into it',
    tag,
    access: { level: 'write' },
    idempotent: true,
    body: createTopicSchema,
    responses: { 201: { description: 'The topic', schema: topicSchema } },
    handler: async ({ body, actor, deps }) => ({
      status: 201,
      body: serializeTopic(await createTopic(deps, actor, actor.organizationId, body)),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/alert-topics/{id}',
    operationId: 'updateAlertTopic',
    summary: 'Rename, describe, lock or unlock a topic',
    tag,
    access: { level: 'write' },
    params: idParams,
    body: patchTopicSchema,
    responses: { 200: { description: 'The topic', schema: topicSchema } },
    handler: async ({ params, body, actor, deps, ctx }) => {
      const topic = await findTopic(deps, actor.organizationId, params.id);
      // A topic stays on its agreement: agreement_id is accepted only as read.
      assertSentAsRead(ctx.request.body, serializeTopic(topic), ['id', 'agreement_id']);
      return { body: serializeTopic(await patchTopic(deps, actor, topic, body)) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/alert-topics/{id}',
    operationId: 'deleteAlertTopic',
    summary:
      'Delete a topic; its alerts stay, without a topic (409 alert_in_completed_claim while it holds alerts of a completed claim)',
    tag,
    access: { level: 'write' },
    params: idParams,
    responses: {
      204: { description: 'Deleted' },
      409: { description: 'alert_in_completed_claim: the topic holds alerts of a completed claim' },
    },
    handler: async ({ params, actor, deps }) => {
      await deleteTopic(deps, actor, await findTopic(deps, actor.organizationId, params.id));
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/alert-topics/{id}/alerts',
    operationId: 'moveAlertsToTopic',
    summary: "Move alerts of the topic's agreement into the topic (topics they leave stay, even empty)",
    tag,
    access: { level: 'write' },
    params: idParams,
    body: moveAlertsSchema,
    responses: { 200: { description: 'The topic', schema: topicSchema } },
    handler: async ({ params, body, actor, deps }) => {
      const topic = await findTopic(deps, actor.organizationId, params.id);
      return { body: serializeTopic(await moveAlerts(deps, actor, topic, body.alert_ids)) };
    },
  }),
];
