import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Db } from '../db/client.js';
import { digestToken, generateToken } from './tokens.js';

// Passwords of the web application: argon2id (a slow hash, for low-entropy human secrets), set only
// through a one-time password link that an admin creates (invitation, first password, reset).

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

// A link for the user; the plaintext token is returned once, only its digest is stored.
export async function createPasswordLink(db: Db, input: { userId: string; appBaseUrl: string; hours?: number }) {
  const token = generateToken('password_link');
  const expiresAt = new Date(Date.now() + (input.hours ?? PASSWORD_LINK_HOURS) * 3_600_000);
  await db.passwordLink.create({ data: { id: randomUUID(), userId: input.userId, tokenDigest: token.digest, expiresAt } });
  return { url: `${input.appBaseUrl.replace(/\/$/, '')}/set-password?token=${token.plaintext}`, expires_at: expiresAt.toISOString() };
}

// The link's user when the link is unused and unexpired; null otherwise (whatever the reason).
export async function findPasswordLink(db: Db, token: string) {
  const link = await db.passwordLink.findUnique({ where: { tokenDigest: digestToken(token) }, include: { user: { select: { id: true, email: true } } } });
  if (!link || link.usedAt || link.expiresAt <= new Date()) return null;
  return link;
}

// Sets the password and uses up the link in one transaction; a link used twice at once sets it
// once. Every other open link of the user ends too, and the user's sessions are signed out.
export async function setPasswordWithLink(db: Db, token: string, password: string): Promise<{ userId: string }> {
  const problem = passwordProblem(password);
  if (problem) throw new PasswordError(problem);
  const link = await findPasswordLink(db, token);
  if (!link) throw new PasswordError('This link is not valid any more. Ask an administrator for a new one.');
  const passwordHash = await hashPassword(password);
  return db.$transaction(async (tx) => {
    const now = new Date();
    const { count } = await tx.passwordLink.updateMany({ where: { id: link.id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
    if (count === 0) throw new PasswordError('This link is not valid any more. Ask an administrator for a new one.');
    await tx.passwordLink.updateMany({ where: { userId: link.userId, usedAt: null }, data: { usedAt: now } });
    await tx.user.update({ where: { id: link.userId }, data: { passwordHash } });
    await tx.userSession.updateMany({ where: { userId: link.userId, revokedAt: null }, data: { revokedAt: now } });
    return { userId: link.userId };
  });
}
