import {
  integrationAddressPolicyOf,
  staticDestinationProblem,
  type AddressPolicy,
} from '../notifications/address-policy.js';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { Prisma, type Db } from '../db/client.js';
import type { Integration } from '../generated/prisma/client.js';
import { errors, zodIssuesToDetails } from '../http/errors.js';
import { openCredentials, parseKeyring, sealCredentials, type Keyring } from './crypto.js';
import { PROVIDERS, providerById } from './providers/index.js';
import type { Provider, TestStep } from './providers/provider.js';
import { removeSchedule, scheduleIdOf, upsertSchedule } from './schedules.js';
import type { IntegrationView } from './schemas.js';

type Deps = Pick<AppDeps, 'db' | 'temporal' | 'config' | 'logger'>;

export interface IntegrationScope {
  supplier_ids: string[];
}

const keyrings = new Map<string, Keyring>();

// The keys of INTEGRATION_KEYS, parsed once. Without them no credentials can be stored or read.
export function keyringOf(setting: string | undefined): Keyring {
  if (!setting) throw errors.serviceUnavailable('Integrations are not configured on this server.');
  let keyring = keyrings.get(setting);
  if (!keyring) {
    keyring = parseKeyring(setting);
    keyrings.set(setting, keyring);
  }
  return keyring;
}

export function listProviders() {
  return PROVIDERS.map((provider) => ({
    id: provider.id,
    name: provider.name,
    connect: provider.connect,
    credentials_schema: z.toJSONSchema(provider.credentialsSchema, { io: 'input', unrepresentable: 'any' }),
    scope: provider.scopeDescription,
  }));
}

function providerOf(id: string): Provider {
  const provider = providerById(id);
  if (!provider) throw new Error(`integration of unknown provider ${id}`);
  return provider;
}

function validCredentials(
  provider: Provider,
  credentials: Record<string, unknown>,
  policy: AddressPolicy,
): Record<string, unknown> {
  const parsed = provider.credentialsSchema.safeParse(credentials);
  if (!parsed.success) {
    throw errors.validation(
      `The credentials do not fit the ${provider.name} provider (see GET /v1/integration-providers).`,
      zodIssuesToDetails(parsed.error, 'credentials'),
    );
  }
  // An address an Admin sets is where the worker connects: the same policy as webhooks (SSRF).
  const refused = provider.addressFields.flatMap((field) => {
    const problem = staticDestinationProblem(String(parsed.data[field]), policy);
    return problem ? [{ field: `credentials.${field}`, message: problem }] : [];
  });
  if (refused.length > 0) throw errors.validation('The service does not connect to this address.', refused);
  return parsed.data;
}

// Saved secrets go only to the address they were saved for: a PATCH that changes an address field
// must send every secret field again, or an Admin could point the integration at a host of theirs
// and have the next test or sync hand it the tokens.
function assertSecretsSentWithNewAddress(
  provider: Provider,
  saved: Record<string, unknown>,
  merged: Record<string, unknown>,
  sent: Record<string, unknown>,
): void {
  const moved = provider.addressFields.filter((field) => merged[field] !== saved[field]);
  if (moved.length === 0) return;
  const missing = provider.secretFields.filter((field) => sent[field] === undefined);
  if (missing.length === 0) return;
  const changed = moved.join(', ');
  throw errors.validation(
    `Changing ${changed} needs the secrets again: send ${missing.join(', ')} in the same request.`,
    missing.map((field) => ({ field: `credentials.${field}`, message: `must be sent again when ${changed} changes` })),
  );
}

export function decryptCredentials(
  keyring: Keyring,
  integration: Pick<Integration, 'id' | 'organizationId' | 'credentialsKeyId' | 'credentialsCiphertext'>,
) {
  return openCredentials(
    keyring,
    { organizationId: integration.organizationId, integrationId: integration.id },
    { keyId: integration.credentialsKeyId, ciphertext: integration.credentialsCiphertext },
  );
}

function sealed(keyring: Keyring, organizationId: string, integrationId: string, credentials: Record<string, unknown>) {
  const { keyId, ciphertext } = sealCredentials(keyring, { organizationId, integrationId }, credentials);
  return {
    credentialsKeyId: keyId,
    credentialsCiphertext: ciphertext,
    credentialKeys: Object.keys(credentials).sort(),
  };
}

export async function findIntegration(
  deps: Pick<AppDeps, 'db'>,
  organizationId: string,
  id: string,
): Promise<Integration> {
  const integration = await deps.db.integration.findFirst({ where: { id, organizationId } });
  if (!integration) throw errors.notFound('integration');
  return integration;
}

export function scopeOf(integration: Pick<Integration, 'scope'>): IntegrationScope | null {
  return (integration.scope as IntegrationScope | null) ?? null;
}

