import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Integration credentials at rest: AES-256-GCM with a key from INTEGRATION_KEYS
// (`kid1:base64key,kid2:base64key`). The first key encrypts; all decrypt, so keys rotate by putting
// a new one first, re-encrypting (rotateIntegrationKeys in ./key-rotation.ts) and then dropping
// the old one. The key id is stored beside the ciphertext. The integration's id and organization
// are the additional authenticated data: a ciphertext copied onto another row does not decrypt.

const KEY_BYTES = 32;
const IV_BYTES = 12;
const FORMAT = 'v1';

export class IntegrationKeyError extends Error {}

export interface Keyring {
  current: { id: string; key: Buffer };
  byId: Map<string, Buffer>;
}

export interface Sealed {
  keyId: string;
  ciphertext: string;
}

export function parseKeyring(setting: string): Keyring {
  const byId = new Map<string, Buffer>();
  let current: Keyring['current'] | null = null;
  for (const entry of setting
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const separator = entry.indexOf(':');
    const id = separator > 0 ? entry.slice(0, separator) : '';
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(id))
      throw new IntegrationKeyError(
        'INTEGRATION_KEYS: each entry is kid:base64key, the kid 1-32 letters, digits, - or _',
      );
    const key = Buffer.from(entry.slice(separator + 1), 'base64');
    if (key.length !== KEY_BYTES)
      throw new IntegrationKeyError(`INTEGRATION_KEYS: the key ${id} must be 32 bytes, base64-encoded`);
    if (byId.has(id)) throw new IntegrationKeyError(`INTEGRATION_KEYS: the key id ${id} appears twice`);
    byId.set(id, key);
    current ??= { id, key };
  }
  if (!current) throw new IntegrationKeyError('INTEGRATION_KEYS holds no key');
  return { current, byId };
}

export function newKeySetting(id: string): string {
  return `${id}:${randomBytes(KEY_BYTES).toString('base64')}`;
}

function aad(binding: { organizationId: string; integrationId: string }): Buffer {
  return Buffer.from(`integration:${binding.organizationId}:${binding.integrationId}`);
}

export function sealCredentials(
  keyring: Keyring,
  binding: { organizationId: string; integrationId: string },
  credentials: Record<string, unknown>,
): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyring.current.key, iv);
  cipher.setAAD(aad(binding));
  const encrypted = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return {
    keyId: keyring.current.id,
    ciphertext: [FORMAT, iv.toString('base64'), tag.toString('base64'), encrypted.toString('base64')].join('.'),
  };
}

export function openCredentials(
  keyring: Keyring,
  binding: { organizationId: string; integrationId: string },
  sealed: Sealed,
): Record<string, unknown> {
  const key = keyring.byId.get(sealed.keyId);
  if (!key)
    throw new IntegrationKeyError(
      `the key ${sealed.keyId} that encrypted these credentials is not in INTEGRATION_KEYS`,
    );
  const [format, iv, tag, data] = sealed.ciphertext.split('.');
  if (format !== FORMAT || !iv || !tag || data === undefined)
    throw new IntegrationKeyError('the stored credentials are not in a known format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAAD(aad(binding));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  try {
    const plain = Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
    return JSON.parse(plain) as Record<string, unknown>;
  } catch {
    throw new IntegrationKeyError('the stored credentials do not decrypt with their key');
  }
}
