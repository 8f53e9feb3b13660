import { createApp } from './app.js';
import { closeAppDeps, createAppDeps } from './bootstrap.js';
import { loadConfig } from './config.js';
import { purgeExpiredIdempotencyRecords } from './http/idempotency.js';
import { listenApi } from './http/server.js';
import { testRunTypes } from './runs/test-run-types.js';

// The API process: `npm run api`. Configuration: see README, "Configuration".
async function main(): Promise<void> {
  const config = loadConfig();
  const deps = await createAppDeps(config, config.ENABLE_TEST_WORKFLOWS ? testRunTypes : []);
  const app = createApp(deps);
  const api = await listenApi(app, config.PORT, config.HOST);
  deps.logger.info({ port: config.PORT }, `API listening on http://localhost:${config.PORT}`);
  const purge = setInterval(() => {
    purgeExpiredIdempotencyRecords(deps.db, config.IDEMPOTENCY_RETENTION_HOURS).catch((err) => deps.logger.warn({ err }, 'idempotency purge failed'));
  }, 3_600_000);

  const shutdown = async (signal: string) => {
    deps.logger.info({ signal }, 'API shutting down');
    clearInterval(purge);
    await api.close();
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
