import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { addMember, createApiKey, createIngestionToken, createOrganization } from '../../src/admin/service.js';
import type { Level } from '../../src/auth/levels.js';
import { createDb, type Db } from '../../src/db/client.js';
import { call, type CallOptions } from './api.js';

// Each test works in organizations of its own, so tests never see each other's records.

let db: Db | null = null;
export function testDb(): Db {
  db ??= createDb(inject('stackEnv').DATABASE_URL!, 4);
  return db;
}

export interface Tenant {
  organizationId: string;
  userId: string;
  apiKey: string;
  apiKeyId: string;
  ingestionToken: string;
  call<T = any>(path: string, options?: CallOptions): ReturnType<typeof call<T>>;
}

export async function createTenant(options: { role?: Level; keyLevel?: Level; name?: string } = {}): Promise<Tenant> {
  const database = testDb();
  const organization = await createOrganization(database, { name: options.name ?? `Org ${randomUUID().slice(0, 8)}` });
  const user = await addMember(database, {
    organizationId: organization.id,
    email: `${randomUUID()}@example.test`,
    name: 'Test User',
    role: options.role ?? 'admin',
  });
  const key = await createApiKey(database, {
    organizationId: organization.id,
    userId: user.id,
    level: options.keyLevel ?? options.role ?? 'admin',
  });
  const token = await createIngestionToken(database, {
    organizationId: organization.id,
    scopes: ['invoices:read', 'invoices:write'],
  });
  return {
    organizationId: organization.id,
    userId: user.id,
    apiKey: key.key,
    apiKeyId: key.id,
    ingestionToken: token.token,
    call: (path, callOptions = {}) => call(path, { token: key.key, organizationId: organization.id, ...callOptions }),
  };
}

// A second key for the same user, e.g. at a lower level.
export async function keyFor(tenant: Tenant, level: Level): Promise<string> {
  return (await createApiKey(testDb(), { organizationId: tenant.organizationId, userId: tenant.userId, level })).key;
}
