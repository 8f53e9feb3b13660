import { parseArgs } from 'node:util';
import { INGESTION_SCOPES, LEVELS, type IngestionScope, type Level } from '../auth/levels.js';
import { createPasswordLink } from '../auth/passwords.js';
import { loadConfig } from '../config.js';
import { createDb, type Db } from '../db/client.js';
import { defaultDatabaseUrl } from '../infra/defaults.js';
import { IntegrationKeyError, newKeySetting, parseKeyring } from '../integrations/crypto.js';
import { rotateIntegrationKeys } from '../integrations/key-rotation.js';
import {
  AdminError,
  addMember,
  createApiKey,
  createIngestionToken,
  createOrganization,
  disableApiKey,
  disableIngestionToken,
  listApiKeys,
  updateOrganizationSettings,
} from './service.js';

const USAGE = `Usage: npm run admin -- <command> [options]     (prints JSON)

  create-organization   --name <name> [--currency EUR] [--capacity <imports per day>]
  add-member            --organization <id> --email <email> --role read|write|admin [--name <name>]
  create-api-key        --organization <id> --user <id> --level read|write|admin [--name <name>]
  create-ingestion-token --organization <id> [--scopes invoices:write,invoices:read] [--name <name>]
  disable-api-key       --id <id>
  disable-ingestion-token --id <id>
  list-api-keys         --user <id>
  password-link         --email <email> [--hours 72]   a one-time link to /app/set-password (invitation,
                        first password or reset); signs the user's sessions out once used
  set-organization      --organization <id> [--capacity <n>|none] [--smart-matching true|false] [--currency <code>]
                        [--line-rounding <n>]  line amounts within n of the currency's smallest unit are rounding (default 1: one cent)
  new-integration-key   --id <key id>    prints an INTEGRATION_KEYS entry (kid:base64key) to put first
  rotate-integration-keys   re-encrypts every integration's credentials with the first key of INTEGRATION_KEYS

The plaintext of a key or token is printed once, at creation; only its digest is stored.
Uses DATABASE_URL, or the embedded development database of 'npm start'.`;

type Options = Record<string, string | undefined>;

// The application's public address from the environment (the API's APP_BASE_URL, same default).
function appBaseUrl(): string {
  return loadConfig({
    DATABASE_URL: 'postgresql://unused',
    S3_ENDPOINT: 'http://unused',
    S3_ACCESS_KEY: 'unused',
    S3_SECRET_KEY: 'unused',
    ...process.env,
  }).APP_BASE_URL;
}

function required(options: Options, name: string): string {
  const value = options[name];
  if (!value) throw new AdminError(`--${name} is required`);
  return value;
}

function level(value: string): Level {
  if (!LEVELS.includes(value as Level)) throw new AdminError(`level/role must be one of ${LEVELS.join(', ')}`);
  return value as Level;
}

function capacity(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'none') return null;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new AdminError('--capacity must be a whole number or none');
  return n;
}

function lineRounding(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 100)
    throw new AdminError('--line-rounding must be a whole number from 0 to 100 (smallest currency units)');
  return n;
}

const commands: Record<string, (db: Db, o: Options) => Promise<unknown>> = {
  'create-organization': (db, o) =>
    createOrganization(db, {
      name: required(o, 'name'),
      currencyCode: o.currency,
      invoiceProcessingCapacity: capacity(o.capacity),
    }),
  'add-member': (db, o) =>
    addMember(db, {
      organizationId: required(o, 'organization'),
      email: required(o, 'email'),
      name: o.name,
      role: level(required(o, 'role')),
    }),
  'create-api-key': (db, o) =>
    createApiKey(db, {
      organizationId: required(o, 'organization'),
      userId: required(o, 'user'),
      level: level(required(o, 'level')),
      name: o.name,
    }),
  'create-ingestion-token': (db, o) =>
    createIngestionToken(db, {
      organizationId: required(o, 'organization'),
      scopes: (o.scopes ?? INGESTION_SCOPES.join(',')).split(',').map((s) => s.trim()) as IngestionScope[],
      name: o.name,
    }),
  'disable-api-key': (db, o) => disableApiKey(db, required(o, 'id')),
  'disable-ingestion-token': (db, o) => disableIngestionToken(db, required(o, 'id')),
  'list-api-keys': (db, o) => listApiKeys(db, required(o, 'user')),
  'password-link': async (db, o) => {
    const user = await db.user.findUnique({ where: { email: required(o, 'email').trim().toLowerCase() } });
    if (!user) throw new AdminError('no user with that e-mail; add them first with add-member');
    const hours = o.hours === undefined ? undefined : Number(o.hours);
    if (hours !== undefined && !(hours > 0 && hours <= 24 * 30))
      throw new AdminError('--hours must be more than 0 and at most 720');
    return {
      user_id: user.id,
      email: user.email,
      ...(await createPasswordLink(db, { userId: user.id, appBaseUrl: appBaseUrl(), hours })),
    };
  },
  'set-organization': (db, o) =>
    updateOrganizationSettings(db, required(o, 'organization'), {
      invoiceProcessingCapacity: capacity(o.capacity),
      smartMatching: o['smart-matching'] === undefined ? undefined : o['smart-matching'] === 'true',
      currencyCode: o.currency?.toUpperCase(),
      lineRoundingMinorUnits: lineRounding(o['line-rounding']),
    }),
  'new-integration-key': async (_db, o) => ({ entry: newKeySetting(required(o, 'id')) }),
  'rotate-integration-keys': async (db) => {
    if (!process.env.INTEGRATION_KEYS)
      throw new AdminError('set INTEGRATION_KEYS (the new key first, the old ones after it)');
    try {
      return await rotateIntegrationKeys(db, parseKeyring(process.env.INTEGRATION_KEYS));
    } catch (error) {
      if (error instanceof IntegrationKeyError) throw new AdminError(error.message);
      throw error;
    }
  },
};

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  const run = command ? commands[command] : undefined;
  if (!run) {
    console.error(USAGE);
    return 2;
  }
  const names = [
    'name',
    'currency',
    'capacity',
    'organization',
    'email',
    'role',
    'user',
    'level',
    'scopes',
    'id',
    'smart-matching',
    'hours',
  ];
  const { values } = parseArgs({
    args: rest,
    options: Object.fromEntries(names.map((n) => [n, { type: 'string' as const }])),
    strict: true,
  });
  const db = createDb(process.env.DATABASE_URL ?? defaultDatabaseUrl(), 2);
  try {
    console.log(JSON.stringify(await run(db, values), null, 2));
    return 0;
  } catch (error) {
    console.error(
      JSON.stringify({
        error: error instanceof AdminError ? error.message : String((error as Error).message ?? error),
      }),
    );
    return 1;
  } finally {
    await db.$disconnect();
  }
}

process.exitCode = await main();
