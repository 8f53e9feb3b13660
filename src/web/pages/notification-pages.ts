import { z } from 'zod';
import { ApiError } from '../../http/errors.js';
import { mayCall, type OperationCaller, type OperationResponse } from '../operations.js';
import { defineAction, definePage, type ActionResult, type WebInput } from '../page.js';
import { listUrl } from '../query.js';
import type { Refusal } from '../refusal.js';
import { namedRecords, type ReferenceField } from '../team-filter-form.js';
import type { Texts } from '../texts/index.js';

// Notifications (docs/notifications.md): the person's own preference and, for Admins, the
// organization's: what they follow (sources), where messages go (e-mail and webhook channels:
// create, edit, turn off, rotate a webhook's secret shown once, send a test), and the delivery
// log with replay. Every change reads the preference and PUTs it back whole, as the API takes it
// (read-only fields sent back are ignored), so the rules stay the API's.

const BASE = '/app/settings/notifications';
const EVENTS = ['new_alert', 'agreement_expiring'] as const;
const LOG_PAGE = '20';
const owners = z.enum(['personal', 'organization']);
const ownerParams = z.object({ owner: owners });
const channelParams = z.object({ owner: owners, id: z.string().uuid() });
const idParams = z.object({ id: z.string().uuid() });
const list = z.preprocess(
  (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? (v as unknown[]) : [v]),
  z.array(z.string()),
);
const channelBody = z.object({
  type: z.enum(['email', 'webhook']).optional(),
  destination: z.string().max(2048).optional(),
  events: list,
  enabled: z.string().optional(),
});

type Owner = z.infer<typeof owners>;
type Input = Pick<WebInput<unknown, unknown>, 'call' | 'credential' | 'ctx' | 't'>;
type Preference = OperationResponse<'getNotificationPreferences'>['preferences'][number];

async function preferenceOf(call: OperationCaller, owner: Owner): Promise<Preference> {
  const document = await call('getNotificationPreferences', { query: { owner } });
  return document.preferences[0]!;
}

async function notificationsPage({ call, credential, ctx, t: texts }: Input) {
  const t = texts.notifications;
  const admin = mayCall(credential, 'listNotificationChannels');
  const cursor = typeof ctx.query.cursor === 'string' ? ctx.query.cursor : '';
  const [personal, organization, deliveries] = await Promise.all([
    preferenceOf(call, 'personal'),
    admin ? preferenceOf(call, 'organization') : Promise.resolve(null),
    call('listNotificationDeliveries', { query: { limit: LOG_PAGE, ...(cursor ? { cursor } : {}) } }),
  ]);
  const channels = new Map(
    [...personal.channels, ...(organization?.channels ?? [])].map((c) => [c.id, c.url ?? c.address ?? t.ownAddress]),
  );
  return {
    title: t.title,
    events: EVENTS,
    personal,
    organization,
    admin,
    deliveries: deliveries.data,
    channelNames: channels,
    nextLogUrl: deliveries.next_cursor ? listUrl(BASE, { cursor: deliveries.next_cursor }) + '#log-heading' : null,
    firstLogUrl: cursor ? `${BASE}#log-heading` : null,
  };
}

// A change: read, change, PUT back. A refusal shows the page again with the API's message.
async function change(
  input: Input,
  owner: Owner,
  edit: (preference: Preference) => Preference | Promise<Preference>,
  notice: string,
): Promise<ActionResult> {
  const t = input.t.notifications;
  return refusedOn(input, async () => {
    const preference = await edit(structuredClone(await preferenceOf(input.call, owner)));
    const saved = await input.call('putNotificationPreferences', {
      query: { owner },
      body: { preferences: [preference] } as never,
    });
    const secret = saved.preferences[0]?.channels.find((c) => c.secret)?.secret;
    if (secret)
      return {
        view: 'secret-created',
        title: t.secretTitle,
        nav: 'settings',
        data: secretPage(t, secret, t.newSecret),
      };
    return { redirect: BASE, notice };
  });
}

const secretPage = (t: Texts['notifications'], secret: string, description: string) => ({
  heading: t.secretTitle,
  secret,
  description,
});

async function refusedOn(input: Input, act: () => Promise<ActionResult>): Promise<ActionResult> {
  try {
    return await act();
  } catch (caught) {
    if (!(caught instanceof ApiError) || caught.status >= 500) throw caught;
    const details = Array.isArray(caught.extra.details) ? (caught.extra.details as Refusal['details']) : [];
    const refusal: Refusal = { code: caught.code, message: caught.message, details };
    const data = await notificationsPage(input);
    return {
      view: 'notifications',
      title: data.title,
      nav: 'settings',
      data: { ...data, refusal },
      status: caught.status,
    };
  }
}

const eventsOf = (events: string[]) => EVENTS.filter((e) => events.includes(e));

function channelOf(body: z.infer<typeof channelBody>) {
  const destination = (body.destination ?? '').trim();
  const common = { enabled: true, events: eventsOf(body.events) };
  return body.type === 'webhook'
    ? { ...common, type: 'webhook' as const, url: destination }
    : { ...common, type: 'email' as const, address: destination === '' ? null : destination };
}

