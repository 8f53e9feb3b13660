import { inject } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { RunTypeRegistry } from '../../src/temporal/run-types.js';
import { startRun } from '../../src/runs/service.js';
import { testRunTypes } from '../../src/runs/test-run-types.js';
import type { TestItemsInput } from '../../workflows/testing.js';
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
