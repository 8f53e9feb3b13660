import { z } from 'zod';

export const RUN_STATUSES = ['queued', 'running', 'completed', 'completed_with_errors', 'failed', 'cancelled'] as const;
export const ITEM_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;

const failureSchema = z
  .object({ code: z.string(), message: z.string() })
  .nullable()
  .meta({ description: 'Why the run or item failed; null otherwise.' });

export const workflowRunSchema = z
  .object({
    id: z.string().uuid().meta({ description: 'The run id, which is also its Temporal workflow ID.' }),
    type: z.string().meta({ description: 'import, check, refresh, sync, price_import, ...' }),
    status: z.enum(RUN_STATUSES),
    owner: z
      .object({ type: z.string(), id: z.string().uuid() })
      .nullable()
      .meta({ description: 'The record the run works for.' }),
    progress: z.object({
      total: z.number().int().nullable().meta({ description: 'null while the run is still finding its work' }),
      queued: z.number().int(),
      running: z.number().int(),
      completed: z.number().int(),
      failed: z.number().int(),
      cancelled: z.number().int(),
    }),
    failure: failureSchema,
    retry_of_run_id: z.string().uuid().nullable(),
    attempt: z.number().int().meta({ description: '1, then +1 each time a failed sync resumes under the same id' }),
    created_at: z.string().datetime(),
    started_at: z.string().datetime().nullable(),
    finished_at: z.string().datetime().nullable(),
  })
  .meta({ id: 'WorkflowRun' });

export const workflowRunItemSchema = z
  .object({
    id: z.string().uuid(),
    run_id: z.string().uuid(),
    key: z.string(),
    label: z.string().nullable(),
    status: z.enum(ITEM_STATUSES),
    record: z.object({ type: z.string(), id: z.string().uuid() }).nullable(),
    result: z.unknown().nullable(),
    failure: failureSchema,
    created_at: z.string().datetime(),
    finished_at: z.string().datetime().nullable(),
  })
  .meta({ id: 'WorkflowRunItem' });

export type WorkflowRunView = z.infer<typeof workflowRunSchema>;
export type WorkflowRunItemView = z.infer<typeof workflowRunItemSchema>;
