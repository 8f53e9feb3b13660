import { z } from 'zod';
import { pageParams } from '../http/pagination.js';
import { acceptingReadShape, booleanParam, commaList, createdRangeParams, uuidList } from '../http/schemas.js';

export const NOTIFICATION_EVENTS = ['new_alert', 'agreement_expiring'] as const;
export const READINESS = ['ready', 'disabled', 'no_events', 'no_sources', 'invalid_destination'] as const;
export const REFERENCE_TYPES = ['supplier', 'recipient', 'agreement', 'agreement_tag'] as const;
// Deliveries also carry `test` (a test message sent from the application to one channel).
export const DELIVERY_EVENTS = [...NOTIFICATION_EVENTS, 'test'] as const;
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const MAX_SOURCES = 20;
export const MAX_CHANNELS = 10;
export const MAX_REFERENCES = 100;

// A stored subscription filter: references to the records a person follows.
export const sourceFilterSchema = z
  .object({
    schema_version: z.literal(1),
    references: z
      .array(z.object({ type: z.enum(REFERENCE_TYPES), id: z.string().uuid() }).strict())
      .min(1)
      .max(MAX_REFERENCES),
  })
  .strict();
export type SourceFilter = z.infer<typeof sourceFilterSchema>;

const referenceSchema = z.object({
  id: z.string().uuid(),
  name: z.string().nullable(),
  missing: z.boolean(),
  type: z.enum(REFERENCE_TYPES),
});

// Read-only fields of the document are accepted back on PUT and ignored, so what was read can be sent.
const sourceInput = z
  .object({
    id: z.string().uuid().optional(),
    name: z.string().trim().min(1).max(200),
    filter: sourceFilterSchema,
    personal: z.boolean().optional(),
    references: z.array(z.unknown()).optional(),
  })
  .strict();

// Simple and linear: one @, something either side, no spaces; the SMTP server has the last word.
export const emailAddress = z
  .string()
  .max(254)
  .refine((v) => {
    const at = v.indexOf('@');
    return at > 0 && at === v.lastIndexOf('@') && at < v.length - 1 && !/\s/.test(v) && v.slice(at + 1).includes('.');
  }, 'must be an e-mail address');