// Scope names suppliers of this integration (GET /v1/integrations/{id}/suppliers).
export async function assertKnownSuppliers(
  db: Db,
  integrationId: string,
  supplierIds: string[],
  field: string,
): Promise<void> {
  const known = await db.integrationSupplier.findMany({
    where: { integrationId, id: { in: supplierIds } },
    select: { id: true },
  });
  const unknown = supplierIds.filter((id) => !known.some((row) => row.id === id));
  if (unknown.length > 0) {
    throw errors.validation(
      'The scope names suppliers this integration does not know; refresh its suppliers and use their ids.',
      unknown.slice(0, 20).map((id) => ({ field, message: `${id} is not a supplier of this integration` })),
    );
  }
}

export async function createIntegration(
  deps: Deps,
  organizationId: string,
  body: { provider: string; name: string; credentials: Record<string, unknown>; auto_sync?: boolean },
): Promise<Integration> {
  const provider = providerById(body.provider);
  if (!provider) {
    throw errors.validation('Unknown provider.', [
      { field: 'provider', message: `must be one of ${PROVIDERS.map((p) => p.id).join(', ')}` },
    ]);
  }
  if (provider.connect === 'application_only') {
    throw errors.validation(`${provider.name} signs users in on its own site; connect it in the application.`, [
      { field: 'provider', message: 'is connected in the application only' },
    ]);
  }
  const credentials = validCredentials(provider, body.credentials, integrationAddressPolicyOf(deps.config));
  const keyring = keyringOf(deps.config.INTEGRATION_KEYS);
  const id = randomUUID();
  // The row and its (paused unless auto_sync) Schedule together: a Temporal failure writes nothing.
  return deps.db.$transaction(async (tx) => {
    const integration = await tx.integration.create({
      data: {
        id,
        organizationId,
        provider: provider.id,
        name: body.name,
        autoSync: body.auto_sync ?? false,
        ...sealed(keyring, organizationId, id, credentials),
      },
    });
    await withTemporal(deps, () => upsertSchedule(deps.temporal, deps.config, integration));
    return integration;
  });
}

export async function patchIntegration(
  deps: Deps,
  integration: Integration,
  body: { name?: string; scope?: IntegrationScope | null; auto_sync?: boolean; credentials?: Record<string, unknown> },
): Promise<Integration> {
  const data: Prisma.IntegrationUpdateInput = {};
  // Only what differs from the record is written: the read shape sent back changes nothing, not
  // even updated_at (docs/integrations.md).
  if (body.name !== undefined && body.name !== integration.name) data.name = body.name;
  if (body.scope !== undefined && !sameScope(body.scope, scopeOf(integration))) {
    if (body.scope) await assertKnownSuppliers(deps.db, integration.id, body.scope.supplier_ids, 'scope.supplier_ids');
    data.scope = body.scope ? { supplier_ids: [...new Set(body.scope.supplier_ids)] } : Prisma.DbNull;
  }
  if (body.credentials !== undefined) {
    const keyring = keyringOf(deps.config.INTEGRATION_KEYS);
    // Fields not sent keep their saved value; new credentials need a new test before a sync.
    const provider = providerOf(integration.provider);
    const saved = decryptCredentials(keyring, integration);
    const merged = validCredentials(
      provider,
      { ...saved, ...body.credentials },
      integrationAddressPolicyOf(deps.config),
    );
    assertSecretsSentWithNewAddress(provider, saved, merged, body.credentials);
    Object.assign(data, sealed(keyring, integration.organizationId, integration.id, merged), {
      testStatus: 'untested',
      testSteps: Prisma.DbNull,
      testedAt: null,
    });
  }
  if (body.auto_sync !== undefined && body.auto_sync !== integration.autoSync) data.autoSync = body.auto_sync;
  if (Object.keys(data).length === 0) return integration;
  return deps.db.$transaction(async (tx) => {
    const updated = await tx.integration.update({ where: { id: integration.id }, data });
    if (body.auto_sync !== undefined && body.auto_sync !== integration.autoSync) {
      await withTemporal(deps, () => upsertSchedule(deps.temporal, deps.config, updated));
    }
    return updated;
  });
}

// The same suppliers, whatever their order or repeats.
function sameScope(sent: IntegrationScope | null, current: IntegrationScope | null): boolean {
  if (!sent || !current) return sent === current;
  const wanted = new Set(sent.supplier_ids);
  return wanted.size === current.supplier_ids.length && current.supplier_ids.every((id) => wanted.has(id));
}

