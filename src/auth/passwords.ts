import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Db } from '../db/client.js';
import type { Level } from './levels.js';
import { digestToken, generateToken } from './tokens.js';

// Passwords of the web application: argon2id (a slow hash, for low-entropy human secrets), set only
// through a one-time link: the operator's (admin CLI: first password, reset), or an organization's
// invitation for an account that has no password and no other organization yet.

export const MIN_PASSWORD_LENGTH = 12;
// argon2 reads the whole input; a bound keeps a hash cheap whatever a form sends.
export const MAX_PASSWORD_LENGTH = 256;
export const PASSWORD_LINK_HOURS = 72;

// @node-rs/argon2's Algorithm is a const enum (not importable under isolatedModules): 2 = Argon2id.
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export class PasswordError extends Error {}

export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  return null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

// Compared against this when the e-mail is unknown or has no password, so a sign-in takes the same
// time whether or not the account exists (no user enumeration by timing).
let decoyHash: Promise<string> | null = null;

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  decoyHash ??= hashPassword('decoy password that matches nothing');
  const target = passwordHash ?? (await decoyHash);
  const matches = await verify(target, password).catch(() => false);
  return matches && passwordHash !== null;
}

// What an organization's invitation link is bound to; checked again when the link is used.
export interface InvitationBinding {
  organizationId: string;
  role: Level;
  invitedByUserId: string;
}

// A link for the user; the plaintext token is returned once, only its digest is stored. Without
// `invitation` it is the operator's link (the admin CLI), which sets the password whatever the
// account; with it, an organization's invitation (`usePasswordLink`).
export async function createPasswordLink(
  db: Db,
  input: { userId: string; appBaseUrl: string; hours?: number; invitation?: InvitationBinding },
) {
  const token = generateToken('password_link');
  const expiresAt = new Date(Date.now() + (input.hours ?? PASSWORD_LINK_HOURS) * 3_600_000);
  const { organizationId = null, role = null, invitedByUserId = null } = input.invitation ?? {};
  await db.passwordLink.create({
    data: {
      id: randomUUID(),
      userId: input.userId,
      tokenDigest: token.digest,
      expiresAt,
      organizationId,
      role,
      invitedByUserId,
    },
  });
  return {
    url: `${input.appBaseUrl.replace(/\/$/, '')}/set-password?token=${token.plaintext}`,
    expires_at: expiresAt.toISOString(),
  };
}

// The link's user (and organization, for an invitation) when the link is unused and unexpired;
// null otherwise (whatever the reason).
export async function findPasswordLink(db: Db, token: string) {
  const link = await db.passwordLink.findUnique({
    where: { tokenDigest: digestToken(token) },
    include: { user: { select: { id: true, email: true } }, organization: { select: { id: true, name: true } } },
  });
  if (!link || link.usedAt || link.expiresAt <= new Date()) return null;
  return link;
}

const LINK_NOT_VALID = 'This link is not valid any more. Ask an administrator for a new one.';
const NOT_THE_PASSWORD =
  'That is not the password of this account. An account that already has a password joins with it.';

export interface UsedLink {
  userId: string;
  // The organization an invitation joined; null for the operator's link.
  organizationId: string | null;
}

// Uses a link: the operator's sets the password; an organization's invitation joins the account
// to that organization (`joinWithInvitation`). Either way the link works once.
export async function usePasswordLink(db: Db, token: string, password: string): Promise<UsedLink> {
  const problem = passwordProblem(password);
  if (problem) throw new PasswordError(problem);
  const link = await findPasswordLink(db, token);
  if (!link) throw new PasswordError(LINK_NOT_VALID);
  if (link.organizationId && link.role && link.invitedByUserId) {
    return joinWithInvitation(
      db,
      { ...link, organizationId: link.organizationId, role: link.role, invitedByUserId: link.invitedByUserId },
      password,
    );
  }
  if (link.organizationId) throw new PasswordError(LINK_NOT_VALID);
  return { ...(await setPasswordWithLink(db, link, password)), organizationId: null };
}