export const notificationPages = [
  definePage({
    path: '/settings/notifications',
    nav: 'settings',
    title: (t) => t.notifications.title,
    view: 'notifications',
    load: (input) => notificationsPage(input),
  }),
  definePage({
    path: '/notifications',
    nav: 'settings',
    title: (t) => t.notifications.title,
    view: 'error',
    load: async () => ({ redirect: BASE }),
  }),
  defineAction({
    path: '/settings/notifications/scope',
    level: 'read',
    body: z.object({ scope: z.enum(['mine', 'organization']) }),
    handle: (input) =>
      change(input, 'personal', (p) => ({ ...p, scope: input.body.scope }), input.t.notifications.saved),
  }),
  defineAction({
    path: '/settings/notifications/sources',
    level: 'read',
    body: z.object({
      name: z.string().max(200),
      type: z.enum(['supplier', 'recipient', 'agreement', 'agreement_tag']),
      record: z.string().max(500),
    }),
    handle: (input) =>
      change(
        input,
        'personal',
        async (p) => {
          const field: Record<string, ReferenceField> = {
            supplier: 'supplier.id',
            recipient: 'recipient.id',
            agreement: 'agreement.id',
            agreement_tag: 'agreement.tag',
          };
          const t = input.t.notifications;
          const record = input.body.record.trim();
          const ids = /^[0-9a-f-]{36}$/i.test(record)
            ? [record]
            : await namedRecords(input.call, field[input.body.type]!, record);
          if (ids.length !== 1)
            throw new ApiError(
              400,
              'validation_error',
              ids.length === 0 ? t.noRecord(record) : t.severalRecords(record),
              {
                details: [{ field: 'record', message: ids.length === 0 ? t.namesNoRecord : t.namesSeveralRecords }],
              },
            );
          const name = input.body.name.trim() || record;
          return {
            ...p,
            sources: [
              ...p.sources,
              { name, filter: { schema_version: 1, references: [{ type: input.body.type, id: ids[0]! }] } },
            ] as Preference['sources'],
          };
        },
        input.t.notifications.sourceAdded,
      ),
  }),
  defineAction({
    path: '/settings/notifications/sources/:id/remove',
    level: 'read',
    params: idParams,
    handle: (input) =>
      change(
        input,
        'personal',
        (p) => ({ ...p, sources: p.sources.filter((s) => s.id !== input.params.id) }),
        input.t.notifications.sourceRemoved,
      ),
  }),
  defineAction({
    path: '/settings/notifications/:owner/channels',
    level: 'read',
    params: ownerParams,
    body: channelBody,
    handle: (input) =>
      change(
        input,
        input.params.owner,
        (p) => ({ ...p, channels: [...p.channels, channelOf(input.body)] as Preference['channels'] }),
        input.t.notifications.channelAdded,
      ),
  }),
  defineAction({
    path: '/settings/notifications/:owner/channels/:id',
    level: 'read',
    params: channelParams,
    body: channelBody,
    handle: (input) =>
      change(
        input,
        input.params.owner,
        (p) => ({
          ...p,
          channels: p.channels.map((c) => {
            if (c.id !== input.params.id) return c;
            const destination = (input.body.destination ?? '').trim();
            return {
              ...c,
              enabled: input.body.enabled === 'on',
              events: eventsOf(input.body.events),
              ...(c.type === 'webhook' ? { url: destination } : { address: destination === '' ? null : destination }),
            };
          }),
        }),
        input.t.notifications.channelSaved,
      ),
  }),
  defineAction({
    path: '/settings/notifications/:owner/channels/:id/remove',
    level: 'read',
    params: channelParams,
    handle: (input) =>
      change(
        input,
        input.params.owner,
        (p) => ({ ...p, channels: p.channels.filter((c) => c.id !== input.params.id) }),
        input.t.notifications.channelRemoved,
      ),
  }),
  defineAction({
    path: '/settings/notifications/channels/:id/rotate',
    level: 'read',
    params: idParams,
    handle: (input) =>
      refusedOn(input, async () => {
        const rotated = await input.call('rotateNotificationChannelSecret', { params: input.params });
        const t = input.t.notifications;
        return {
          view: 'secret-created',
          title: t.secretTitle,
          nav: 'settings',
          data: secretPage(t, rotated.secret, t.rotated),
        };
      }),
  }),
  defineAction({
    path: '/settings/notifications/channels/:id/test',
    level: 'read',
    params: idParams,
    handle: (input) =>
      refusedOn(input, async () => {
        await input.call('testNotificationChannel', { params: input.params });
        return { redirect: `${BASE}#log-heading`, notice: input.t.notifications.testSent };
      }),
  }),
  defineAction({
    path: '/settings/notifications/deliveries/:id/replay',
    level: 'read',
    params: idParams,
    handle: (input) =>
      refusedOn(input, async () => {
        await input.call('replayNotificationDelivery', { params: input.params });
        return { redirect: `${BASE}#log-heading`, notice: input.t.notifications.replayed };
      }),
  }),
  definePage({
    path: '/settings/notifications/deliveries/:id',
    nav: 'settings',
    title: (t) => t.notifications.delivery,
    view: 'notification-delivery',
    params: idParams,
    load: async ({ params, call }) => {
      const delivery = await call('getNotificationDelivery', { params });
      return { delivery, payload: JSON.stringify(delivery.payload, null, 2) };
    },
  }),
];
