import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { repoRoot } from '../../src/infra/defaults.js';
import { startEmbeddedPostgres } from '../../src/infra/embedded-postgres.js';
import { startMinio } from '../../src/infra/minio-server.js';
import { portAnswers, spawnTypeScript, waitFor } from '../../src/infra/process.js';
import { spawnTemporalDevServer, waitForTemporal } from '../../src/infra/temporal-dev-server.js';
import { supervise } from '../../src/infra/supervisor.js';

// The real stack for integration tests: a fresh embedded PostgreSQL, a Temporal dev server (in
// memory), MinIO, then the worker and the API on a free port. Nothing is mocked.

export interface TestStack {
  env: Record<string, string>;
  apiUrl: string;
  stop(): Promise<void>;
}

// Temporal is restarted when it dies; with `durable`, it keeps its state in a file, so a crash test
// can kill it and find every workflow again.
async function startSupervisedTemporal(workDir: string, port: number, durable: boolean) {
  const server = supervise(
    'temporal',
    () =>
      spawnTemporalDevServer({
        port,
        uiPort: null,
        dbFile: durable ? path.join(workDir, 'temporal.sqlite') : null,
        logFile: path.join(workDir, 'temporal.log'),
      }),
    path.join(workDir, 'temporal.pid'),
  );
  await waitForTemporal(port, server.current());
  return server;
}

// Extra PostgreSQL server flags for a benchmark's diagnosis (scripts/bench/pg-statements.ts sets them).
const diagnosticPostgresFlags = () => process.env.EMBEDDED_POSTGRES_FLAGS?.split(' ').filter(Boolean) ?? [];

export interface TestStackOptions {
  /**
   * Temporal's state in a file (the default), for stacks whose Temporal a test kills. The shared
   * stack of the integration and browser tests keeps it in memory: nothing there kills Temporal,
   * and writing each workflow step to a file was a good part of its CPU.
   */
  durableTemporal?: boolean;
  /**
   * PostgreSQL that does not wait for its disk (no fsync, no synchronous commit, no full-page
   * writes), for the test runs' stacks: their data is thrown away with the run, and PostgreSQL
   * itself is never killed (a crash of the operating system is what these settings give up).
   * Benchmarks keep the defaults, so their figures stay those of a real server.
   */
  durablePostgres?: boolean;
}

const NOT_DURABLE_POSTGRES = ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];

type StackPorts = Record<
  'pgPort' | 'temporalPort' | 'minioPort' | 'minioConsolePort' | 'apiPort' | 'metricsPort',
  number
>;

export interface PlannedTestStack {
  /** What the stack's processes and the tests read: addresses, credentials, settings. */
  env: Record<string, string>;
  apiUrl: string;
  /** Starts the servers, the worker and the API where the plan says; rejects if one does not start. */
  start(): Promise<TestStack>;
}

// Ports of the test stacks, from below Linux's ephemeral range (32768-60999 by default), so the
// outgoing connections of a busy run cannot take one between the plan and the start. Free when
// planned (nothing answers there); never planned twice in one process.
const PLANNED_PORTS = { from: 20_000, to: 32_000 };
const plannedPorts = ((globalThis as { icsPlannedPorts?: Set<number> }).icsPlannedPorts ??= new Set<number>());

async function planPort(): Promise<number> {
  for (;;) {
    const port = PLANNED_PORTS.from + Math.floor(Math.random() * (PLANNED_PORTS.to - PLANNED_PORTS.from));
    if (plannedPorts.has(port)) continue;
    plannedPorts.add(port);
    if (!(await portAnswers(port))) return port;
  }
}

export async function startTestStack(overrides: Record<string, string> = {}, options: TestStackOptions = {}) {
  return (await planTestStack(overrides, options)).start();
}

