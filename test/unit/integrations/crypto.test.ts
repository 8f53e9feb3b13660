import { describe, expect, it } from 'vitest';
import {
  IntegrationKeyError,
  newKeySetting,
  openCredentials,
  parseKeyring,
  sealCredentials,
} from '../../../src/integrations/crypto.js';
import { lastCalendarMonth, syncPeriod } from '../../../src/integrations/syncs.js';

const binding = {
  organizationId: '00000000-0000-4000-8000-000000000001',
  integrationId: '00000000-0000-4000-8000-000000000002',
};

describe('integration credentials encryption', () => {
  it('round-trips under the first key, with the key id beside the ciphertext and no plaintext in it', () => {
    const keyring = parseKeyring(`${newKeySetting('k2')},${newKeySetting('k1')}`);
    const sealed = sealCredentials(keyring, binding, { employee_token: 'very-secret-token' });
    expect(sealed.keyId).toBe('k2');
    expect(sealed.ciphertext).not.toContain('very-secret-token');
    expect(Buffer.from(sealed.ciphertext.split('.')[3]!, 'base64').toString('latin1')).not.toContain(
      'very-secret-token',
    );
    expect(openCredentials(keyring, binding, sealed)).toEqual({ employee_token: 'very-secret-token' });
    // A fresh IV each time.
    expect(sealCredentials(keyring, binding, { employee_token: 'very-secret-token' }).ciphertext).not.toBe(
      sealed.ciphertext,
    );
  });

  it('decrypts with an older key after rotation, and not at all once that key is gone', () => {
    const old = newKeySetting('old');
    const sealed = sealCredentials(parseKeyring(old), binding, { a: 1 });
    const rotated = parseKeyring(`${newKeySetting('new')},${old}`);
    expect(openCredentials(rotated, binding, sealed)).toEqual({ a: 1 });
    expect(sealCredentials(rotated, binding, { a: 1 }).keyId).toBe('new');
    expect(() => openCredentials(parseKeyring(newKeySetting('new')), binding, sealed)).toThrow(IntegrationKeyError);
  });

  it('binds the ciphertext to its integration: copied onto another row it does not decrypt', () => {
    const keyring = parseKeyring(newKeySetting('k'));
    const sealed = sealCredentials(keyring, binding, { a: 1 });
    expect(() =>
      openCredentials(keyring, { ...binding, integrationId: '00000000-0000-4000-8000-000000000003' }, sealed),
    ).toThrow(IntegrationKeyError);
    const tampered = {
      ...sealed,
      ciphertext: sealed.ciphertext.slice(0, -4) + (sealed.ciphertext.endsWith('AAAA') ? 'BBBB' : 'AAAA'),
    };
    expect(() => openCredentials(keyring, binding, tampered)).toThrow(IntegrationKeyError);
  });

  it('refuses malformed key settings', () => {
    expect(() => parseKeyring('')).toThrow(IntegrationKeyError);
    expect(() => parseKeyring('k:short')).toThrow(/32 bytes/);
    expect(() => parseKeyring(`bad id:${Buffer.alloc(32).toString('base64')}`)).toThrow(IntegrationKeyError);
    expect(() =>
      parseKeyring(`k:${Buffer.alloc(32).toString('base64')},k:${Buffer.alloc(32).toString('base64')}`),
    ).toThrow(/twice/);
  });
});

describe('sync period', () => {
  it('defaults to the last calendar month, across a year end', () => {
    expect(lastCalendarMonth(new Date('2026-03-15T10:00:00Z'))).toEqual({ from: '2026-02-01', through: '2026-02-28' });
    expect(lastCalendarMonth(new Date('2026-01-01T00:00:00Z'))).toEqual({ from: '2025-12-01', through: '2025-12-31' });
  });

  it('fills a missing end with today and a missing start with the first of the month', () => {
    const today = new Date('2026-05-20T08:00:00Z');
    expect(syncPeriod({ date_from: '2026-05-02' }, today)).toEqual({ from: '2026-05-02', through: '2026-05-20' });
    expect(syncPeriod({ date_through: '2026-04-10' }, today)).toEqual({ from: '2026-04-01', through: '2026-04-10' });
    expect(() => syncPeriod({ date_from: '2026-05-02', date_through: '2026-05-01' }, today)).toThrow();
  });
});
