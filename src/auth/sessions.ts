import { randomBytes, randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { ApiKeyCredential } from './credential.js';
import type { Level } from './levels.js';
import { digestToken, generateToken } from './tokens.js';

// Sessions of the web application (docs/web.md). The token is the cookie's value and the session
// bearer of the API; only its SHA-256 digest is stored, like API keys. A session ends when revoked
// (sign-out, password set), after SESSION_IDLE_HOURS without a request, or SESSION_MAX_DAYS after
// sign-in, whichever comes first.

export type SessionLifetime = Pick<Config, 'SESSION_IDLE_HOURS' | 'SESSION_MAX_DAYS'>;

export interface ActiveSession {
  id: string;
  userId: string;
  organizationId: string;
  csrfSecret: string;
  // The user's role in the active organization; null once they are no longer a member of it.
  role: Level | null;
}

// What the API's services see for a session, as the session bearer and as the web pages: the
// user in the session's active organization at their role there (a session has no key).
export function sessionCredential(
  session: Pick<ActiveSession, 'id' | 'userId' | 'organizationId'> & { role: Level },
): ApiKeyCredential {
  return {
    kind: 'api_key',
    keyId: null,
    sessionId: session.id,
    userId: session.userId,
    organizationId: session.organizationId,
    keyLevel: session.role,
    role: session.role,
    level: session.role,
  };
}

// last_seen_at is written at most this often, so a page's requests do not each write a row.
const TOUCH_INTERVAL_MS = 60_000;

export async function createSession(
  db: Db,
  lifetime: SessionLifetime,
  input: { userId: string; organizationId: string },
) {
  const token = generateToken('session');
  const now = Date.now();
  const session = await db.userSession.create({
    data: {
      id: randomUUID(),
      userId: input.userId,
      tokenDigest: token.digest,
      activeOrganizationId: input.organizationId,
      csrfSecret: randomBytes(32).toString('base64url'),
      expiresAt: new Date(now + lifetime.SESSION_MAX_DAYS * 86_400_000),
    },
  });
  return { token: token.plaintext, session };
}

interface SessionRow {
  id: string;
  userId: string;
  organizationId: string;
  csrfSecret: string;
  role: Level | null;
  lastSeenAt: Date;
}

// The live session of a token, with the user's role in its active organization: one statement
// (every request of the application and every session bearer authenticates).
export async function findActiveSession(
  db: Db,
  lifetime: SessionLifetime,
  token: string,
): Promise<ActiveSession | null> {
  const idleSince = new Date(Date.now() - lifetime.SESSION_IDLE_HOURS * 3_600_000);
  const [row] = await db.$queryRaw<SessionRow[]>`
    SELECT s.id::text AS "id", s.user_id::text AS "userId", s.active_organization_id::text AS "organizationId",
           s.csrf_secret AS "csrfSecret", m.role::text AS "role", s.last_seen_at AS "lastSeenAt"
      FROM user_sessions s
      LEFT JOIN memberships m ON m.user_id = s.user_id AND m.organization_id = s.active_organization_id
     WHERE s.token_digest = ${digestToken(token)} AND s.revoked_at IS NULL
       AND s.expires_at > now() AND s.last_seen_at > ${idleSince}`;
  if (!row) return null;
  if (Date.now() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.userSession.updateMany({ where: { id: row.id, revokedAt: null }, data: { lastSeenAt: new Date() } });
  }
  return {
    id: row.id,
    userId: row.userId,
    organizationId: row.organizationId,
    csrfSecret: row.csrfSecret,
    role: row.role,
  };
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.userSession.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: new Date() } });
}

// Switches the active organization; only to one the user is a member of (else false, unchanged).
export async function switchOrganization(
  db: Db,
  session: Pick<ActiveSession, 'id' | 'userId'>,
  organizationId: string,
): Promise<boolean> {
  const membership = await db.membership.findUnique({
    where: { organizationId_userId: { organizationId, userId: session.userId } },
  });
  if (!membership) return false;
  await db.userSession.update({ where: { id: session.id }, data: { activeOrganizationId: organizationId } });
  return true;
}

// The organization a new session starts in: the user's first by name.
export async function firstOrganizationOf(db: Db, userId: string): Promise<string | null> {
  const membership = await db.membership.findFirst({
    where: { userId },
    orderBy: { organization: { name: 'asc' } },
    select: { organizationId: true },
  });
  return membership?.organizationId ?? null;
}
