import type { ApiKeyCredential, Credential, IngestionCredential } from './credential.js';
import type { IngestionScope, Level } from './levels.js';

// Who a request acts as, derived once from its credential after authorization (src/http/router.ts)
// and handed to the route's handler and on to services. A handler of an organization-scoped route
// always has an organization: no service reads a raw credential or asserts one non-null.

// A user in an organization: through one of their API keys (apiKeyId), or a session of the web
// application (apiKeyId null). `level` is the key's level capped by the user's role there.
export interface MemberActor {
  kind: 'member';
  organizationId: string;
  userId: string;
  apiKeyId: string | null;
  level: Level;
  // The key's own level (a session's: the user's role), before the role caps it, and the role.
  keyLevel: Level;
  role: Level;
}

// An ingestion token of the organization: uploads and reads invoices, belongs to no user.
export interface TokenActor {
  kind: 'ingestion_token';
  organizationId: string;
  userId: null;
  apiKeyId: null;
  level: null;
  tokenId: string;
  scopes: IngestionScope[];
}

// GET /v1/organizations without X-Organization-Id: the key's user, before any organization.
export interface UnscopedActor {
  kind: 'unscoped';
  organizationId: null;
  userId: string;
  apiKeyId: string | null;
  level: null;
  keyLevel: Level;
}

// The actor of an organization-scoped request.
export type RequestActor = MemberActor | TokenActor;
export type AnyActor = RequestActor | UnscopedActor;

export function actorOf(credential: ApiKeyCredential): MemberActor;
export function actorOf(credential: IngestionCredential): TokenActor;
export function actorOf(credential: Credential): AnyActor;
export function actorOf(credential: Credential): AnyActor {
  switch (credential.kind) {
    case 'api_key':
      return {
        kind: 'member',
        organizationId: credential.organizationId,
        userId: credential.userId,
        apiKeyId: credential.keyId,
        level: credential.level,
        keyLevel: credential.keyLevel,
        role: credential.role,
      };
    case 'api_key_unscoped':
      return {
        kind: 'unscoped',
        organizationId: null,
        userId: credential.userId,
        apiKeyId: credential.keyId,
        level: null,
        keyLevel: credential.keyLevel,
      };
    case 'ingestion_token':
      return {
        kind: 'ingestion_token',
        organizationId: credential.organizationId,
        userId: null,
        apiKeyId: null,
        level: null,
        tokenId: credential.tokenId,
        scopes: credential.scopes,
      };
  }
}
