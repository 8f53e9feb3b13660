import { defineRoute, idParams } from '../http/route.js';
import { assertSentAsRead, listResponse } from '../http/schemas.js';
import { assertIfMatch } from '../http/etag.js';
import {
  findChannelToChange,
  getChannel,
  listChannelsPage,
  rotateChannelSecret,
  setChannelEnabled,
} from './channels.js';
import { getDelivery, listDeliveriesPage, replayDelivery, sendTestDelivery } from './deliveries.js';
import { readPreferenceDocument, replacePreferenceDocument } from './preference-documents.js';
import {
  CHANNEL_FIXED_FIELDS,
  channelListQuery,
  channelPatchSchema,
  deliveryListQuery,
  deliveryRead,
  organizationChannelRead,
  ownerQuery,
  preferencesBodySchema,
  preferencesDocument,
  secretResponse,
} from './schemas.js';

const tag = 'Notifications';

export const notificationRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/notification-preferences',
    operationId: 'getNotificationPreferences',
    summary: "The caller's notification preference, or the organization's with owner=organization",
    tag,
    access: { level: 'read' },
    query: ownerQuery,
    responses: { 200: { description: 'The preferences document', schema: preferencesDocument } },
    handler: async ({ actor, deps, query }) => ({ body: await readPreferenceDocument(deps, actor, query.owner) }),
  }),
  defineRoute({
    method: 'put',
    path: '/v1/notification-preferences',
    operationId: 'putNotificationPreferences',
    summary:
      "Replace the caller's notification preference (Read), or the organization's with owner=organization (Admin)",
    tag,
    access: { level: 'read' },
    query: ownerQuery,
    body: preferencesBodySchema,
    responses: {
      200: {
        description: 'The preferences document; a new webhook channel carries its secret, this once',
        schema: preferencesDocument,
      },
    },
    handler: async ({ actor, deps, query, body }) => ({
      body: await replacePreferenceDocument(deps, actor, query.owner, body.preferences[0]!),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/notification-channels/{id}/rotate-secret',
    operationId: 'rotateNotificationChannelSecret',
    summary: 'Give a webhook channel a new signing secret, shown this once; the old one stops signing at once',
    tag,
    access: { level: 'read' },
    params: idParams,
    responses: { 200: { description: 'The new secret', schema: secretResponse } },
    handler: async ({ actor, deps, params }) => ({ body: await rotateChannelSecret(deps.db, actor, params.id) }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/notification-channels/{id}/test',
    operationId: 'testNotificationChannel',
    summary:
      "Send a test message to one channel (one attempt; see it in the delivery log). Own channel: Read; the organization's: Write",
    tag,
    access: { level: 'read' },
    params: idParams,
    responses: { 202: { description: 'The test delivery, pending', schema: deliveryRead } },
    handler: async ({ actor, deps, params }) => ({
      status: 202,
      body: await sendTestDelivery(deps, actor, params.id),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/notification-channels',
    operationId: 'listNotificationChannels',
    summary:
      "Every notification channel of the organization, each person's and the organization's, oldest first (Admin)",
    tag,
    access: { level: 'admin' },
    query: channelListQuery,
    fieldsOf: organizationChannelRead,
    responses: { 200: { description: 'Channels', schema: listResponse(organizationChannelRead) } },
    handler: async ({ actor, deps, query }) => ({ body: await listChannelsPage(deps, actor.organizationId, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/notification-channels/{id}',
    operationId: 'getNotificationChannel',
    summary: "One channel: the caller's own or the organization's, or any of the organization's for an Admin",
    tag,
    access: { level: 'read' },
    params: idParams,
    fieldsOf: organizationChannelRead,
    etag: true,
    responses: { 200: { description: 'The channel', schema: organizationChannelRead } },
    handler: async ({ actor, deps, params }) => ({ body: await getChannel(deps, actor, params.id) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/notification-channels/{id}',
    operationId: 'patchNotificationChannel',
    summary:
      "Turn a channel on or off: one's own (Read), the organization's or another person's (Admin); optional If-Match",
    tag,
    access: { level: 'read' },
    params: idParams,
    body: channelPatchSchema,
    responses: { 200: { description: 'The channel', schema: organizationChannelRead } },
    handler: async ({ actor, deps, params, body, ctx }) => {
      const found = await findChannelToChange(deps, actor, params.id);
      assertIfMatch(ctx, found.view);
      assertSentAsRead(ctx.request.body, found.view, CHANNEL_FIXED_FIELDS);
      return { body: await setChannelEnabled(deps, actor, found, body.enabled) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/notification-deliveries',
    operationId: 'listNotificationDeliveries',
    summary: "Delivery log of the caller's channels and the organization's, newest first",
    tag,
    access: { level: 'read' },
    query: deliveryListQuery,
    fieldsOf: deliveryRead,
    responses: { 200: { description: 'Deliveries', schema: listResponse(deliveryRead) } },
    handler: async ({ actor, deps, query }) => ({ body: await listDeliveriesPage(deps, actor, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/notification-deliveries/{id}',
    operationId: 'getNotificationDelivery',
    summary: 'One delivery',
    tag,
    access: { level: 'read' },
    params: idParams,
    fieldsOf: deliveryRead,
    responses: { 200: { description: 'The delivery', schema: deliveryRead } },
    handler: async ({ actor, deps, params }) => ({ body: await getDelivery(deps, actor, params.id) }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/notification-deliveries/{id}/replay',
    operationId: 'replayNotificationDelivery',
    summary: 'Deliver a failed delivery again (same event id, so receivers can tell a repeat); 409 unless it failed',
    tag,
    access: { level: 'read' },
    params: idParams,
    responses: { 202: { description: 'The delivery, pending again', schema: deliveryRead } },
    handler: async ({ actor, deps, params }) => ({ status: 202, body: await replayDelivery(deps, actor, params.id) }),
  }),
];
