import { inject } from 'vitest';
import { createApp } from '../../src/app.js';
import { closeAppDeps, createAppDeps, createStorage } from '../../src/bootstrap.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { AppDeps } from '../../src/deps.js';
import { listenApi } from '../../src/http/server.js';
import { freePort } from '../../src/infra/process.js';
import { testRunTypes } from '../../src/runs/test-run-types.js';

// An API instance of the test's own, on the shared stack's PostgreSQL, Temporal and MinIO but with
// settings of its own (a small rate limit, a temporary folder to watch) or with one dependency
// pointed at a closed port, to see a real outage. Stopped by the test.

export interface OwnApi {
  url: string;
  deps: AppDeps;
  stop(): Promise<void>;
}

// Settings the API reads at start; `outage` points the database or storage at a port nothing listens on.
export async function startOwnApi(
  overrides: Record<string, string> = {},
  outage?: 'database' | 'storage',
): Promise<OwnApi> {
  const closed = `127.0.0.1:${await freePort()}`;
  const databaseOverride =
    outage === 'database' ? { DATABASE_URL: `postgresql://postgres:postgres@${closed}/ics_test` } : {};
  const config: Config = loadConfig({ ...process.env, ...inject('stackEnv'), ...overrides, ...databaseOverride });
  // Connecting to the database is lazy; storage is checked at start, so it is swapped afterwards.
  const deps = await createAppDeps(config, testRunTypes);
  if (outage === 'storage') deps.storage = createStorage({ ...config, S3_ENDPOINT: `http://${closed}` });
  return listen(deps);
}

async function listen(deps: AppDeps): Promise<OwnApi> {
  const api = await listenApi(createApp(deps), 0, '127.0.0.1');
  return {
    url: api.url,
    deps,
    stop: async () => {
      await api.close();
      await closeAppDeps(deps);
    },
  };
}