// The stack's addresses and settings are fixed before anything starts, so a caller can hand them
// on (vitest's `provide`) while the servers are still starting.
export async function planTestStack(
  overrides: Record<string, string> = {},
  { durableTemporal = true, durablePostgres = true }: TestStackOptions = {},
): Promise<PlannedTestStack> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'ics-test-'));
  const ports: StackPorts = {
    pgPort: await planPort(),
    temporalPort: await planPort(),
    minioPort: await planPort(),
    minioConsolePort: await planPort(),
    apiPort: await planPort(),
    metricsPort: await planPort(),
  };
  const { pgPort, temporalPort, minioPort, apiPort, metricsPort } = ports;
  const smtpPort = await planPort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const env: Record<string, string> = {
    DATABASE_URL: `postgresql://postgres:postgres@127.0.0.1:${pgPort}/ics_test`,
    TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
    TEMPORAL_TASK_QUEUE: 'invoice-compliance-test',
    S3_ENDPOINT: `http://127.0.0.1:${minioPort}`,
    S3_ACCESS_KEY: 'test-access-key',
    S3_SECRET_KEY: 'test-secret-key-123',
    S3_BUCKET: 'ics-test',
    ENABLE_TEST_WORKFLOWS: 'true',
    RATE_LIMIT_REQUESTS: '300',
    RATE_LIMIT_WINDOW_SECONDS: '60',
    // large-selections.test.ts exports a claim of 72,600 lines (more ids than PostgreSQL's bind
    // parameters); the cap itself is tested in bounds.test.ts on an API of its own.
    CLAIM_EXPORT_MAX_LINES: '100000',
    // Every test calls from 127.0.0.1; the failed-authentication budget per address is tested on
    // an API instance of its own (test/integration/http-hardening.test.ts).
    RATE_LIMIT_AUTH_FAILURES: '100000',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    CURSOR_SECRET: 'test-cursor-secret-0123456789',
    // Small, so a test document reaches the index cap (partial search results).
    DOCUMENT_INDEX_MAX_PASSAGES: '40',
    // The API's own port, known before it starts, so the links it returns (APP_BASE_URL) resolve.
    PORT: String(apiPort),
    PUBLIC_BASE_URL: apiUrl,
    APP_BASE_URL: `${apiUrl}/app`,
    // Encrypts integration credentials: a rotated-out key second, as after a key rotation.
    INTEGRATION_KEYS:
      'test2:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=,test1:Hx4dHBsaGRgXFhUUExIREA8ODQwLCgkIBwYFBAMCAQA=',
    // Notifications: tests receive e-mail on this port (test/support/smtp-receiver.ts) and
    // webhooks on 127.0.0.1 (allow-listed; every other private address stays refused), with
    // short retries and a dispatch every 5 seconds (each firing is a workflow: at 2 s the firings
    // alone kept about a twentieth of a core busy all run).
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    SMTP_FROM: 'Invoice Compliance Test <notifications@example.test>',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    // Integrations reach the Tripletex stand-in and MinIO on 127.0.0.1 the same way.
    INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
    NOTIFICATION_RETRY_INITIAL_SECONDS: '1',
    NOTIFICATION_RETRY_MAX_SECONDS: '2',
    NOTIFICATION_RETRY_ATTEMPTS: '4',
    NOTIFICATION_DISPATCH_INTERVAL_SECONDS: '5',
    // A webhook attempt's deadline, short so a test sees a trickling receiver cut off.
    WEBHOOK_TIMEOUT_SECONDS: '3',
    ...overrides,
    WORKER_PID_FILE: path.join(workDir, 'worker.pid'),
    TEMPORAL_PID_FILE: path.join(workDir, 'temporal.pid'),
    TEST_WORK_DIR: workDir,
    // Where a stack started in the background leaves its error if it did not start (test/setup/global-setup.ts).
    TEST_STACK_FAILURE_FILE: `${workDir}.failed`,
    METRICS_URL: `http://127.0.0.1:${metricsPort}/metrics`,
  };
  return {
    env,
    apiUrl,
    start: () =>
      bootTestStack(workDir, env, ports, { durableTemporal, durablePostgres }).then((stop) => ({ env, apiUrl, stop })),
  };
}

