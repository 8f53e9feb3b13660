import type { Config } from '../src/config.js';
import { integrationAddressPolicyOf } from '../src/notifications/address-policy.js';
import { randomUUID } from 'node:crypto';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { Prisma, type Db } from '../src/db/client.js';
import { md5Of, storageKeyFor } from '../src/documents/service.js';
import type { Integration } from '../src/generated/prisma/client.js';
import { IntegrationKeyError } from '../src/integrations/crypto.js';
import { providerById } from '../src/integrations/providers/index.js';
import {
  DEFAULT_REQUEST_TIMEOUT_MS,
  ProviderError,
  type InvoicePage,
  type ProviderConnection,
} from '../src/integrations/providers/provider.js';
import { decryptCredentials, keyringOf } from '../src/integrations/service.js';
import { insertSyncRun, syncWorkflowIdOf, type SyncCheckpoint, type SyncInput } from '../src/integrations/syncs.js';
import { reserveProcessingCapacity } from '../src/invoices/capacity.js';
import { isTerminal, type RunFailure } from '../src/runs/read-model.js';
import type { RunArgs } from '../src/runs/run-args.js';
import { deterministicUuid } from '../src/shared/ids.js';
import type { Logger } from '../src/logger.js';
import type { ObjectStorage } from '../src/storage/object-storage.js';

// The I/O of syncs and supplier refreshes. Credentials are read from the database by integration
// id and decrypted here, in the worker: they never travel through a workflow's arguments, results
// or history. Provider failures surface with the provider's customer-facing message only.

export interface SyncImportResult {
  outcome: 'imported' | 'duplicate' | 'not_invoice';
  invoice_id: string | null;
  import_id: string | null;
}

export type StagedInvoice =
  { kind: 'duplicate'; invoiceId: string } | { kind: 'import'; importId: string; importRunId: string };

// A run item's key is `<provider prefix>:<the provider's reference>` (see the providers).
export function referenceOf(itemKey: string): string {
  return itemKey.slice(itemKey.indexOf(':') + 1);
}

function failureOf(error: unknown): never {
  if (error instanceof ProviderError) {
    const type = `provider_${error.kind}`;
    throw error.retryable
      ? ApplicationFailure.retryable(error.message, type)
      : ApplicationFailure.nonRetryable(error.message, type);
  }
  if (error instanceof IntegrationKeyError) {
    throw ApplicationFailure.nonRetryable(
      'The saved credentials cannot be read with the keys this server holds.',
      'integration_keys',
    );
  }
  throw error;
}

function heartbeat(detail?: unknown): void {
  try {
    Context.current().heartbeat(detail);
  } catch {
    // Outside an activity (a local call in tests): nothing to report to.
  }
}

function cancellationSignal(): AbortSignal | undefined {
  try {
    return Context.current().cancellationSignal;
  } catch {
    return undefined;
  }
}

const SYNC_IMPORT_POLL_MS = 500;

