import type { IngestionScope, Level } from './levels.js';

// A user acting in an organization: through one of their personal API keys, or through a session
// of the web application (its cookie, or the session bearer). A session has no key: keyId is null,
// sessionId is set, and its level is the user's role (keyLevel = role).
export interface ApiKeyCredential {
  kind: 'api_key';
  keyId: string | null;
  sessionId: string | null;
  userId: string;
  keyLevel: Level;
  organizationId: string;
  role: Level;
  level: Level;
}

// GET /v1/organizations is the one route that needs no organization.
export interface UnscopedApiKeyCredential {
  kind: 'api_key_unscoped';
  keyId: string | null;
  sessionId: string | null;
  userId: string;
  keyLevel: Level;
  organizationId: null;
}

export interface IngestionCredential {
  kind: 'ingestion_token';
  tokenId: string;
  organizationId: string;
  scopes: IngestionScope[];
}

export type Credential = ApiKeyCredential | UnscopedApiKeyCredential | IngestionCredential;

export const isIngestion = (credential: Credential): credential is IngestionCredential =>
  credential.kind === 'ingestion_token';
