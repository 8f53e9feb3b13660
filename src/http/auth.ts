import type { Context } from 'koa';
import type { Pool } from 'pg';
import { z } from 'zod';
import type { Credential } from '../auth/credential.js';
import { atLeast, effectiveLevel, type IngestionScope, type Level } from '../auth/levels.js';
import { findActiveSession, sessionCredential, type SessionLifetime } from '../auth/sessions.js';
import { digestToken, tokenKindOf } from '../auth/tokens.js';
import type { Db } from '../db/client.js';
import { errors } from './errors.js';

// Who may call a route: API keys at a level, ingestion tokens with a scope, or both.
export interface AccessRule {
  level?: Level;
  ingestionScope?: IngestionScope;
  // GET /v1/organizations only: the key's user, before any organization is chosen.
  withoutOrganization?: boolean;
}

const uuid = z.string().uuid();

// The request's bearer token with its digest, or null without one. Read once per request: the
// digest names the credential's request budget as well as its lookup.
export interface Bearer {
  token: string;
  digest: string;
}

export function readBearer(ctx: Context): Bearer | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'));
  return match?.[1] ? { token: match[1], digest: digestToken(match[1]) } : null;
}

function requestedOrganization(ctx: Context): string | null {
  const header = ctx.get('X-Organization-Id').trim();
  if (!header) return null;
  if (!uuid.safeParse(header).success) {
    throw errors.validation('X-Organization-Id must be an organization UUID.', [
      { field: 'X-Organization-Id', message: 'must be a UUID' },
    ]);
  }
  return header.toLowerCase();
}

interface KeyWithMembership {
  id: string;
  userId: string;
  organizationId: string;
  level: Level;
  disabled: boolean;
  // The user's role in the organization the request acts in; null when not a member.
  role: Level | null;
}

// The key and the user's membership in the organization the request names (or the key's own) in
// one statement: every request authenticates, so this is one round trip instead of two. It goes
// straight to the pg pool under Prisma: the hottest statement of the API, and Prisma's raw query
// costs more client CPU than the statement takes (docs/benchmarks.md, session 7).
async function authenticateApiKey(pool: Pool, digest: string, ctx: Context, rule: AccessRule): Promise<Credential> {
  // A malformed header is reported only once the token is known to be valid, as before.
  let named: string | null = null;
  let headerError: Error | null = null;
  try {
    named = requestedOrganization(ctx);
  } catch (error) {
    headerError = error as Error; // a validation ApiError
  }
  const { rows } = await pool.query<KeyWithMembership>({
    // Prepared once per connection: its planning took longer than its execution (docs/benchmarks.md),
    // and one plan suits every token (a unique index lookup).
    name: 'authenticate-api-key',
    text: `SELECT k.id::text AS "id", k.user_id::text AS "userId", k.organization_id::text AS "organizationId", k.level::text AS "level",
            k.disabled_at IS NOT NULL AS "disabled", m.role::text AS "role"
       FROM api_keys k
       LEFT JOIN memberships m ON m.user_id = k.user_id AND m.organization_id = COALESCE($2::uuid, k.organization_id)
      WHERE k.token_digest = $1`,
    values: [digest, named],
  });
  const key = rows[0];
  if (!key) throw errors.invalidToken();
  if (key.disabled) throw errors.tokenDisabled();
  if (headerError) throw headerError;
  const base = { keyId: key.id, sessionId: null, userId: key.userId, keyLevel: key.level };
  if (rule.withoutOrganization && !named) return { kind: 'api_key_unscoped', ...base, organizationId: null };
  // Older keys may omit the header and act in the organization they were created in.
  const organizationId = named ?? key.organizationId;
  if (!key.role) throw errors.organizationNotAccessible();
  return { kind: 'api_key', ...base, organizationId, role: key.role, level: effectiveLevel(key.level, key.role) };
}

async function authenticateIngestionToken(db: Db, digest: string, ctx: Context): Promise<Credential> {
  const token = await db.ingestionToken.findUnique({ where: { tokenDigest: digest } });
  if (!token) throw errors.invalidToken();
  if (token.disabledAt) throw errors.tokenDisabled();
  const named = requestedOrganization(ctx);
  if (named && named !== token.organizationId) throw errors.organizationNotAccessible();
  return {
    kind: 'ingestion_token',
    tokenId: token.id,
    organizationId: token.organizationId,
    scopes: token.scopes as IngestionScope[],
  };
}

// A session bearer (the web application's session token) acts as its user in the session's active
// organization at the user's role there; X-Organization-Id, when sent, must name that organization.
export async function authenticateSession(
  db: Db,
  lifetime: SessionLifetime,
  token: string,
  named: string | null,
): Promise<Credential> {
  const session = await findActiveSession(db, lifetime, token);
  if (!session) throw errors.invalidToken('The session has ended; sign in again.');
  if ((named && named !== session.organizationId) || !session.role) throw errors.organizationNotAccessible();
  return sessionCredential({ ...session, role: session.role });
}

export async function authenticate(
  deps: { db: Db; pool: Pool; config: SessionLifetime },
  ctx: Context,
  rule: AccessRule,
  bearer: Bearer | null,
): Promise<Credential> {
  if (!bearer) throw errors.invalidToken('Send Authorization: Bearer <token>.');
  const { token, digest } = bearer;
  switch (tokenKindOf(token)) {
    case 'api_key':
      return authenticateApiKey(deps.pool, digest, ctx, rule);
    case 'ingestion_token':
      return authenticateIngestionToken(deps.db, digest, ctx);
    case 'session':
      return authenticateSession(deps.db, deps.config, token, requestedOrganization(ctx));
    default:
      // Password links and anything else are no bearer.
      throw errors.invalidToken();
  }
}

export function authorize(credential: Credential, rule: AccessRule): void {
  if (credential.kind === 'ingestion_token') {
    if (!rule.ingestionScope) throw errors.insufficientScope('an API key (this path is not part of the Ingestion API)');
    if (!credential.scopes.includes(rule.ingestionScope)) throw errors.insufficientScope(rule.ingestionScope);
    return;
  }
  if (!rule.level) throw errors.insufficientScope('an ingestion token');
  if (credential.kind === 'api_key' && atLeast(credential.level, rule.level)) return;
  if (credential.kind === 'api_key_unscoped' && rule.withoutOrganization) return;
  throw errors.insufficientLevel(rule.level);
}
