import { fileURLToPath } from 'node:url';
import { NativeConnection, Runtime, Worker, type LogLevel, type LogMetadata } from '@temporalio/worker';
import { createActivities } from '../activities/index.js';
import { createStorage } from './bootstrap.js';
import { loadConfig, type Config } from './config.js';
import { createDb } from './db/client.js';
import { reconcileSchedules } from './integrations/schedules.js';
import { createLogger, type Logger } from './logger.js';
import { closeIsolation, configureIsolation } from './shared/isolated.js';
import { heartbeatWhileRunning } from './temporal/activity-heartbeats.js';
import { connectTemporal } from './temporal/client.js';
import { ensureNotificationSchedules } from './notifications/schedules.js';

export function workflowsPath(includeTestWorkflows: boolean): string {
  const file = includeTestWorkflows ? '../workflows/testing.ts' : '../workflows/index.ts';
  return fileURLToPath(new URL(file, import.meta.url));
}

let runtimeInstalled = false;

// Temporal's SDK logs through our JSON logger, at our level, like every other line of the worker.
function installRuntimeLogger(logger: Logger): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const write = (level: LogLevel, message: string, meta?: LogMetadata) => {
    const method = ({ TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const)[level];
    logger[method](meta ?? {}, message);
  };
  Runtime.install({
    logger: {
      log: write,
      trace: (m, meta) => write('TRACE', m, meta),
      debug: (m, meta) => write('DEBUG', m, meta),
      info: (m, meta) => write('INFO', m, meta),
      warn: (m, meta) => write('WARN', m, meta),
      error: (m, meta) => write('ERROR', m, meta),
    },
  });
}

// Builds the worker that runs our workflows and activities on the service's task queue.
export async function createWorker(config: Config) {
  const logger = createLogger(config.LOG_LEVEL, 'worker');
  installRuntimeLogger(logger);
  configureIsolation({ helpers: config.PARSER_HELPERS });
  const db = createDb(config.DATABASE_URL, 10, {
    statementTimeoutSeconds: config.WORKER_DATABASE_STATEMENT_TIMEOUT_SECONDS,
  });
  const storage = createStorage(config);
  await storage.ensureBucket();
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    workflowsPath: workflowsPath(config.ENABLE_TEST_WORKFLOWS),
    activities: createActivities(
      { db, storage, logger, integrationKeys: config.INTEGRATION_KEYS, config },
      { includeTestActivities: config.ENABLE_TEST_WORKFLOWS },
    ),
    // Explicit, from config (docs/deployment.md): Temporal's defaults would let one worker
    // start far more parses and transactions at once than its cores and connections can serve.
    maxConcurrentActivityTaskExecutions: config.WORKER_MAX_CONCURRENT_ACTIVITIES,
    maxConcurrentLocalActivityExecutions: config.WORKER_MAX_CONCURRENT_LOCAL_ACTIVITIES,
    maxConcurrentWorkflowTaskExecutions: config.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS,
    shutdownGraceTime: config.WORKER_SHUTDOWN_GRACE_SECONDS * 1000,
    // Another replica takes over a dead worker's activities after their heartbeat timeout.
    interceptors: { activity: [heartbeatWhileRunning] },
  });
  await ensureNotificationSchedules(config);
  const close = async () => {
    closeIsolation();
    await connection.close().catch(() => undefined);
    await db.$disconnect();
  };
  return { worker, logger, close };
}

// Each integration's nightly Schedule in step with its auto_sync (changes made while Temporal was
// unreachable, or Schedules edited or deleted in Temporal UI). Beside the worker's start: a
// failure is logged and never keeps the worker from running.
async function reconcileIntegrationSchedules(config: Config, logger: Logger): Promise<void> {
  const db = createDb(config.DATABASE_URL, 1);
  try {
    const temporal = await connectTemporal(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE);
    try {
      const counts = await reconcileSchedules(db, temporal, config, logger);
      logger.info(counts, 'integration schedules reconciled');
    } finally {
      await temporal.connection.close().catch(() => undefined);
    }
  } catch (error) {
    logger.warn({ err: error }, 'could not reconcile integration schedules');
  } finally {
    await db.$disconnect();
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const { worker, logger, close } = await createWorker(config);
  logger.info({ task_queue: config.TEMPORAL_TASK_QUEUE }, 'worker started');
  void reconcileIntegrationSchedules(config, logger);
  // Worker.run() handles SIGINT/SIGTERM itself: it stops polling and gives running activities
  // WORKER_SHUTDOWN_GRACE_SECONDS to finish.
  await worker.run();
  await close();
  logger.info('worker stopped');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
