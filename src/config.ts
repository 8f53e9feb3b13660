import os from 'node:os';
import { z } from 'zod';

// Every setting comes from the environment and is validated once at start, so a typo fails
// loudly with the variable's name instead of surfacing later as a confusing runtime error.
const booleanFromEnv = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const configSchema = z.object({
  DATABASE_URL: z.string().url({ message: 'must be a postgresql:// URL' }),
  // PostgreSQL's statement_timeout on the API's connections (a request's statements, lock waits
  // included) and on the worker's (background work, whose statements may be longer); 0: none.
  // Beyond it the statement is cancelled: the API answers 503 service_unavailable, an activity is
  // retried. Migrations run on their own connections without it.
  DATABASE_STATEMENT_TIMEOUT_SECONDS: z.coerce.number().min(0).default(30),
  WORKER_DATABASE_STATEMENT_TIMEOUT_SECONDS: z.coerce.number().min(0).default(300),
  TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('invoice-compliance'),
  // Temporal's web UI as the application's users reach it, for a run page's link to its workflow
  // history. Not set (or empty): no link (finance users have no Temporal UI to open).
  TEMPORAL_UI_URL: z.preprocess((value) => (value === '' ? undefined : value), z.string().url().optional()),
  S3_ENDPOINT: z.string().url({ message: 'must be an http(s):// URL of S3-compatible storage' }),
  // The storage address clients can reach, for presigned upload URLs (e.g. behind a proxy, or
  // outside a compose network); S3_ENDPOINT when not set.
  S3_PUBLIC_ENDPOINT: z.string().url().optional(),
  S3_ACCESS_KEY: z.string().min(1),
  S3_SECRET_KEY: z.string().min(1),
  S3_BUCKET: z.string().min(3).default('invoice-compliance'),
  S3_REGION: z.string().min(1).default('us-east-1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3500),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_BASE_URL: z.string().url().default('http://localhost:3500'),
  APP_BASE_URL: z.string().url().default('http://localhost:3500/app'),
  // Web application sessions (docs/web.md): signed out after this long without a request, and at
  // the latest this long after sign-in.
  SESSION_IDLE_HOURS: z.coerce.number().positive().default(12),
  SESSION_MAX_DAYS: z.coerce.number().positive().default(30),
  // Signs pagination cursors so clients cannot forge them; any long random string.
  CURSOR_SECRET: z.string().min(16).default('development-cursor-secret-change-me'),
  RATE_LIMIT_REQUESTS: z.coerce.number().int().positive().default(600),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  // Failed authentications (bad or disabled token) per client address and window; then 429.
  RATE_LIMIT_AUTH_FAILURES: z.coerce.number().int().positive().default(30),
  RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS: z.coerce.number().int().positive().default(300),
  // Where the budgets live: postgres (shared by every API replica) or memory (this process only).
  RATE_LIMIT_STORE: z.enum(['postgres', 'memory']).default('postgres'),
  // Behind a reverse proxy: read the client address from X-Forwarded-For, trusting only the last
  // TRUST_PROXY_HOPS entries (the ones our own proxies appended). Off: the socket's address.
  TRUST_PROXY: booleanFromEnv.default(false),
  TRUST_PROXY_HOPS: z.coerce.number().int().min(1).max(10).default(1),
  // Where the Ingestion upload's files wait (each request in a folder of its own, removed after it).
  UPLOAD_TEMP_DIR: z.string().min(1).default(os.tmpdir()),
  // Uploads one API process reads at once (each up to 200 MiB on disk); more are 503 with Retry-After.
  UPLOAD_MAX_CONCURRENT: z.coerce.number().int().positive().default(16),
  // Prometheus metrics (GET /metrics) are served on this port only, on METRICS_HOST (loopback by
  // default: open it to your scraper's network deliberately). Unset: no metrics listener; the
  // public API port never serves them.
  METRICS_PORT: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number().int().min(0).max(65535).optional(),
  ),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Workflows only tests use (see workflows/testing.ts); never on in production.
  ENABLE_TEST_WORKFLOWS: booleanFromEnv.default(false),
  IDEMPOTENCY_RETENTION_HOURS: z.coerce.number().int().positive().default(24),
  // Passages of one document indexed for search; beyond it the document is searched partially.
  DOCUMENT_INDEX_MAX_PASSAGES: z.coerce.number().int().positive().default(5000),
  // Helper processes that parse uploaded files (PDF, XML, CSV/XLSX, DOCX) at once, per worker
  // (src/shared/isolated.ts); one per core leaves the worker's own thread free.
  PARSER_HELPERS: z.coerce.number().int().min(1).max(64).default(2),
  // The worker's concurrency limits (Temporal's defaults are 100s, far more than one process
  // should take on): activities and local activities running at once, workflow tasks at once.
  // Parsing beyond PARSER_HELPERS waits for a helper, so more activities than helpers is fine.
  WORKER_MAX_CONCURRENT_ACTIVITIES: z.coerce.number().int().min(1).max(1000).default(8),
  WORKER_MAX_CONCURRENT_LOCAL_ACTIVITIES: z.coerce.number().int().min(1).max(1000).default(8),
  WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: z.coerce.number().int().min(2).max(1000).default(8),
  // On SIGTERM the worker stops polling and gives running activities this long to finish before it
  // cancels them (they are retried elsewhere; activities are idempotent). Temporal's default is 0:
  // every running import would be cut off and done again. Below docker-compose's stop_grace_period.
  WORKER_SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(45),
  // Keys that encrypt integration credentials at rest: `kid1:base64key,kid2:base64key` (32-byte
  // AES-256 keys). The first encrypts; every one decrypts, so a new key can be put first and the
  // old ones kept until `npm run admin -- rotate-integration-keys` re-encrypted everything.
  // Unset: integrations cannot be created (503), everything else works.
  INTEGRATION_KEYS: z.preprocess((value) => (value === '' ? undefined : value), z.string().min(1).optional()),
  // When the nightly auto-sync of an integration runs, UTC `HH:MM`, and how late a missed run
  // (Temporal down at that time) still starts.
  SYNC_SCHEDULE_TIME_UTC: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (UTC)')
    .default('02:00'),
  SYNC_SCHEDULE_CATCHUP_MINUTES: z.coerce.number().int().positive().default(360),
  // The most lines a claim's XLSX or CSV export holds (its alerts, one row each); a larger claim
  // is 409 claim_too_large_for_export. The letter is built in memory before it is streamed out.
  CLAIM_EXPORT_MAX_LINES: z.coerce.number().int().positive().default(50_000),
  // Outgoing mail (support contact): smtp://user:pass@host:port or smtps://...; unset sends none.
  SMTP_URL: z.string().url({ message: 'must be an smtp:// or smtps:// URL' }).optional(),
  // A bare address or a display form (`Name <address>`).
  SMTP_FROM: z.string().min(3).default('Invoice Compliance <no-reply@invoice-compliance.local>'),
  // Where POST /v1/support/contact sends its messages; unset stores them only.
  SUPPORT_EMAIL: z.string().email().optional(),
  // Notifications (docs/notifications.md): e-mail over SMTP_URL and SMTP_FROM above.
  // Webhooks never reach loopback, private, link-local or metadata addresses unless allowed here.
  WEBHOOK_ALLOW_PRIVATE: booleanFromEnv.default(false),
  // Host names (exact, comma separated) allowed whatever they resolve to.
  WEBHOOK_ALLOWED_HOSTS: z.string().default(''),
  // The same policy for the addresses integrations connect to (a Tripletex base_url, an S3 inbox
  // endpoint): set by an Admin, so never loopback, private or metadata addresses unless allowed.
  INTEGRATION_ALLOW_PRIVATE: booleanFromEnv.default(false),
  INTEGRATION_ALLOWED_HOSTS: z.string().default(''),
  // Each request to an integration's provider (Tripletex, an S3 inbox) ends within this long,
  // answered or not, including reading the answer; then it fails as unreachable and is retried.
  INTEGRATION_REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(30),
  // One webhook delivery attempt ends after this long, answered or not (connecting, sending and
  // reading the whole answer); then it is retried like a 5xx.
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().positive().max(300).default(10),
  // Delivery retries: exponential from the first interval, capped, over at least 24 hours by default.
  NOTIFICATION_RETRY_INITIAL_SECONDS: z.coerce.number().positive().default(60),
  NOTIFICATION_RETRY_MAX_SECONDS: z.coerce.number().positive().default(7200),
  NOTIFICATION_RETRY_ATTEMPTS: z.coerce.number().int().positive().default(20),
  // How often new alerts of finished runs are turned into notifications.
  NOTIFICATION_DISPATCH_INTERVAL_SECONDS: z.coerce.number().int().positive().default(60),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration (see README, "Configuration"):\n${lines.join('\n')}`);
}
