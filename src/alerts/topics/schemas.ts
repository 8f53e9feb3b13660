import { z } from 'zod';
import { pageParams } from '../../http/pagination.js';
import { acceptingReadShape, booleanParam, uuidList } from '../../http/schemas.js';

const uuid = z.string().uuid();
const title = z.string().trim().min(1).max(500);
const description = z.string().trim().min(1).max(5000).nullable();
const alertIds = z.array(uuid).min(1).max(10_000);

export const topicListQuery = z.object({
  ...pageParams(['created_at', 'updated_at', 'title']),
  agreement_ids: uuidList.optional(),
  include_empty: booleanParam.default(false).meta({ description: 'Also topics without (visible) alerts' }),
});

const createTopicInput = z
  .object({
    agreement_id: uuid,
    title,
    description: description.optional(),
    is_locked: z.boolean().default(false),
    alert_ids: alertIds.optional(),
  })
  .strict();

// agreement_id is fixed once a topic exists: a PATCH accepts it as read and ignores it.
const patchTopicInput = z.object({ title, description, is_locked: z.boolean() }).partial().strict();

export const moveAlertsSchema = z.object({ alert_ids: alertIds }).strict();

export const topicSchema = z
  .object({
    id: uuid,
    agreement_id: uuid,
    title: z.string(),
    description: z.string().nullable(),
    is_locked: z.boolean().meta({
      description: "A locked topic's text is not rewritten by topic reconciliation; alerts can still be moved",
    }),
    alert_count: z
      .number()
      .int()
      .meta({ description: 'Alerts in the topic that lists show (set-aside alerts are not counted)' }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .meta({ id: 'AlertTopic' });

export const createTopicSchema = acceptingReadShape(createTopicInput, topicSchema);
export const patchTopicSchema = acceptingReadShape(patchTopicInput, topicSchema);

export type CreateTopicInput = z.infer<typeof createTopicSchema>;
export type PatchTopicInput = z.infer<typeof patchTopicSchema>;
