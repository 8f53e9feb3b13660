import { createHash, randomBytes } from 'node:crypto';

// Keys and tokens are 256-bit random secrets, so a fast digest (SHA-256) is the right storage
// form: there is nothing to brute-force, and lookup by digest stays a single index hit.
// (Slow password hashes such as argon2 are for low-entropy human secrets.)
export const API_KEY_PREFIX = 'icsk_';
export const INGESTION_TOKEN_PREFIX = 'icsi_';

export type TokenKind = 'api_key' | 'ingestion_token';

export function generateToken(kind: TokenKind): { plaintext: string; digest: string; displayPrefix: string } {
  const prefix = kind === 'api_key' ? API_KEY_PREFIX : INGESTION_TOKEN_PREFIX;
  const plaintext = `${prefix}${randomBytes(32).toString('base64url')}`;
  return { plaintext, digest: digestToken(plaintext), displayPrefix: plaintext.slice(0, prefix.length + 6) };
}

export function digestToken(plaintext: string): string {
  return createHash('sha256').update(plaintext, 'utf8').digest('hex');
}

export function tokenKindOf(plaintext: string): TokenKind | null {
  if (plaintext.startsWith(API_KEY_PREFIX)) return 'api_key';
  if (plaintext.startsWith(INGESTION_TOKEN_PREFIX)) return 'ingestion_token';
  return null;
}
