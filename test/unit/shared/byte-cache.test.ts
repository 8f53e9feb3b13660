import { describe, expect, it } from 'vitest';
import { ByteCache } from '../../../src/shared/byte-cache.js';

const bytes = (size: number) => Buffer.alloc(size, 1);

describe('a cache bounded by bytes', () => {
  it('lets the least recently used go first when the bound is passed', () => {
    const cache = new ByteCache(30);
    cache.set('a', bytes(10));
    cache.set('b', bytes(10));
    cache.set('c', bytes(10));
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    cache.set('d', bytes(10));
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => cache.get(key)?.length)).toEqual([10, 10, 10]);
  });

  it('answers but does not keep an entry over its per-entry bound', () => {
    const cache = new ByteCache(100, 20);
    cache.set('small', bytes(20));
    cache.set('large', bytes(21));
    expect(cache.get('large')).toBeUndefined();
    expect(cache.get('small')?.length).toBe(20);
  });

  it('counts a key set twice once', () => {
    const cache = new ByteCache(20);
    cache.set('a', bytes(10));
    cache.set('a', bytes(10));
    cache.set('b', bytes(10));
    expect(cache.get('a')?.length).toBe(10);
    expect(cache.get('b')?.length).toBe(10);
  });

  it('makes a key once for callers that ask while it is being made, and keeps no failure', async () => {
    const cache = new ByteCache(100);
    let made = 0;
    const make = async () => {
      made += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return bytes(10);
    };
    const [first, second] = await Promise.all([cache.remembered('a', make), cache.remembered('a', make)]);
    expect(first).toBe(second);
    expect(made).toBe(1);
    expect(await cache.remembered('a', make)).toBe(first);
    expect(made).toBe(1);
    await expect(cache.remembered('b', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await cache.remembered('b', make)).toHaveLength(10);
  });
});
