import { createApp } from './app.js';
import { closeAppDeps, createAppDeps } from './bootstrap.js';
import { loadConfig } from './config.js';
import { purgeExpiredIdempotencyRecords } from './http/idempotency.js';
import { metricsApp } from './http/metrics.js';
import { listenApi } from './http/server.js';
import { testRunTypes } from './runs/test-run-types.js';

// Under the 10 s after which `npm start` (src/infra/process.ts) and most process managers kill.
const SHUTDOWN_GRACE_MS = 8_000;

// The API process: `npm run api`. Configuration: see README, "Configuration".
async function main(): Promise<void> {
  const config = loadConfig();
  const deps = await createAppDeps(config, config.ENABLE_TEST_WORKFLOWS ? testRunTypes : []);
  const app = createApp(deps);
  const api = await listenApi(app, config.PORT, config.HOST);
  deps.logger.info({ port: config.PORT }, `API listening on http://localhost:${config.PORT}`);
  // Prometheus metrics on a port of their own, when configured (never on the public port).
  const metrics =
    config.METRICS_PORT === undefined ? null : await listenApi(metricsApp(), config.METRICS_PORT, config.METRICS_HOST);
  if (metrics) deps.logger.info({ url: `${metrics.url}/metrics` }, 'metrics listening');
  const purge = setInterval(() => {
    purgeExpiredIdempotencyRecords(deps.db, config.IDEMPOTENCY_RETENTION_HOURS).catch((err) =>
      deps.logger.warn({ err }, 'idempotency purge failed'),
    );
  }, 3_600_000);

  const shutdown = async (signal: string) => {
    deps.logger.info({ signal }, 'API shutting down');
    clearInterval(purge);
    // Requests under way (an upload, an export) get a moment to finish.
    await Promise.all([api.close(SHUTDOWN_GRACE_MS), metrics?.close()]);
    await closeAppDeps(deps);
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
