import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The embedded defaults of `npm start`: used when DATABASE_URL, TEMPORAL_ADDRESS or S3_ENDPOINT
// are not set. Ports avoid the machine's own PostgreSQL on 5432; EMBEDDED_*_PORT moves one that
// another program on the machine already uses.
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const dataDir = process.env.DATA_DIR ?? path.join(repoRoot, '.data');

function portSetting(variable: string, fallback: number): number {
  const value = process.env[variable];
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`${variable} must be a port number (1 to 65535), got "${value}"`);
  return port;
}

export const EMBEDDED = {
  postgresPort: portSetting('EMBEDDED_POSTGRES_PORT', 5433),
  postgresUser: 'postgres',
  postgresPassword: 'postgres',
  database: 'invoice_compliance',
  temporalPort: portSetting('EMBEDDED_TEMPORAL_PORT', 7233),
  temporalUiPort: portSetting('EMBEDDED_TEMPORAL_UI_PORT', 8233),
  minioPort: portSetting('EMBEDDED_MINIO_PORT', 9000),
  minioConsolePort: portSetting('EMBEDDED_MINIO_CONSOLE_PORT', 9001),
};

export function defaultDatabaseUrl(): string {
  const { postgresUser, postgresPassword, postgresPort, database } = EMBEDDED;
  return `postgresql://${postgresUser}:${postgresPassword}@127.0.0.1:${postgresPort}/${database}`;
}

// Tool binaries are built once per machine from their Go modules (scripts/ensure-tools) and kept
// outside the clone, so a fresh clone (and CI) reuses them.
export const TOOL_VERSIONS = {
  temporal: 'v1.5.1',
  minio: 'v0.0.0-20260212201848-7aac2a2c5b7c',
};

export function toolPath(tool: keyof typeof TOOL_VERSIONS): string {
  const cacheDir = process.env.TOOLS_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'invoice-compliance', 'bin');
  return path.join(cacheDir, `${tool}-${TOOL_VERSIONS[tool]}`);
}
