import { acceptingReadShape } from '../http/schemas.js';
import { z } from 'zod';
import { pageParams } from '../http/pagination.js';
import { dateString } from '../http/schemas.js';
import { RUN_STATUSES } from '../runs/schemas.js';

export const scopeSchema = z
  .object({
    supplier_ids: z.array(z.string().uuid()).min(1).max(1000).meta({
      description: "ids from GET /v1/integrations/{id}/suppliers; a sync imports only these suppliers' invoices",
    }),
  })
  .strict()
  .meta({ id: 'IntegrationScope' });

export const providerSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    connect: z.enum(['api', 'application_only']).meta({
      description: 'application_only: the provider signs users in on its own site; connect it in the application',
    }),
    credentials_schema: z
      .record(z.string(), z.unknown())
      .meta({ description: 'JSON Schema of the credentials object of POST /v1/integrations' }),
    scope: z.string().meta({ description: 'What scope means for this provider' }),
  })
  .meta({ id: 'IntegrationProvider' });

const testStepSchema = z.object({
  name: z.string(),
  status: z.enum(['passed', 'failed', 'skipped']),
  message: z.string(),
});

export const integrationSchema = z
  .object({
    id: z.string().uuid(),
    provider: z.string(),
    name: z.string(),
    scope: scopeSchema.nullable().meta({ description: 'null: every supplier' }),
    auto_sync: z.boolean().meta({ description: 'A nightly sync (a Temporal Schedule) when on' }),
    credentials_set: z
      .array(z.string())
      .meta({ description: 'Names of the saved actor fields; their values are never returned' }),
    test_status: z
      .enum(['untested', 'passed', 'failed'])
      .meta({ description: 'Must be passed before a sync; new credentials make it untested' }),
    tested_at: z.string().datetime().nullable(),
    test_steps: z.array(testStepSchema).nullable(),
    last_successful_sync_at: z.string().datetime().nullable(),
    last_synced_through: dateString
      .nullable()
      .meta({ description: 'The last day the last successful sync covered; a scheduled sync starts from it' }),
    running_sync_id: z.string().uuid().nullable(),
    schedule: z
      .object({
        schedule_id: z.string().meta({ description: 'The Temporal Schedule id (visible and pausable in Temporal UI)' }),
        time_utc: z.string().meta({ description: 'HH:MM, every night' }),
        paused: z.boolean(),
      })
      .nullable()
      .meta({ description: 'The nightly auto-sync; null until auto_sync was first turned on' }),
    suppliers_refreshed_at: z.string().datetime().nullable(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .meta({ id: 'Integration' });

export const createIntegrationSchema = z
  .object({
    provider: z.string().min(1).max(64),
    name: z.string().trim().min(1).max(200),
    credentials: z.record(z.string(), z.unknown()),
    auto_sync: z.boolean().optional(),
  })
  .strict();

const patchIntegrationInput = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    scope: scopeSchema.nullable().optional(),
    auto_sync: z.boolean().optional(),
    credentials: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'Fields to replace; fields not sent keep their saved value' }),
  })
  .strict();

// What a client reads it can write back (docs/invoices.md): read-only fields are accepted and dropped.
export const patchIntegrationSchema = acceptingReadShape(patchIntegrationInput, integrationSchema);

export const testResultSchema = z
  .object({ result: z.enum(['passed', 'failed']), steps: z.array(testStepSchema), tested_at: z.string().datetime() })
  .meta({ id: 'IntegrationTestResult' });

export const integrationSupplierSchema = z
  .object({
    id: z.string().uuid().meta({ description: 'Use in scope.supplier_ids' }),
    external_id: z.string().meta({ description: "The provider's own id" }),
    name: z.string(),
    org_number: z.string().nullable(),
    refreshed_at: z.string().datetime(),
  })
  .meta({ id: 'IntegrationSupplier' });

export const startSyncSchema = z
  .object({
    date_from: dateString.optional(),
    date_through: dateString.optional(),
    scope: scopeSchema.optional(),
  })
  .strict()
  .optional();

export const syncSchema = z
  .object({
    id: z.string().uuid().meta({ description: 'Also its workflow run id' }),
    workflow_run_id: z.string().uuid(),
    integration_id: z.string().uuid(),
    status: z.enum(RUN_STATUSES),
    trigger: z.enum(['manual', 'schedule']),
    date_from: dateString,
    date_through: dateString,
    scope: scopeSchema.nullable(),
    progress: z.object({
      found: z.number().int().meta({ description: 'Invoices found so far' }),
      imported: z.number().int(),
      duplicate: z.number().int().meta({ description: 'Already imported (by a sync or an upload)' }),
      not_invoice: z.number().int(),
      failed: z.number().int(),
      pending: z.number().int(),
      complete: z.boolean().meta({ description: 'false while pages are still being read' }),
    }),
    pages_done: z.number().int(),
    failure: z.object({ code: z.string(), message: z.string() }).nullable(),
    attempt: z.number().int(),
    created_at: z.string().datetime(),
    started_at: z.string().datetime().nullable(),
    finished_at: z.string().datetime().nullable(),
  })
  .meta({ id: 'Sync' });

export const listQuery = z.object({ ...pageParams(['created_at']) });
export const supplierListQuery = z.object({ ...pageParams(['name']) });

export type IntegrationView = z.infer<typeof integrationSchema>;
export type SyncView = z.infer<typeof syncSchema>;