// Removes the integration and its Schedule and stops a running sync; imported invoices stay.
export async function deleteIntegration(deps: Deps, integration: Integration): Promise<void> {
  await withTemporal(deps, () => removeSchedule(deps.temporal, integration.id));
  const running = await runningSync(deps.db, integration.id);
  if (running) {
    await deps.temporal.workflow
      .getHandle(running.workflowId ?? running.id)
      .cancel()
      .catch((error: unknown) =>
        deps.logger.warn({ err: error, run_id: running.id }, 'could not cancel the sync of a deleted integration'),
      );
  }
  await deps.db.integration.deleteMany({ where: { id: integration.id, organizationId: integration.organizationId } });
}

async function withTemporal<T>(deps: Deps, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    deps.logger.error({ err: error }, 'Temporal schedule change failed');
    throw errors.serviceUnavailable(
      'The nightly sync schedule could not be changed right now; nothing was changed. Retry shortly.',
    );
  }
}

export async function runningSync(db: Db, integrationId: string) {
  return db.workflowRun.findFirst({
    where: { type: 'sync', ownerType: 'integration', ownerId: integrationId, status: { in: ['queued', 'running'] } },
  });
}

// Signs in and reads a few invoices; the outcome is kept on the integration. Runs in the API with
// the provider's request timeout (INTEGRATION_REQUEST_TIMEOUT_SECONDS, 30 s a request), like any
// request that waits for a third party.
export async function testIntegration(
  deps: Deps,
  integration: Integration,
): Promise<{ result: 'passed' | 'failed'; steps: TestStep[]; tested_at: string }> {
  const keyring = keyringOf(deps.config.INTEGRATION_KEYS);
  const provider = providerOf(integration.provider);
  const signal = AbortSignal.timeout(120_000);
  const addressPolicy = integrationAddressPolicyOf(deps.config);
  let steps: TestStep[];
  try {
    steps = await provider
      .open(validCredentials(provider, decryptCredentials(keyring, integration), addressPolicy), {
        heartbeat: () => undefined,
        signal,
        addressPolicy,
        requestTimeoutMs: deps.config.INTEGRATION_REQUEST_TIMEOUT_SECONDS * 1000,
      })
      .test();
  } catch (error) {
    deps.logger.warn({ err: error, integration_id: integration.id }, 'integration test failed unexpectedly');
    steps = [{ name: 'sign_in', status: 'failed', message: 'The provider could not be reached.' }];
  }
  const result =
    steps.every((step) => step.status !== 'failed') && steps.some((step) => step.status === 'passed')
      ? 'passed'
      : 'failed';
  const testedAt = new Date();
  // A credentials change while the test ran makes this result stale: it is not kept then.
  await deps.db.integration.updateMany({
    where: { id: integration.id, credentialsCiphertext: integration.credentialsCiphertext },
    data: { testStatus: result, testSteps: steps as unknown as Prisma.InputJsonValue, testedAt },
  });
  return { result, steps, tested_at: testedAt.toISOString() };
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function serializeIntegration(
  integration: Integration,
  runningSyncId: string | null,
  scheduleTimeUtc: string,
): IntegrationView {
  return {
    id: integration.id,
    provider: integration.provider,
    name: integration.name,
    scope: scopeOf(integration),
    auto_sync: integration.autoSync,
    credentials_set: integration.credentialKeys,
    test_status: integration.testStatus,
    tested_at: iso(integration.testedAt),
    test_steps: (integration.testSteps as TestStep[] | null) ?? null,
    last_successful_sync_at: iso(integration.lastSuccessfulSyncAt),
    last_synced_through: integration.lastSyncedThrough
      ? integration.lastSyncedThrough.toISOString().slice(0, 10)
      : null,
    running_sync_id: runningSyncId,
    schedule: { schedule_id: scheduleIdOf(integration.id), time_utc: scheduleTimeUtc, paused: !integration.autoSync },
    suppliers_refreshed_at: iso(integration.suppliersRefreshedAt),
    created_at: integration.createdAt.toISOString(),
    updated_at: integration.updatedAt.toISOString(),
  };
}

export async function viewIntegrations(
  deps: Pick<AppDeps, 'db' | 'config'>,
  integrations: Integration[],
): Promise<IntegrationView[]> {
  const running = await deps.db.workflowRun.findMany({
    where: {
      type: 'sync',
      ownerType: 'integration',
      ownerId: { in: integrations.map((i) => i.id) },
      status: { in: ['queued', 'running'] },
    },
    select: { id: true, ownerId: true },
  });
  return integrations.map((integration) =>
    serializeIntegration(
      integration,
      running.find((run) => run.ownerId === integration.id)?.id ?? null,
      deps.config.SYNC_SCHEDULE_TIME_UTC,
    ),
  );
}

export async function viewIntegration(
  deps: Pick<AppDeps, 'db' | 'config'>,
  integration: Integration,
): Promise<IntegrationView> {
  return (await viewIntegrations(deps, [integration]))[0]!;
}
