import { z } from 'zod';

// Every setting comes from the environment and is validated once at start, so a typo fails
// loudly with the variable's name instead of surfacing later as a confusing runtime error.
const booleanFromEnv = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const configSchema = z.object({
  DATABASE_URL: z.string().url({ message: 'must be a postgresql:// URL' }),
  TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('invoice-compliance'),
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
  // Signs pagination cursors so clients cannot forge them; any long random string.
  CURSOR_SECRET: z.string().min(16).default('development-cursor-secret-change-me'),
  RATE_LIMIT_REQUESTS: z.coerce.number().int().positive().default(600),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Workflows only tests use (see workflows/testing.ts); never on in production.
  ENABLE_TEST_WORKFLOWS: booleanFromEnv.default(false),
  IDEMPOTENCY_RETENTION_HOURS: z.coerce.number().int().positive().default(24),
  // Passages of one document indexed for search; beyond it the document is searched partially.
  DOCUMENT_INDEX_MAX_PASSAGES: z.coerce.number().int().positive().default(5000),
  // Notifications (docs/notifications.md). E-mail goes over SMTP_URL (smtp:// or smtps://).
  SMTP_URL: z.string().url().optional(),
  SMTP_FROM: z.string().min(3).default('Invoice Compliance <notifications@localhost>'),
  // Webhooks never reach loopback, private, link-local or metadata addresses unless allowed here.
  WEBHOOK_ALLOW_PRIVATE: booleanFromEnv.default(false),
  // Host names (exact, comma separated) allowed whatever they resolve to.
  WEBHOOK_ALLOWED_HOSTS: z.string().default(''),
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
