// Database migrations without Prisma's native schema engine (it cannot be downloaded here):
// Prisma's own WASM schema engine, driven through the pg driver adapter. It records applied
// migrations in the standard _prisma_migrations table, so `prisma migrate deploy` stays
// interchangeable wherever the native engine is available (e.g. docker-compose).
//
//   node --experimental-wasm-modules scripts/migrate.mjs apply          apply pending migrations to DATABASE_URL
//   node --experimental-wasm-modules scripts/migrate.mjs create <name>  write a migration for schema changes
//   node --experimental-wasm-modules scripts/migrate.mjs check          exit 1 when the schema has changes no migration holds
import { readFile, readdir, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import crypto from 'node:crypto';
import pg from 'pg';
import { SchemaEngine } from '@prisma/schema-engine-wasm';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const schemaPath = path.join(root, 'prisma', 'schema.prisma');
const migrationsDir = path.join(root, 'prisma', 'migrations');
const filters = { externalTables: [], externalEnums: [] };

// The engine reports a Rust panic's message through this global before it throws.
globalThis.PRISMA_WASM_PANIC_REGISTRY = {
  set_message(message) {
    console.error(`schema engine panic: ${message}`);
  },
};

async function loadMigrations() {
  const lockPath = path.join(migrationsDir, 'migration_lock.toml');
  const lockContent = existsSync(lockPath) ? await readFile(lockPath, 'utf8') : 'provider = "postgresql"\n';
  const names = existsSync(migrationsDir)
    ? (await readdir(migrationsDir, { withFileTypes: true }))
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const migrationDirectories = await Promise.all(
    names.map(async (name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok', value: await readFile(path.join(migrationsDir, name, 'migration.sql'), 'utf8') },
      },
    })),
  );
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: lockContent },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

// Explicit fields rather than a connection string: the adapter opens its shadow database by
// overriding `database`, which a connection string would silently win over.
function poolConfig(connectionString) {
  const url = new URL(connectionString);
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password) || undefined,
    database: decodeURIComponent(url.pathname.slice(1)),
  };
}

// The engine reads catalog columns of PostgreSQL's one-byte "char" type (OID 18), which the pg
// adapter does not map; they arrive as text anyway, so they are announced as text (OID 25).
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;
function announceCharAsText(res) {
  for (const field of res?.fields ?? []) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
  return res;
}

class CatalogFriendlyClient extends pg.Client {
  query(...args) {
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last];
      args[last] = (err, res) => callback(err, err ? res : announceCharAsText(res));
      return super.query(...args);
    }
    const result = super.query(...args);
    return result && typeof result.then === 'function' ? result.then(announceCharAsText) : result;
  }
}

// PrismaPg runs a script by splitting it on every ';' (even inside a quoted function body), so a
// PL/pgSQL function (a trigger) could not be written in a migration. The whole script goes to
// PostgreSQL as one simple query instead, as Prisma's native engine sends it: the statements run
// in one implicit transaction, so a failing migration leaves nothing half applied.
function sendingWholeScripts(adapter) {
  adapter.executeScript = async function executeScript(script) {
    try {
      await this.client.query(script);
    } catch (error) {
      this.onError(error);
    }
  };
  return adapter;
}

function adapterFor(config) {
  const factory = new PrismaPg(new pg.Pool({ ...config, Client: CatalogFriendlyClient }));
  return { connect: async () => sendingWholeScripts(await factory.connect()) };
}

async function runAsAdmin(config, sql) {
  const client = new pg.Client({ ...config, database: 'postgres' });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

// PrismaPg's own shadow database is dropped before its pool closes, which PostgreSQL refuses;
// this one closes the pool first and drops with FORCE.
class MigrationAdapterFactory {
  provider = 'postgres';
  adapterName = '@prisma/adapter-pg';

  constructor(config) {
    this.config = config;
  }

  connect() {
    return adapterFor(this.config).connect();
  }

  async connectToShadowDb() {
    const database = `ics_shadow_${crypto.randomUUID().replaceAll('-', '')}`;
    await runAsAdmin(this.config, `CREATE DATABASE "${database}"`);
    const pool = new pg.Pool({ ...this.config, database, Client: CatalogFriendlyClient });
    // pool.end() resolves before its clients' sockets have closed, so the forced drop below may
    // terminate one of them (57P01): expected here, and without a listener it would crash the run.
    pool.on('error', () => {});
    const adapter = sendingWholeScripts(await new PrismaPg(pool).connect());
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose();
      await pool.end().catch(() => {});
      await runAsAdmin(this.config, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    };
    return adapter;
  }
}

async function withEngine(connectionString, fn) {
  const schema = await readFile(schemaPath, 'utf8');
  const adapter = bindMigrationAwareSqlAdapterFactory(new MigrationAdapterFactory(poolConfig(connectionString)));
  const engine = await SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, () => {}, adapter);
  return fn(engine, schema);
}

async function apply(connectionString) {
  const migrationsList = await loadMigrations();
  const { appliedMigrationNames } = await withEngine(connectionString, (engine) =>
    engine.applyMigrations({ migrationsList, filters }),
  );
  return appliedMigrationNames;
}

// The SQL that takes the migrations folder to the schema (replayed in a shadow database).
async function pendingSql(connectionString) {
  const migrationsList = await loadMigrations();
  return withEngine(connectionString, async (engine, schema) => {
    const { exitCode, stdout } = await engine.diff({
      from: { tag: 'migrations', ...migrationsList },
      to: { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: schema }] },
      script: true,
      exitCode: true,
      filters,
    });
    return exitCode === 2 ? stdout : null;
  });
}

async function create(connectionString, name) {
  if (!name || !/^[a-z0-9_]+$/.test(name)) {
    console.error('give the migration a snake_case name: migrate.mjs create <name>');
    process.exit(2);
  }
  const sql = await pendingSql(connectionString);
  if (!sql) return null;
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const dir = path.join(migrationsDir, `${stamp}_${name}`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'migration.sql'), sql);
  const lockPath = path.join(migrationsDir, 'migration_lock.toml');
  if (!existsSync(lockPath)) await writeFile(lockPath, 'provider = "postgresql"\n');
  return path.relative(root, dir);
}

function requireDatabaseUrl() {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('DATABASE_URL is not set');
    process.exit(2);
  }
  return url;
}

const [command, name] = process.argv.slice(2);
const url = requireDatabaseUrl();
if (command === 'apply') {
  const applied = await apply(url);
  console.log(JSON.stringify({ applied }));
} else if (command === 'create') {
  const created = await create(url, name);
  console.log(created ? `wrote ${created}` : 'the migrations already match the schema');
} else if (command === 'check') {
  const sql = await pendingSql(url);
  if (sql) {
    console.error(`prisma/schema.prisma has changes no migration holds:\n${sql}`);
    process.exit(1);
  }
  console.log('migrations match the schema');
} else {
  console.error('usage: migrate.mjs apply | create <name> | check');
  process.exit(2);
}
