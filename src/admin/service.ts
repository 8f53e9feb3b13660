import { randomUUID } from 'node:crypto';
import { atLeast, INGESTION_SCOPES, type IngestionScope, type Level } from '../auth/levels.js';
import { createPasswordLink } from '../auth/passwords.js';
import { generateToken } from '../auth/tokens.js';
import type { Db } from '../db/client.js';
import { errors } from '../http/errors.js';
import { endMemberNotifications } from '../notifications/channels.js';

// Administration the spec leaves to "the application": organizations, users, memberships, API keys
// and ingestion tokens. Used by the admin CLI (src/admin/cli.ts), the dev stack and the tests.

export class AdminError extends Error {}

export async function createOrganization(
  db: Db,
  input: { name: string; currencyCode?: string; invoiceProcessingCapacity?: number | null },
) {
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
  settings: {
    invoiceProcessingCapacity?: number | null;
    smartMatching?: boolean;
    currencyCode?: string;
    lineRoundingMinorUnits?: number;
  },
) {
  return db.organization.update({ where: { id: organizationId }, data: settings });
}

// The operator's way in (admin CLI, development stack, tests): creates the user, or finds the one
// with that e-mail, and gives them a role in the organization at once. An existing account keeps
// its name (it is the person's, shared by every organization they belong to), and the last admin
// of the organization is not demoted. Organizations invite through `inviteMember` instead.
export async function addMember(
  db: Db,
  input: { organizationId: string; email: string; name?: string | null; role: Level },
) {
  const email = input.email.trim().toLowerCase();
  const user = await db.user.upsert({
    where: { email },
    create: { id: randomUUID(), email, name: input.name ?? null },
    update: {},
  });
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`memberships:${input.organizationId}`}))`;
    const current = await tx.membership.findUnique({
      where: { organizationId_userId: { organizationId: input.organizationId, userId: user.id } },
    });
    if (!current) {
      await tx.membership.create({ data: { organizationId: input.organizationId, userId: user.id, role: input.role } });
      return;
    }
    if (current.role === input.role) return;
    await assertKeepsAnAdmin(tx, input.organizationId, user.id, input.role);
    await tx.membership.update({
      where: { organizationId_userId: { organizationId: input.organizationId, userId: user.id } },
      data: { role: input.role },
    });
  });
  return user;
}

// An admin's invitation (the members page): a one-time link bound to this organization, the role
// and the admin (src/auth/passwords.ts checks all three again when it is used). The answer is the
// same whether or not the address has an account: no membership and no change to an existing
// account until the invited person uses the link (an account that has a password, or belongs to
// another organization, joins only with its own password). An account that does not exist yet is
// created without password or organization, so it reaches nothing, with the name given.
export async function inviteMember(
  db: Db,
  input: {
    organizationId: string;
    email: string;
    name?: string | null;
    role: Level;
    invitedByUserId: string;
    appBaseUrl: string;
  },
) {
  const email = input.email.trim().toLowerCase();
  const user = await db.user.upsert({
    where: { email },
    create: { id: randomUUID(), email, name: input.name ?? null },
    update: {},
  });
  const member = await db.membership.findUnique({
    where: { organizationId_userId: { organizationId: input.organizationId, userId: user.id } },
  });
  // The members list shows this already; a role changes there (which keeps an admin).
  if (member)
    throw errors.conflict(
      'conflict',
      `${email} is already a member of this organization. Change their role in the list of members.`,
    );
  // A new invitation replaces an open one of this organization for the same address.
  await db.passwordLink.updateMany({
    where: { userId: user.id, organizationId: input.organizationId, usedAt: null },
    data: { usedAt: new Date() },
  });
  const invitation = { organizationId: input.organizationId, role: input.role, invitedByUserId: input.invitedByUserId };
  const link = await createPasswordLink(db, { userId: user.id, appBaseUrl: input.appBaseUrl, invitation });
  return { email, role: input.role, ...link };
}

// Open invitations of the organization (unused, unexpired), newest first.
export async function listInvitations(db: Db, organizationId: string) {
  const links = await db.passwordLink.findMany({
    where: { organizationId, usedAt: null, expiresAt: { gt: new Date() } },
    include: { user: { select: { email: true } } },
    orderBy: { createdAt: 'desc' },
    take: 500,
  });
  return links.map((l) => ({
    id: l.id,
    email: l.user.email,
    role: l.role,
    expires_at: l.expiresAt,
    created_at: l.createdAt,
  }));
}

export async function revokeInvitation(db: Db, organizationId: string, id: string): Promise<boolean> {
  const { count } = await db.passwordLink.updateMany({
    where: { id, organizationId, usedAt: null },
    data: { usedAt: new Date() },
  });
  return count > 0 || (await db.passwordLink.count({ where: { id, organizationId } })) > 0;
}

export async function createApiKey(
  db: Db,
  input: { userId: string; organizationId: string; level: Level; name?: string },
) {
  const membership = await db.membership.findUnique({
    where: { organizationId_userId: { organizationId: input.organizationId, userId: input.userId } },
  });
  if (!membership) throw new AdminError('the user is not a member of that organization');
  if (!atLeast(membership.role, input.level)) {
    throw new AdminError(
      `a key cannot exceed its owner's role: the user is ${membership.role}, the key asks for ${input.level}`,
    );
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
  return {
    id: key.id,
    key: token.plaintext,
    level: key.level,
    organization_id: key.organizationId,
    user_id: key.userId,
    name: key.name,
  };
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
  return {
    id: row.id,
    token: token.plaintext,
    scopes: row.scopes,
    organization_id: row.organizationId,
    name: row.name,
  };
}

