import type { IngestionScope, Level } from './levels.js';

export interface ApiKeyCredential {
  kind: 'api_key';
  keyId: string;
  userId: string;
  keyLevel: Level;
  organizationId: string;
  role: Level;
  level: Level;
}

// GET /v1/organizations is the one route that needs no organization.
export interface UnscopedApiKeyCredential {
  kind: 'api_key_unscoped';
  keyId: string;
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