export function createIntegrationActivities(deps: {
  db: Db;
  storage: ObjectStorage;
  logger: Logger;
  integrationKeys?: string;
  config?: Config;
}) {
  const { db, storage } = deps;
  const addressPolicy = integrationAddressPolicyOf(deps.config);
  const requestTimeoutMs =
    (deps.config?.INTEGRATION_REQUEST_TIMEOUT_SECONDS ?? DEFAULT_REQUEST_TIMEOUT_MS / 1000) * 1000;

  async function integrationOf(integrationId: string): Promise<Integration> {
    const integration = await db.integration.findUnique({ where: { id: integrationId } });
    if (!integration) throw ApplicationFailure.nonRetryable('The integration was deleted.', 'integration_deleted');
    return integration;
  }

  function connect(integration: Integration): ProviderConnection {
    const provider = providerById(integration.provider);
    if (!provider)
      throw ApplicationFailure.nonRetryable(
        `The provider ${integration.provider} is not supported any more.`,
        'provider_unknown',
      );
    try {
      const credentials = provider.credentialsSchema.parse(
        decryptCredentials(keyringOf(deps.integrationKeys), integration),
      );
      return provider.open(credentials, { heartbeat, signal: cancellationSignal(), addressPolicy, requestTimeoutMs });
    } catch (error) {
      if (error instanceof IntegrationKeyError) failureOf(error);
      throw ApplicationFailure.nonRetryable('The saved credentials cannot be read.', 'integration_credentials');
    }
  }

  async function syncOf(runId: string) {
    const run = await db.workflowRun.findUniqueOrThrow({ where: { id: runId } });
    const input = run.input as unknown as SyncInput;
    return { run, input, integration: await integrationOf(input.integrationId) };
  }

  async function externalSupplierIds(integrationId: string, supplierIds: string[] | null): Promise<string[] | null> {
    if (!supplierIds) return null;
    const rows = await db.integrationSupplier.findMany({
      where: { integrationId, id: { in: supplierIds } },
      select: { externalId: true },
    });
    return rows.map((row) => row.externalId);
  }

  return {
    // One page of the period's invoices, from the page the checkpoint names.
    async listSyncPage(runId: string, page: string | null): Promise<InvoicePage> {
      const { input, integration } = await syncOf(runId);
      try {
        const suppliers = await externalSupplierIds(integration.id, input.supplierIds);
        return await connect(integration).listInvoices(
          { from: input.dateFrom, through: input.dateThrough },
          page,
          suppliers,
        );
      } catch (error) {
        return failureOf(error);
      }
    },

    // Items of the run not finished by an earlier attempt (a resumed sync works them first).
    async unfinishedSyncItems(runId: string): Promise<{ id: string; key: string }[]> {
      return db.workflowRunItem.findMany({
        where: { runId, status: { in: ['queued', 'running'] } },
        orderBy: { position: 'asc' },
        select: { id: true, key: true },
        take: 10_000,
      });
    },

    // Fetches one invoice's files and records them as the normal import records them (documents,
    // an import of source `sync`, its run), with ids derived from the sync and the item, so a
    // repeat finds what an earlier attempt wrote. A file already imported (the same bytes, by a
    // sync or an upload) is a duplicate at once, without storing it again.
    async stageSyncedInvoice(runId: string, itemKey: string): Promise<StagedInvoice> {
      const importId = deterministicUuid(`sync-import:${runId}:${itemKey}`);
      const importRunId = deterministicUuid(`sync-import-run:${runId}:${itemKey}`);
      const earlier = await db.invoiceImport.findUnique({ where: { id: importId }, select: { id: true } });
      if (earlier) return { kind: 'import', importId, importRunId };
      const { run, integration } = await syncOf(runId);
      const organizationId = run.organizationId;
      let files;
      try {
        files = await connect(integration).fetchInvoiceFiles({
          key: itemKey,
          reference: referenceOf(itemKey),
          label: itemKey,
          supplierExternalId: null,
        });
      } catch (error) {
        return failureOf(error);
      }
      if (files.length === 0)
        throw ApplicationFailure.nonRetryable('The provider has no file for this invoice.', 'invoice_without_file');
      const md5 = md5Of(files[0]!.bytes);
      const existing = await db.invoice.findFirst({
        where: { organizationId, primaryMd5: md5, deletedAt: null },
        select: { id: true },
      });
      if (existing) return { kind: 'duplicate', invoiceId: existing.id };
      const documents: Prisma.DocumentCreateManyInput[] = [];
      for (const [index, file] of files.entries()) {
        const id = deterministicUuid(`sync-document:${runId}:${itemKey}:${index}`);
        const storageKey = storageKeyFor(organizationId, id, file.fileName);
        await storage.put(storageKey, file.bytes, file.mimeType);
        heartbeat();
        documents.push({
          id,
          organizationId,
          fileName: file.fileName,
          mimeType: file.mimeType,
          fileSize: file.bytes.length,
          category: index === 0 ? 'invoice' : 'attachment',
          storageKey,
          md5: index === 0 ? md5 : md5Of(file.bytes),
          uploadedAt: new Date(),
        });
      }
      const importArgs: RunArgs = { runId: importRunId, organizationId, input: { importId } };
      try {
        await db.$transaction(async (tx) => {
          await reserveProcessingCapacity(tx, organizationId);
          await tx.document.createMany({ data: documents, skipDuplicates: true });
          await tx.invoiceImport.create({
            data: {
              id: importId,
              organizationId,
              primaryDocumentId: documents[0]!.id,
              attachmentDocumentIds: documents.slice(1).map((d) => d.id),
              source: 'sync',
              workflowRunId: importRunId,
            },
          });
          await tx.workflowRun.create({
            data: {
              id: importRunId,
              organizationId,
              type: 'import',
              ownerType: 'invoice_import',
              ownerId: importId,
              input: importArgs.input as Prisma.InputJsonValue,
              createdByUserId: run.createdByUserId,
            },
          });
        });
      } catch (error) {
        if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')
          return { kind: 'import', importId, importRunId };
        const code = (error as { code?: string }).code;
        if (code === 'invoice_processing_capacity_exhausted') {
          throw ApplicationFailure.nonRetryable(
            'The organization has no invoice processing capacity left.',
            'invoice_processing_capacity_exhausted',
          );
        }
        throw error;
      }
      return { kind: 'import', importId, importRunId };
    },

    // Waits for the import's run to end and reports what became of the invoice; a failed import
    // fails the sync's item with the import's own reason.
    async awaitSyncImport(importId: string): Promise<SyncImportResult> {
      for (;;) {
        const invoiceImport = await db.invoiceImport.findUniqueOrThrow({ where: { id: importId } });
        const run = await db.workflowRun.findUniqueOrThrow({
          where: { id: invoiceImport.workflowRunId },
          select: { status: true, failure: true },
        });
        if (isTerminal(run.status)) {
          if (run.status === 'completed' && invoiceImport.outcome) {
            return {
              outcome: invoiceImport.outcome,
              invoice_id: invoiceImport.outcome === 'not_invoice' ? null : invoiceImport.invoiceId,
              import_id: importId,
            };
          }
          const failure = ((invoiceImport.failure ?? run.failure) as RunFailure | null) ?? {
            code: 'import_failed',
            message: 'The import failed.',
          };
          throw ApplicationFailure.nonRetryable(failure.message, failure.code);
        }
        heartbeat();
        await new Promise((resolve) => setTimeout(resolve, SYNC_IMPORT_POLL_MS));
      }
    },

    // A sync that completed moves the integration's "last successful sync" forward.
    async recordSyncSuccess(runId: string): Promise<void> {
      const run = await db.workflowRun.findUniqueOrThrow({ where: { id: runId } });
      if (run.status !== 'completed') return;
      const input = run.input as unknown as SyncInput;
      const through = new Date(`${input.dateThrough}T00:00:00Z`);
      await db.integration.updateMany({
        where: { id: input.integrationId },
        data: { lastSuccessfulSyncAt: run.finishedAt ?? new Date() },
      });
      await db.integration.updateMany({
        where: { id: input.integrationId, OR: [{ lastSyncedThrough: null }, { lastSyncedThrough: { lt: through } }] },
        data: { lastSyncedThrough: through },
      });
    },

    async refreshIntegrationSuppliers(integrationId: string): Promise<{ suppliers: number }> {
      const integration = await integrationOf(integrationId);
      let suppliers;
      try {
        suppliers = await connect(integration).listSuppliers();
      } catch (error) {
        return failureOf(error);
      }
      const refreshedAt = new Date();
      await db.$transaction(async (tx) => {
        for (const supplier of suppliers) {
          await tx.integrationSupplier.upsert({
            where: { integrationId_externalId: { integrationId, externalId: supplier.externalId } },
            create: {
              id: randomUUID(),
              integrationId,
              organizationId: integration.organizationId,
              externalId: supplier.externalId,
              name: supplier.name,
              orgNumber: supplier.orgNumber,
              refreshedAt,
            },
            update: { name: supplier.name, orgNumber: supplier.orgNumber, refreshedAt },
          });
        }
        // Suppliers the provider no longer lists go (a saved scope keeps their ids, matching nothing).
        await tx.integrationSupplier.deleteMany({ where: { integrationId, refreshedAt: { lt: refreshedAt } } });
        await tx.integration.update({ where: { id: integrationId }, data: { suppliersRefreshedAt: refreshedAt } });
      });
      return { suppliers: suppliers.length };
    },

    // A nightly firing of the Schedule: a sync since the last successful one (from its last day,
    // so invoices dated that day but entered after it are found; duplicates are skipped), through
    // today. Nothing when auto_sync is off, the integration has not passed its test, or a sync runs.
    async prepareScheduledSync(
      integrationId: string,
    ): Promise<{ workflowId: string; args: RunArgs<SyncInput> } | null> {
      const integration = await db.integration.findUnique({ where: { id: integrationId } });
      if (!integration || !integration.autoSync || integration.testStatus !== 'passed') return null;
      const today = new Date().toISOString().slice(0, 10);
      const from =
        integration.lastSyncedThrough?.toISOString().slice(0, 10) ??
        new Date(Date.now() - 31 * 86_400_000).toISOString().slice(0, 10);
      const input: SyncInput = {
        integrationId,
        dateFrom: from <= today ? from : today,
        dateThrough: today,
        supplierIds: (integration.scope as { supplier_ids: string[] } | null)?.supplier_ids ?? null,
        trigger: 'schedule',
      };
      try {
        const run = await insertSyncRun(db, integration, input, null);
        return {
          workflowId: syncWorkflowIdOf(integrationId),
          args: { runId: run.id, organizationId: integration.organizationId, input },
        };
      } catch (error) {
        if ((error as { code?: string }).code === 'sync_already_running') return null;
        throw error;
      }
    },

    // The scheduled sync could not start (one was already running in Temporal): its row goes.
    async dropScheduledSync(runId: string): Promise<void> {
      await db.workflowRun.deleteMany({ where: { id: runId, status: 'queued' } });
    },

    async loadSyncCheckpoint(runId: string): Promise<SyncCheckpoint> {
      const run = await db.workflowRun.findUniqueOrThrow({ where: { id: runId }, select: { checkpoint: true } });
      return (run.checkpoint as SyncCheckpoint | null) ?? { page: null, pagesDone: 0, done: false };
    },
  };
}

export type IntegrationActivities = ReturnType<typeof createIntegrationActivities>;