const channelCommon = {
  id: z.string().uuid().optional(),
  enabled: z.boolean(),
  events: z
    .array(z.enum(NOTIFICATION_EVENTS))
    .max(NOTIFICATION_EVENTS.length)
    .refine((e) => new Set(e).size === e.length, 'events must not repeat'),
  readiness: z.enum(READINESS).optional(),
};
const webhookUrl = z
  .string()
  .max(2048)
  .url()
  .refine((v) => /^https?:\/\//i.test(v), 'must be an http or https URL');
const emailChannelInput = z
  .object({ ...channelCommon, type: z.literal('email'), address: emailAddress.nullable().optional() })
  .strict();
const webhookChannelInput = z
  .object({ ...channelCommon, type: z.literal('webhook'), url: webhookUrl, secret_set: z.boolean().optional() })
  .strict();
const channelInput = z.discriminatedUnion('type', [emailChannelInput, webhookChannelInput]);

const personalInput = z
  .object({
    owner: z.literal('personal'),
    scope: z.enum(['mine', 'organization']),
    sources: z.array(sourceInput).max(MAX_SOURCES),
    channels: z.array(channelInput).max(MAX_CHANNELS),
  })
  .strict();
const organizationInput = z
  .object({
    owner: z.literal('organization'),
    scope: z.literal('organization'),
    sources: z.array(sourceInput).max(0, 'organization preferences have no sources'),
    channels: z.array(channelInput).max(MAX_CHANNELS),
  })
  .strict();

export const preferenceInputSchema = z.discriminatedUnion('owner', [personalInput, organizationInput]);
export type PreferenceInput = z.infer<typeof preferenceInputSchema>;
export type ChannelInput = z.infer<typeof channelInput>;

export const preferencesBodySchema = z
  .object({
    preferences: z.array(preferenceInputSchema).length(1, 'send exactly one preference, the one named by owner'),
  })
  .strict();

export const ownerQuery = z.object({ owner: z.enum(['personal', 'organization']).default('personal') });

const channelRead = z.object({
  id: z.string().uuid(),
  type: z.enum(['email', 'webhook']),
  enabled: z.boolean(),
  events: z.array(z.enum(NOTIFICATION_EVENTS)),
  readiness: z.enum(READINESS),
  address: z.string().nullable().optional().describe('email: the address; null sends to the owner'),
  url: z.string().optional().describe('webhook: where events are POSTed'),
  secret_set: z.boolean().optional(),
  secret: z.string().optional().describe('webhook: the signing secret, only in the response that created it'),
});
const sourceRead = z.object({
  id: z.string().uuid(),
  name: z.string(),
  personal: z.boolean(),
  filter: sourceFilterSchema,
  references: z.array(referenceSchema),
});
export const preferenceRead = z.object({
  owner: z.enum(['personal', 'organization']),
  scope: z.enum(['mine', 'organization']),
  sources: z.array(sourceRead),
  channels: z.array(channelRead),
});
export const preferencesDocument = z.object({ preferences: z.array(preferenceRead) });
export const secretResponse = z.object({ id: z.string().uuid(), secret: z.string() });

export const deliveryRead = z.object({
  id: z.string().uuid(),
  event_id: z.string().uuid(),
  event: z.enum(DELIVERY_EVENTS),
  channel_id: z.string().uuid(),
  channel_type: z.enum(['email', 'webhook']),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  replays: z.number().int(),
  last_error: z.string().nullable(),
  last_status_code: z.number().int().nullable(),
  payload: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
  delivered_at: z.string().nullable(),
});

// A channel as the organization's channel list shows it (GET /v1/notification-channels): whose
// it is and where it sends; never its secret.
export const CHANNEL_OWNERS = ['personal', 'organization'] as const;
export const organizationChannelRead = z
  .object({
    id: z.string().uuid(),
    owner: z.enum(CHANNEL_OWNERS),
    user_id: z.string().uuid().nullable().describe('personal channels: the person whose channel it is'),
    type: z.enum(['email', 'webhook']),
    enabled: z.boolean(),
    events: z.array(z.enum(NOTIFICATION_EVENTS)),
    readiness: z.enum(READINESS),
    address: z.string().nullable().optional().describe('email: the address; null sends to the owner'),
    url: z.string().optional().describe('webhook: where events are POSTed'),
    secret_set: z.boolean().optional(),
    created_at: z.string(),
  })
  .meta({ id: 'NotificationChannel' });

// Only `enabled` changes here; where a channel sends and what it follows change with PUT
// /v1/notification-preferences by its owner. The rest of the read shape may be sent back as read.
export const CHANNEL_FIXED_FIELDS = ['owner', 'user_id', 'type', 'events', 'address', 'url'] as const;
const channelPatchInput = z.object({ enabled: z.boolean().optional() }).strict();
export const channelPatchSchema = acceptingReadShape(channelPatchInput, organizationChannelRead).meta({
  id: 'NotificationChannelPatch',
});

export const channelListQuery = z.object({
  ...pageParams(['created_at'] as const),
  owner: z.enum(CHANNEL_OWNERS).optional(),
  user_ids: uuidList.optional(),
  types: commaList(z.enum(['email', 'webhook'])).optional(),
  enabled: booleanParam.optional(),
});

export const deliveryListQuery = z.object({
  ...pageParams(['created_at'] as const),
  statuses: commaList(z.enum(DELIVERY_STATUSES)).optional(),
  events: commaList(z.enum(DELIVERY_EVENTS)).optional(),
  channel_ids: uuidList.optional(),
  event_ids: uuidList.optional(),
  ...createdRangeParams,
});