async function bootTestStack(
  workDir: string,
  env: Record<string, string>,
  ports: StackPorts,
  { durableTemporal, durablePostgres }: Required<TestStackOptions>,
): Promise<TestStack['stop']> {
  mkdirSync(workDir, { recursive: true });
  // Run as root, embedded PostgreSQL drops to a 'postgres' user that must reach its data folder.
  chmodSync(workDir, 0o755);
  const stoppers: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const stopOne of stoppers.reverse()) await stopOne().catch((error) => console.error('stop failed:', error));
    rmSync(workDir, { recursive: true, force: true });
  };
  try {
    // Each server is registered for stopping as soon as it runs, so a failed start leaks nothing.
    const started = <T extends { stop(): Promise<unknown> }>(server: T): T => {
      stoppers.push(() => server.stop());
      return server;
    };
    // Some start failures reject without a message (embedded-postgres does); name the component.
    const named = <T>(name: string, starting: Promise<T>) =>
      starting.catch((error: unknown) => {
        throw new Error(`${name} did not start: ${error instanceof Error ? error.message : String(error)}`);
      });
    const [postgres] = await Promise.all([
      named(
        'PostgreSQL',
        startEmbeddedPostgres({
          dataDir: path.join(workDir, 'postgres'),
          port: ports.pgPort,
          persistent: false,
          user: 'postgres',
          password: 'postgres',
          serverFlags: [...(durablePostgres ? [] : NOT_DURABLE_POSTGRES), ...diagnosticPostgresFlags()],
        }),
      ).then(started),
      named('Temporal', startSupervisedTemporal(workDir, ports.temporalPort, durableTemporal)).then(started),
      named(
        'MinIO',
        startMinio({
          dataDir: path.join(workDir, 'minio'),
          port: ports.minioPort,
          consolePort: ports.minioConsolePort,
          accessKey: env.S3_ACCESS_KEY!,
          secretKey: env.S3_SECRET_KEY!,
        }),
      ).then(started),
    ]);
    await postgres.ensureDatabase('ics_test');

    // Not execFileSync: the stacks start in vitest's own process, whose event loop must go on
    // starting the other projects and the unit files meanwhile.
    await promisify(execFile)(
      process.execPath,
      ['--experimental-wasm-modules', '--no-warnings', 'scripts/migrate.mjs', 'apply'],
      { cwd: repoRoot, env: { ...process.env, DATABASE_URL: env.DATABASE_URL } },
    );

    // The worker runs as its own process, as in production, under a supervisor that restarts it:
    // crash tests kill it (pid in WORKER_PID_FILE) and expect no invoice lost or duplicated.
    const worker = supervise(
      'worker',
      () =>
        spawnTypeScript('worker', 'src/worker.ts', {
          cwd: repoRoot,
          env: { ...env, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn' },
          logFile: path.join(workDir, 'worker.log'),
        }),
      env.WORKER_PID_FILE!,
    );
    stoppers.push(() => worker.stop());

    // The API too, with its metrics on a port of their own (METRICS_PORT), as in production. In
    // vitest's own process it shared one event loop with the test runner, and the global setup
    // had to load the whole application before the first test file could start.
    const api = spawnTypeScript('api', 'src/api.ts', {
      cwd: repoRoot,
      env: { ...env, HOST: '127.0.0.1', METRICS_PORT: String(ports.metricsPort), METRICS_HOST: '127.0.0.1' },
      logFile: path.join(workDir, 'api.log'),
      inheritOutput: process.env.TEST_LOG_LEVEL !== undefined,
    });
    stoppers.push(() => api.stop());
    await waitFor('the API', () => portAnswers(ports.apiPort), 120_000, api);
    return stop;
  } catch (error) {
    await stop();
    throw error;
  }
}
