import { z } from 'zod';
import { pageParams } from '../http/pagination.js';
import { acceptingReadShape, booleanParam } from '../http/schemas.js';

// Timelines and comments (docs/activity.md).

export const TIMELINE_ENTITY_TYPES = ['invoice', 'agreement', 'alert', 'claim', 'topic'] as const;
export type TimelineEntityType = (typeof TIMELINE_ENTITY_TYPES)[number];
// Topics have a timeline but cannot be commented on.
export const COMMENTABLE_ENTITY_TYPES = ['invoice', 'agreement', 'alert', 'claim'] as const;
export type CommentableEntityType = (typeof COMMENTABLE_ENTITY_TYPES)[number];

export const MAX_COMMENT_LENGTH = 10_000;

const uuid = z.string().uuid();

export const activityQuery = z
  .object({
    ...pageParams(['created_at']),
    entity_type: z
      .enum(TIMELINE_ENTITY_TYPES)
      .optional()
      .meta({ description: "With entity_id: one record's timeline; both left out: the organization's" }),
    entity_id: uuid.optional(),
    entry_type: z
      .enum(['comment', 'activity'])
      .optional()
      .meta({ description: 'comment or activity; both when left out' }),
    include_related_alerts: booleanParam.default(false).meta({
      description:
        "Also the entries of the record's alerts (invoice, agreement, claim: its current alerts; topic: the alerts in it)",
    }),
  })
  .refine((query) => (query.entity_type === undefined) === (query.entity_id === undefined), {
    message: 'send entity_type and entity_id together',
    path: ['entity_id'],
  })
  .refine(
    (query) => !query.include_related_alerts || (query.entity_type !== undefined && query.entity_type !== 'alert'),
    {
      message: 'include_related_alerts needs entity_type invoice, agreement, claim or topic',
      path: ['include_related_alerts'],
    },
  );
export type ActivityQuery = z.infer<typeof activityQuery>;

const actorSchema = z
  .object({
    type: z.enum(['user', 'api_key', 'system']),
    user_id: uuid.nullable(),
    api_key_id: uuid.nullable(),
    run_id: uuid.nullable().meta({ description: 'The workflow run whose work this was (system)' }),
    name: z.string().nullable().meta({ description: "The person's name (or e-mail), or the system's" }),
  })
  .meta({ id: 'ActivityActor' });

export const commentSchema = z
  .object({
    id: uuid,
    entity_type: z.enum(COMMENTABLE_ENTITY_TYPES),
    entity_id: uuid,
    parent_comment_id: uuid.nullable(),
    body: z.string(),
    mentions: z.array(uuid).meta({ description: 'Members named in the body as @[user-id], in order of first mention' }),
    author: actorSchema,
    reply_count: z.number().int(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    edited_at: z.string().datetime().nullable(),
  })
  .meta({ id: 'Comment' });

export const activityEntrySchema = z
  .object({
    id: uuid,
    entry_type: z.enum(['activity', 'comment']),
    entity_type: z
      .string()
      .meta({ description: 'invoice, agreement, alert, claim, topic (and price_item in the organization timeline)' }),
    entity_id: uuid,
    action: z.string().meta({
      description: 'created, updated, deleted, status_changed, ... (docs/activity.md); commented for comments',
    }),
    actor: actorSchema,
    changes: z
      .record(z.string(), z.object({ before: z.unknown(), after: z.unknown() }))
      .nullable()
      .meta({ description: 'The fields the change touched, before and after; null for comments' }),
    comment: commentSchema.nullable(),
    created_at: z.string().datetime(),
  })
  .meta({ id: 'ActivityEntry' });

const createCommentInput = z
  .object({
    entity_type: z.enum(COMMENTABLE_ENTITY_TYPES, {
      message: 'must be invoice, agreement, alert or claim (topics cannot be commented on)',
    }),
    entity_id: uuid,
    body: z
      .string()
      .min(1)
      .max(MAX_COMMENT_LENGTH)
      .refine((text) => text.trim().length > 0, 'must not be blank'),
    parent_comment_id: uuid
      .nullable()
      .optional()
      .meta({ description: 'A top-level comment of the same record; replies are never nested deeper' }),
  })
  .strict();
const patchCommentInput = z.object({ body: createCommentInput.shape.body }).strict();

export const createCommentSchema = acceptingReadShape(createCommentInput, commentSchema).meta({ id: 'CommentCreate' });
export const patchCommentSchema = acceptingReadShape(patchCommentInput, commentSchema).meta({ id: 'CommentPatch' });
export const COMMENT_FIXED_FIELDS = ['id', 'entity_type', 'entity_id', 'parent_comment_id'] as const;
export type CreateCommentInput = z.infer<typeof createCommentSchema>;

export const repliesQuery = z.object({ ...pageParams(['created_at']) });
