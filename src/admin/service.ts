import { randomUUID } from 'node:crypto';
import { atLeast, INGESTION_SCOPES, type IngestionScope, type Level } from '../auth/levels.js';
import { generateToken } from '../auth/tokens.js';
import type { Db } from '../db/client.js';

// Administration the spec leaves to "the application": organizations, users, memberships, API keys
// and ingestion tokens. Used by the admin CLI (src/admin/cli.ts), the dev stack and the tests.

export class AdminError extends Error {}

export async function createOrganization(db: Db, input: { name: string; currencyCode?: string; invoiceProcessingCapacity?: number | null }) {
  return db.organization.create({
    data: {
      id: randomUUID(),
      name: input.name,
      currencyCode: (input.currencyCode ?? 'EUR').toUpperCase(),
      invoiceProcessingCapacity: input.invoiceProcessingCapacity ?? null,
    },
  });
}

export async function updateOrganizationSettings(
  db: Db,
  organizationId: string,
  settings: { invoiceProcessingCapacity?: number | null; smartMatching?: boolean; currencyCode?: string },
) {
  return db.organization.update({ where: { id: organizationId }, data: settings });
}

// Creates the user, or finds the one with that e-mail, and gives them a role in the organization.
export async function addMember(db: Db, input: { organizationId: string; email: string; name?: string | null; role: Level }) {
  const email = input.email.trim().toLowerCase();
  const user = await db.user.upsert({
    where: { email },
    create: { id: randomUUID(), email, name: input.name ?? null },
    update: input.name ? { name: input.name } : {},
  });
  await db.membership.upsert({
    where: { organizationId_userId: { organizationId: input.organizationId, userId: user.id } },
    create: { organizationId: input.organizationId, userId: user.id, role: input.role },
    update: { role: input.role },
  });
  return user;
}

export async function createApiKey(db: Db, input: { userId: string; organizationId: string; level: Level; name?: string }) {
  const membership = await db.membership.findUnique({
    where: { organizationId_userId: { organizationId: input.organizationId, userId: input.userId } },
  });
  if (!membership) throw new AdminError('the user is not a member of that organization');
  if (!atLeast(membership.role, input.level)) {
    throw new AdminError(`a key cannot exceed its owner's role: the user is ${membership.role}, the key asks for ${input.level}`);
  }
  const token = generateToken('api_key');
  const key = await db.apiKey.create({
    data: {
      id: randomUUID(),
      userId: input.userId,
      organizationId: input.organizationId,
      name: input.name ?? 'API key',
      level: input.level,
      tokenDigest: token.digest,
      displayPrefix: token.displayPrefix,
    },
  });
  return { id: key.id, key: token.plaintext, level: key.level, organization_id: key.organizationId, user_id: key.userId, name: key.name };
}

export async function createIngestionToken(
  db: Db,
  input: { organizationId: string; scopes: IngestionScope[]; name?: string; createdByUserId?: string | null },
) {
  const unknown = input.scopes.filter((scope) => !INGESTION_SCOPES.includes(scope));
  if (unknown.length > 0 || input.scopes.length === 0) {
    throw new AdminError(`scopes must be one or more of ${INGESTION_SCOPES.join(', ')}`);
  }
  const token = generateToken('ingestion_token');
  const row = await db.ingestionToken.create({
    data: {
      id: randomUUID(),
      organizationId: input.organizationId,
      name: input.name ?? 'Ingestion token',
      scopes: [...new Set(input.scopes)],
      tokenDigest: token.digest,
      displayPrefix: token.displayPrefix,
      createdByUserId: input.createdByUserId ?? null,
    },
  });
  return { id: row.id, token: token.plaintext, scopes: row.scopes, organization_id: row.organizationId, name: row.name };
}

export async function disableApiKey(db: Db, id: string) {
  const { count } = await db.apiKey.updateMany({ where: { id, disabledAt: null }, data: { disabledAt: new Date() } });
  if (count === 0 && !(await db.apiKey.findUnique({ where: { id } }))) throw new AdminError(`no API key ${id}`);
  return { id, disabled: true };
}

export async function disableIngestionToken(db: Db, id: string) {
  const { count } = await db.ingestionToken.updateMany({ where: { id, disabledAt: null }, data: { disabledAt: new Date() } });
  if (count === 0 && !(await db.ingestionToken.findUnique({ where: { id } }))) throw new AdminError(`no ingestion token ${id}`);
  return { id, disabled: true };
}

export async function listApiKeys(db: Db, userId: string) {
  const keys = await db.apiKey.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } });
  return keys.map((k) => ({ id: k.id, name: k.name, level: k.level, prefix: k.displayPrefix, organization_id: k.organizationId, disabled: k.disabledAt !== null }));
}
