import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDb } from '../db/client.js';
import { startEmbeddedPostgres } from '../infra/embedded-postgres.js';
import { startMinio } from '../infra/minio-server.js';
import { portAnswers, spawnTypeScript, waitFor, type ManagedProcess } from '../infra/process.js';
import { startTemporalDevServer } from '../infra/temporal-dev-server.js';
import { newKeySetting } from '../integrations/crypto.js';
import { bootstrapDevelopmentOrganization, DEV_ADMIN_EMAIL, type DevCredentials } from './bootstrap-organization.js';
import { dataDir, defaultDatabaseUrl, EMBEDDED, repoRoot } from '../infra/defaults.js';

// `npm start`: the whole stack in the foreground. Each dependency comes from the environment when
// set, else from an embedded default whose data stays in .data/ between runs.

interface DevSecrets {
  cursorSecret: string;
  // Older .data/secrets.json files lack it; it is added on the next start.
  integrationKeys?: string;
  minioAccessKey: string;
  minioSecretKey: string;
}

function devSecrets(): DevSecrets {
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as DevSecrets;
    if (saved.integrationKeys) return saved;
    const completed = { ...saved, integrationKeys: newKeySetting('dev1') };
    writeFileSync(file, JSON.stringify(completed, null, 2), { mode: 0o600 });
    return completed;
  }
  const secrets = {
    cursorSecret: randomBytes(32).toString('base64url'),
    integrationKeys: newKeySetting('dev1'),
    minioAccessKey: `ics-${randomBytes(6).toString('hex')}`,
    minioSecretKey: randomBytes(24).toString('base64url'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

const stoppers: (() => Promise<unknown>)[] = [];
const log = (message: string) => console.log(`[stack] ${message}`);

async function ensurePortFree(port: number, what: string, variable: string): Promise<void> {
  if (await portAnswers(port)) {
    throw new Error(
      `port ${port} is taken, so the embedded ${what} cannot start. Stop what uses it, or set ${variable}.`,
    );
  }
}

async function database(env: Record<string, string>): Promise<void> {
  if (process.env.DATABASE_URL) {
    env.DATABASE_URL = process.env.DATABASE_URL;
    return;
  }
  await ensurePortFree(EMBEDDED.postgresPort, 'PostgreSQL', 'DATABASE_URL');
  const postgres = await startEmbeddedPostgres({
    dataDir: path.join(dataDir, 'postgres'),
    port: EMBEDDED.postgresPort,
    persistent: true,
    user: EMBEDDED.postgresUser,
    password: EMBEDDED.postgresPassword,
  });
  stoppers.push(() => postgres.stop());
  await postgres.ensureDatabase(EMBEDDED.database);
  env.DATABASE_URL = defaultDatabaseUrl();
  log(`PostgreSQL (embedded) on 127.0.0.1:${EMBEDDED.postgresPort}, data in .data/postgres`);
}

async function temporal(env: Record<string, string>): Promise<void> {
  if (process.env.TEMPORAL_ADDRESS) {
    env.TEMPORAL_ADDRESS = process.env.TEMPORAL_ADDRESS;
    return;
  }
  await ensurePortFree(EMBEDDED.temporalPort, 'Temporal dev server', 'TEMPORAL_ADDRESS');
  const server = await startTemporalDevServer({
    port: EMBEDDED.temporalPort,
    uiPort: EMBEDDED.temporalUiPort,
    dbFile: path.join(dataDir, 'temporal.sqlite'),
    logFile: path.join(dataDir, 'logs', 'temporal.log'),
  });
  stoppers.push(() => server.stop());
  env.TEMPORAL_ADDRESS = `127.0.0.1:${EMBEDDED.temporalPort}`;
  log(`Temporal dev server on 127.0.0.1:${EMBEDDED.temporalPort}, Web UI http://localhost:${EMBEDDED.temporalUiPort}`);
}

async function storage(env: Record<string, string>, secrets: DevSecrets): Promise<void> {
  if (process.env.S3_ENDPOINT) {
    env.S3_ENDPOINT = process.env.S3_ENDPOINT;
    return;
  }
  await ensurePortFree(EMBEDDED.minioPort, 'MinIO', 'S3_ENDPOINT');
  const minio = await startMinio({
    dataDir: path.join(dataDir, 'minio'),
    port: EMBEDDED.minioPort,
    consolePort: EMBEDDED.minioConsolePort,
    accessKey: secrets.minioAccessKey,
    secretKey: secrets.minioSecretKey,
    logFile: path.join(dataDir, 'logs', 'minio.log'),
  });
  stoppers.push(() => minio.stop());
  Object.assign(env, {
    S3_ENDPOINT: `http://127.0.0.1:${EMBEDDED.minioPort}`,
    S3_ACCESS_KEY: secrets.minioAccessKey,
    S3_SECRET_KEY: secrets.minioSecretKey,
  });
  log(
    `MinIO on 127.0.0.1:${EMBEDDED.minioPort} (console http://localhost:${EMBEDDED.minioConsolePort}), data in .data/minio`,
  );
}

function migrate(databaseUrl: string): void {
  const output = execFileSync(
    process.execPath,
    ['--experimental-wasm-modules', '--no-warnings', 'scripts/migrate.mjs', 'apply'],
    {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: 'utf8',
    },
  );
  const { applied } = JSON.parse(output) as { applied: string[] };
  log(applied.length ? `migrations applied: ${applied.join(', ')}` : 'database schema up to date');
}

function startNodeProcess(name: string, entry: string, env: Record<string, string>): ManagedProcess {
  return spawnTypeScript(name, entry, { env, inheritOutput: true, cwd: repoRoot });
}

function printCredentials(credentials: DevCredentials | null, organizationId: string, userId: string): void {
  if (credentials) {
    log('development organization created; these secrets are shown once:');
    console.log(`
  X-Organization-Id: ${organizationId}
  API key (admin):   ${credentials.apiKey}
  Ingestion token:   ${credentials.ingestionToken}

  curl -H "Authorization: Bearer ${credentials.apiKey}" -H "X-Organization-Id: ${organizationId}" http://localhost:3500/v1/organization
`);
    return;
  }
  log(`development organization ${organizationId}; its keys were printed on the first start.`);
  log('for a new API key and ingestion token: npm start -- --new-key');
  log(`or: npm run admin -- create-api-key --organization ${organizationId} --user ${userId} --level admin`);
}

function printSignIn(passwordLink: string | null, appBaseUrl: string): void {
  if (passwordLink) {
    log(
      `web application: set the password of ${DEV_ADMIN_EMAIL} (link valid 72 hours, used once), then you are signed in:`,
    );
    console.log(`\n  ${passwordLink}\n`);
    return;
  }
  log(
    `web application: ${appBaseUrl} (sign in as ${DEV_ADMIN_EMAIL}); a new password link: npm run admin -- password-link --email ${DEV_ADMIN_EMAIL}`,
  );
}

let shuttingDown = false;
// The worker and the API, once started.
const children: ManagedProcess[] = [];

async function shutdown(code: number): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  log('stopping...');
  for (const child of children) await child.stop();
  for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
  process.exit(code);
}

// Ctrl-C reaches every process of the terminal's group; SIGTERM (a process manager, `kill`, npm
// passing it on) reaches this one only, so this process stops the rest. Registered first, so a
// signal during the start stops whatever already runs.
function stopOnSignals(): void {
  process.once('SIGINT', () => void shutdown(0));
  process.once('SIGTERM', () => void shutdown(0));
}

async function main(): Promise<void> {
  stopOnSignals();
  const { values } = parseArgs({ options: { 'new-key': { type: 'boolean', default: false } } });
  mkdirSync(path.join(dataDir, 'logs'), { recursive: true });
  const secrets = devSecrets();
  const env: Record<string, string> = {
    CURSOR_SECRET: process.env.CURSOR_SECRET ?? secrets.cursorSecret,
    INTEGRATION_KEYS: process.env.INTEGRATION_KEYS ?? secrets.integrationKeys!,
    PORT: process.env.PORT ?? '3500',
    // Prometheus metrics on a port of their own, on loopback (never on the public port).
    METRICS_PORT: process.env.METRICS_PORT ?? '9464',
  };
  env.APP_BASE_URL = process.env.APP_BASE_URL ?? `http://localhost:${env.PORT}/app`;
  // The development Temporal server's own Web UI: a run page links its workflow there.
  env.TEMPORAL_UI_URL = process.env.TEMPORAL_UI_URL ?? `http://localhost:${EMBEDDED.temporalUiPort}`;
  // On one's own machine an S3 inbox in the local MinIO, or a local webhook receiver, is the point.
  env.INTEGRATION_ALLOWED_HOSTS = process.env.INTEGRATION_ALLOWED_HOSTS ?? '127.0.0.1,localhost';
  env.WEBHOOK_ALLOWED_HOSTS = process.env.WEBHOOK_ALLOWED_HOSTS ?? '127.0.0.1,localhost';
  await Promise.all([database(env), temporal(env), storage(env, secrets)]);
  migrate(env.DATABASE_URL!);

  const db = createDb(env.DATABASE_URL!, 2);
  const dev = await bootstrapDevelopmentOrganization(db, {
    newKey: values['new-key'] ?? false,
    appBaseUrl: env.APP_BASE_URL,
  });
  await db.$disconnect();

  if (shuttingDown) return;
  children.push(startNodeProcess('worker', 'src/worker.ts', env), startNodeProcess('api', 'src/api.ts', env));
  for (const child of children) {
    child.child.once('exit', (code) => {
      if (shuttingDown) return;
      log(`${child.name} exited (${code ?? 'signal'}); stopping the stack`);
      void shutdown(1);
    });
  }
  await waitFor('API', async () => (await fetch(`http://127.0.0.1:${env.PORT}/healthz`)).ok, 60_000);
  log(
    `API on http://localhost:${env.PORT} (contract: /v1/openapi.json, readiness: /readyz; metrics: http://127.0.0.1:${env.METRICS_PORT}/metrics)`,
  );
  printCredentials(dev.credentials, dev.organizationId, dev.userId);
  printSignIn(dev.passwordLink, env.APP_BASE_URL);
  log('running; Ctrl-C stops everything');
}

main().catch(async (error) => {
  console.error(`[stack] ${error instanceof Error ? error.message : error}`);
  for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
  process.exit(1);
});
