import { inject } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { RunTypeRegistry } from '../../src/temporal/run-types.js';
import { startRun } from '../../src/runs/service.js';
import { testRunTypes } from '../../src/runs/test-run-types.js';
import { DISPATCH_SCHEDULE_ID } from '../../src/notifications/schedules.js';
import type { TestItemsInput } from '../../workflows/testing.js';
import { eventually } from './api.js';
import { testDb, type Tenant } from './tenants.js';

// Starts runs of the test-only workflow through the same service the API uses.

let temporal: Client | null = null;
export async function testTemporal(): Promise<Client> {
  if (!temporal) {
    const connection = await Connection.connect({ address: inject('stackEnv').TEMPORAL_ADDRESS! });
    temporal = new Client({ connection });
  }
  return temporal;
}

// Returns once the notification dispatch Schedule has fired `count` times after `since` and those
// dispatches have finished: what a test waits for before it says that nothing more was sent.
export async function dispatchesFinished(count = 2, since = new Date()): Promise<void> {
  const temporal = await testTemporal();
  const schedule = temporal.schedule.getHandle(DISPATCH_SCHEDULE_ID);
  const firedSince = (description: Awaited<ReturnType<typeof schedule.describe>>) =>
    description.info.recentActions.filter((action) => action.takenAt > since);
  const described = await eventually(
    () => schedule.describe(),
    (description) => firedSince(description).length >= count,
    60_000,
  );
  for (const { action } of firedSince(described))
    await temporal.workflow.getHandle(action.workflow.workflowId, action.workflow.firstExecutionRunId).result();
}

export async function startTestRun(
  tenant: Tenant,
  input: TestItemsInput,
  type: 'test_items' | 'test_resumable' = 'test_items',
  owner = { type: 'test', id: tenant.organizationId },
) {
  const config = loadConfig({ ...process.env, ...inject('stackEnv') });
  const run = await startRun(
    {
      db: testDb(),
      temporal: await testTemporal(),
      config,
      runTypes: new RunTypeRegistry(testRunTypes),
      logger: createLogger('silent', 'test'),
    },
    { organizationId: tenant.organizationId, type, input: input as unknown as Record<string, unknown>, owner },
  );
  return run.id;
}
