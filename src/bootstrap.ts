import type { Config } from './config.js';
import { createDbWithPool, poolReader } from './db/client.js';
import type { AppDeps } from './deps.js';
import { CursorCodec } from './http/pagination.js';
import { RequestRateLimiter } from './http/rate-limit.js';
import { createLogger } from './logger.js';
import { productionRunTypes, RunTypeRegistry, type RunType } from './temporal/run-types.js';
import { ObjectStorage } from './storage/object-storage.js';
import { connectTemporal } from './temporal/client.js';

export function createStorage(config: Config): ObjectStorage {
  return new ObjectStorage({
    endpoint: config.S3_ENDPOINT,
    publicEndpoint: config.S3_PUBLIC_ENDPOINT,
    accessKey: config.S3_ACCESS_KEY,
    secretKey: config.S3_SECRET_KEY,
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
  });
}

export async function createAppDeps(config: Config, extraRunTypes: RunType[] = []): Promise<AppDeps> {
  const storage = createStorage(config);
  await storage.ensureBucket();
  const logger = createLogger(config.LOG_LEVEL, 'api');
  const { db, pool } = createDbWithPool(
    config.DATABASE_URL,
    10,
    (err) => logger.warn({ err }, 'database connection lost'),
    {
      statementTimeoutSeconds: config.DATABASE_STATEMENT_TIMEOUT_SECONDS,
    },
  );
  return {
    config,
    db,
    pool,
    reader: poolReader(pool),
    temporal: await connectTemporal(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE),
    storage,
    logger,
    cursors: new CursorCodec(config.CURSOR_SECRET),
    rateLimiter: new RequestRateLimiter({
      store: config.RATE_LIMIT_STORE,
      pool,
      requests: { points: config.RATE_LIMIT_REQUESTS, windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS },
      authFailures: {
        points: config.RATE_LIMIT_AUTH_FAILURES,
        windowSeconds: config.RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS,
      },
    }),
    runTypes: new RunTypeRegistry([...productionRunTypes, ...extraRunTypes]),
  };
}

export async function closeAppDeps(deps: AppDeps): Promise<void> {
  await deps.temporal.connection.close().catch(() => undefined);
  await deps.db.$disconnect();
  await deps.pool.end().catch(() => undefined);
}
