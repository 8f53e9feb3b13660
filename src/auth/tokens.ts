import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// Keys and tokens are 256-bit random secrets, so a fast digest (SHA-256) is the right storage
// form: there is nothing to brute-force, and lookup by digest stays a single index hit.
// (Slow password hashes such as argon2 are for low-entropy human secrets.)
export const API_KEY_PREFIX = 'icsk_';
export const INGESTION_TOKEN_PREFIX = 'icsi_';
// The web application's session: its cookie, and the session bearer of the API.
export const SESSION_TOKEN_PREFIX = 'icss_';
// A one-time password link (never a bearer).
export const PASSWORD_LINK_PREFIX = 'icsp_';

export type TokenKind = 'api_key' | 'ingestion_token' | 'session' | 'password_link';

const PREFIXES: Record<TokenKind, string> = {
  api_key: API_KEY_PREFIX,
  ingestion_token: INGESTION_TOKEN_PREFIX,
  session: SESSION_TOKEN_PREFIX,
  password_link: PASSWORD_LINK_PREFIX,
};

export function generateToken(kind: TokenKind): { plaintext: string; digest: string; displayPrefix: string } {
  const prefix = PREFIXES[kind];
  const plaintext = `${prefix}${randomBytes(32).toString('base64url')}`;
  return { plaintext, digest: digestToken(plaintext), displayPrefix: plaintext.slice(0, prefix.length + 6) };
}

export function digestToken(plaintext: string): string {
  return createHash('sha256').update(plaintext, 'utf8').digest('hex');
}

export function tokenKindOf(plaintext: string): TokenKind | null {
  const kind = (Object.keys(PREFIXES) as TokenKind[]).find((candidate) => plaintext.startsWith(PREFIXES[candidate]));
  return kind ?? null;
}

// Compares a secret the client sent with the expected one in constant time. Byte lengths are
// compared first: timingSafeEqual throws on buffers of different lengths, and a string of the
// same character count can hold more bytes (non-ASCII), which would otherwise be a 500.
export function sameSecret(expected: string, sent: unknown): boolean {
  if (typeof sent !== 'string') return false;
  const a = Buffer.from(sent, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