// Sets the password and uses up the link in one transaction; a link used twice at once sets it
// once. Every other open operator link of the user ends too, and the user's sessions are signed
// out. (Invitations stay: they cannot set a password an account already has.)
async function setPasswordWithLink(
  db: Db,
  link: { id: string; userId: string },
  password: string,
): Promise<{ userId: string }> {
  const passwordHash = await hashPassword(password);
  return db.$transaction(async (tx) => {
    const now = new Date();
    const { count } = await tx.passwordLink.updateMany({
      where: { id: link.id, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (count === 0) throw new PasswordError(LINK_NOT_VALID);
    await tx.passwordLink.updateMany({
      where: { userId: link.userId, usedAt: null, organizationId: null },
      data: { usedAt: now },
    });
    await tx.user.update({ where: { id: link.userId }, data: { passwordHash } });
    await tx.userSession.updateMany({ where: { userId: link.userId, revokedAt: null }, data: { revokedAt: now } });
    return { userId: link.userId };
  });
}

// Whether a password link may choose this account's password: only while it has none and belongs
// to no organization but `organizationId`. Any other account is someone's already, reaching other
// organizations' data: it joins only with its own password.
function mayChoosePassword(
  user: { passwordHash: string | null; memberships: { organizationId: string }[] },
  organizationId: string,
): boolean {
  return user.passwordHash === null && user.memberships.every((m) => m.organizationId === organizationId);
}

const ACCOUNT_STATE = { passwordHash: true, memberships: { select: { organizationId: true } } } as const;

// An invitation joins the account to its organization at its role, checked again now: the link is
// unused and unexpired, the admin who issued it is still an admin there, and the account proves it
// is the invited person. An account that may choose its password (no password, no other
// organization) chooses it now; any other account must give its own password, so that no
// organization's link ever reaches an account another organization or person already holds.
// An account already a member keeps its role (a role changes only through the members list,
// which keeps an admin).
async function joinWithInvitation(
  db: Db,
  link: { id: string; userId: string } & InvitationBinding,
  password: string,
): Promise<UsedLink> {
  const before = await db.user.findUniqueOrThrow({ where: { id: link.userId }, select: ACCOUNT_STATE });
  const choosing = mayChoosePassword(before, link.organizationId);
  if (!choosing && !(await verifyPassword(before.passwordHash, password))) throw new PasswordError(NOT_THE_PASSWORD);
  const newHash = choosing ? await hashPassword(password) : null;
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`memberships:${link.organizationId}`}))`;
    const now = new Date();
    const { count } = await tx.passwordLink.updateMany({
      where: { id: link.id, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (count === 0) throw new PasswordError(LINK_NOT_VALID);
    const issuer = await tx.membership.findUnique({
      where: { organizationId_userId: { organizationId: link.organizationId, userId: link.invitedByUserId } },
    });
    if (issuer?.role !== 'admin') throw new PasswordError(LINK_NOT_VALID);
    // The account as it is now: what was checked above must still hold.
    const account = await tx.user.findUniqueOrThrow({ where: { id: link.userId }, select: ACCOUNT_STATE });
    if (choosing !== mayChoosePassword(account, link.organizationId) || account.passwordHash !== before.passwordHash)
      throw new PasswordError(LINK_NOT_VALID);
    if (newHash) await tx.user.update({ where: { id: link.userId }, data: { passwordHash: newHash } });
    await tx.membership.upsert({
      where: { organizationId_userId: { organizationId: link.organizationId, userId: link.userId } },
      create: { organizationId: link.organizationId, userId: link.userId, role: link.role },
      update: {},
    });
    // Other open invitations of this organization for the account are spent with it.
    await tx.passwordLink.updateMany({
      where: { userId: link.userId, organizationId: link.organizationId, usedAt: null },
      data: { usedAt: now },
    });
    return { userId: link.userId, organizationId: link.organizationId };
  });
}
