import { describe, expect, it } from 'vitest';
import { atLeast, effectiveLevel } from '../../../src/auth/levels.js';
import { digestToken, generateToken, sameSecret, tokenKindOf } from '../../../src/auth/tokens.js';
import { deterministicUuid } from '../../../src/shared/ids.js';

describe('levels', () => {
  it('are cumulative and a key never exceeds its owner role', () => {
    expect(atLeast('admin', 'write')).toBe(true);
    expect(atLeast('read', 'write')).toBe(false);
    expect(effectiveLevel('admin', 'read')).toBe('read');
    expect(effectiveLevel('read', 'admin')).toBe('read');
    expect(effectiveLevel('write', 'write')).toBe('write');
  });
});

describe('tokens', () => {
  it('are random, typed by prefix and stored only as a digest', () => {
    const a = generateToken('api_key');
    const b = generateToken('api_key');
    expect(a.plaintext).not.toBe(b.plaintext);
    expect(tokenKindOf(a.plaintext)).toBe('api_key');
    expect(tokenKindOf(generateToken('ingestion_token').plaintext)).toBe('ingestion_token');
    expect(tokenKindOf('Bearer nonsense')).toBeNull();
    expect(a.digest).toBe(digestToken(a.plaintext));
    expect(a.digest).not.toContain(a.plaintext.slice(5));
  });
});

describe('sameSecret', () => {
  it('accepts only the same secret, and refuses (never throws on) other lengths, non-ASCII and non-strings', () => {
    expect(sameSecret('abcdef', 'abcdef')).toBe(true);
    expect(sameSecret('abcdef', 'abcdeg')).toBe(false);
    expect(sameSecret('abcdef', 'abc')).toBe(false);
    // Same character count, more bytes: timingSafeEqual alone would throw here.
    expect(sameSecret('abcdef', 'abcdeé')).toBe(false);
    expect(sameSecret('abcdef', undefined)).toBe(false);
    expect(sameSecret('abcdef', ['abcdef'])).toBe(false);
  });
});

describe('deterministic ids', () => {
  it('give the same UUID for the same name only', () => {
    const id = deterministicUuid('retry-of:x');
    expect(id).toBe(deterministicUuid('retry-of:x'));
    expect(id).not.toBe(deterministicUuid('retry-of:y'));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
