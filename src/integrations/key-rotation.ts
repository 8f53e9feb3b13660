import type { Db } from '../db/client.js';
import { openCredentials, sealCredentials, type Keyring } from './crypto.js';

// Re-encrypts every integration's credentials not yet under the current (first) key of
// INTEGRATION_KEYS. Each row is rewritten only if it still holds the ciphertext that was read, so
// a credentials change made meanwhile is never overwritten. Safe to run again: rows already under
// the current key are skipped.
export async function rotateIntegrationKeys(
  db: Db,
  keyring: Keyring,
): Promise<{ reencrypted: number; alreadyCurrent: number }> {
  let reencrypted = 0;
  let after: string | undefined;
  for (;;) {
    const batch = await db.integration.findMany({
      where: { credentialsKeyId: { not: keyring.current.id }, ...(after ? { id: { gt: after } } : {}) },
      orderBy: { id: 'asc' },
      take: 200,
      select: { id: true, organizationId: true, credentialsKeyId: true, credentialsCiphertext: true },
    });
    if (batch.length === 0) break;
    for (const row of batch) {
      const binding = { organizationId: row.organizationId, integrationId: row.id };
      const credentials = openCredentials(keyring, binding, {
        keyId: row.credentialsKeyId,
        ciphertext: row.credentialsCiphertext,
      });
      const sealed = sealCredentials(keyring, binding, credentials);
      const { count } = await db.integration.updateMany({
        where: { id: row.id, credentialsCiphertext: row.credentialsCiphertext },
        data: { credentialsKeyId: sealed.keyId, credentialsCiphertext: sealed.ciphertext },
      });
      reencrypted += count;
    }
    after = batch[batch.length - 1]!.id;
  }
  const alreadyCurrent =
    (await db.integration.count({ where: { credentialsKeyId: keyring.current.id } })) - reencrypted;
  return { reencrypted, alreadyCurrent };
}