export async function disableApiKey(db: Db, id: string) {
  const { count } = await db.apiKey.updateMany({ where: { id, disabledAt: null }, data: { disabledAt: new Date() } });
  if (count === 0 && !(await db.apiKey.findUnique({ where: { id } }))) throw new AdminError(`no API key ${id}`);
  return { id, disabled: true };
}

export async function disableIngestionToken(db: Db, id: string) {
  const { count } = await db.ingestionToken.updateMany({
    where: { id, disabledAt: null },
    data: { disabledAt: new Date() },
  });
  if (count === 0 && !(await db.ingestionToken.findUnique({ where: { id } })))
    throw new AdminError(`no ingestion token ${id}`);
  return { id, disabled: true };
}

export async function listApiKeys(db: Db, userId: string) {
  const keys = await db.apiKey.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } });
  return keys.map((k) => ({
    id: k.id,
    name: k.name,
    level: k.level,
    prefix: k.displayPrefix,
    organization_id: k.organizationId,
    disabled: k.disabledAt !== null,
  }));
}

// What a user manages in the application's settings, always scoped to the organization and user
// of the session (an id of another user or organization is simply not found).

export async function listOwnApiKeys(db: Db, userId: string, organizationId: string) {
  const keys = await db.apiKey.findMany({
    where: { userId, organizationId },
    orderBy: { createdAt: 'desc' },
    take: 500,
  });
  return keys.map((k) => ({
    id: k.id,
    name: k.name,
    level: k.level,
    prefix: k.displayPrefix,
    disabled: k.disabledAt !== null,
    last_used_at: k.lastUsedAt,
    created_at: k.createdAt,
  }));
}

export async function disableOwnApiKey(db: Db, userId: string, organizationId: string, id: string): Promise<boolean> {
  const { count } = await db.apiKey.updateMany({
    where: { id, userId, organizationId, disabledAt: null },
    data: { disabledAt: new Date() },
  });
  return count > 0 || (await db.apiKey.count({ where: { id, userId, organizationId } })) > 0;
}

export async function listIngestionTokens(db: Db, organizationId: string) {
  const tokens = await db.ingestionToken.findMany({
    where: { organizationId },
    orderBy: { createdAt: 'desc' },
    take: 500,
  });
  return tokens.map((t) => ({
    id: t.id,
    name: t.name,
    scopes: t.scopes,
    prefix: t.displayPrefix,
    disabled: t.disabledAt !== null,
    last_used_at: t.lastUsedAt,
    created_at: t.createdAt,
  }));
}

export async function disableOrganizationIngestionToken(db: Db, organizationId: string, id: string): Promise<boolean> {
  const { count } = await db.ingestionToken.updateMany({
    where: { id, organizationId, disabledAt: null },
    data: { disabledAt: new Date() },
  });
  return count > 0 || (await db.ingestionToken.count({ where: { id, organizationId } })) > 0;
}

export async function listMembers(db: Db, organizationId: string) {
  const rows = await db.membership.findMany({
    where: { organizationId },
    include: { user: { select: { email: true, name: true, passwordHash: true } } },
    orderBy: { createdAt: 'asc' },
    take: 1000,
  });
  return rows.map((m) => ({
    user_id: m.userId,
    email: m.user.email,
    name: m.user.name,
    role: m.role,
    has_password: m.user.passwordHash !== null,
    joined_at: m.createdAt,
  }));
}

// An organization always keeps an admin: nobody can demote or remove the last one.
async function assertKeepsAnAdmin(
  tx: Pick<Db, 'membership'>,
  organizationId: string,
  userId: string,
  nextRole: Level | null,
) {
  const current = await tx.membership.findUnique({ where: { organizationId_userId: { organizationId, userId } } });
  if (!current) throw errors.notFound('member');
  if (current.role !== 'admin' || nextRole === 'admin') return;
  const admins = await tx.membership.count({ where: { organizationId, role: 'admin' } });
  if (admins <= 1) throw new AdminError('The organization needs at least one admin: make someone else admin first.');
}

export async function changeMemberRole(db: Db, organizationId: string, userId: string, role: Level) {
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`memberships:${organizationId}`}))`;
    await assertKeepsAnAdmin(tx, organizationId, userId, role);
    await tx.membership.update({ where: { organizationId_userId: { organizationId, userId } }, data: { role } });
  });
}

// Removing a member ends what they could do here: their keys of this organization are disabled
// (authentication also checks the membership on every request), and their personal notification
// channels of this organization are removed (docs/notifications.md, "Members who leave").
export async function removeMember(db: Db, organizationId: string, userId: string) {
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`memberships:${organizationId}`}))`;
    await assertKeepsAnAdmin(tx, organizationId, userId, null);
    await tx.membership.delete({ where: { organizationId_userId: { organizationId, userId } } });
    await tx.apiKey.updateMany({
      where: { organizationId, userId, disabledAt: null },
      data: { disabledAt: new Date() },
    });
    await endMemberNotifications(tx, organizationId, userId);
  });
}
