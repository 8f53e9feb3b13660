import { describe, expect, it } from 'vitest';
import { CursorCodec, digestFilters, keyset, pageOf, resolvePage } from '../../../src/http/pagination.js';
import { ApiError } from '../../../src/http/errors.js';

const codec = new CursorCodec('unit-test-secret-0123456789');
const column = { field: 'createdAt', kind: 'date' as const };

describe('cursors', () => {
  it('round-trip and reject tampering', () => {
    const cursor = codec.encode({ s: 'created_at', d: 'desc', f: 'abc', v: '2026-01-01T00:00:00.000Z', i: 'x' });
    expect(codec.decode(cursor).i).toBe('x');
    const [body] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify({ s: 'created_at', d: 'desc', f: 'abc', v: null, i: 'y' })).toString('base64url')}.${cursor.split('.')[1]}`;
    expect(() => codec.decode(forged)).toThrow(ApiError);
    expect(() => codec.decode(`${body}`)).toThrow(ApiError);
  });

  it('are bound to filters, sort and direction', () => {
    const filters = { statuses: ['failed'] };
    const rows = [1, 2, 3].map((n) => ({ id: `id-${n}`, createdAt: new Date(Date.UTC(2026, 0, n)) }));
    const page = resolvePage(codec, { limit: 2 }, { sort: 'created_at', direction: 'desc' }, filters);
    const { nextCursor } = pageOf(codec, page, column, rows);
    expect(nextCursor).not.toBeNull();
    const next = resolvePage(codec, { limit: 2, cursor: nextCursor! }, { sort: 'created_at', direction: 'desc' }, filters);
    expect(next.after).toEqual({ value: '2026-01-02T00:00:00.000Z', id: 'id-2' });
    expect(() => resolvePage(codec, { limit: 2, cursor: nextCursor! }, { sort: 'created_at', direction: 'desc' }, {})).toThrow(/other filters/);
    expect(() => resolvePage(codec, { limit: 2, cursor: nextCursor!, direction: 'asc' }, { sort: 'created_at', direction: 'desc' }, filters)).toThrow(/sort or direction/);
  });

  it('digest filters independently of key order and ignore undefined values', () => {
    expect(digestFilters({ a: 1, b: [2] })).toBe(digestFilters({ b: [2], a: 1, c: undefined }));
    expect(digestFilters({ a: 1 })).not.toBe(digestFilters({ a: 2 }));
  });
});

describe('keyset', () => {
  it('orders by the sort column then the id, and continues strictly after the last row', () => {
    const page = { limit: 10, sort: 'created_at', direction: 'desc' as const, filterDigest: 'x', after: { value: '2026-01-02T00:00:00.000Z', id: 'id-2' } };
    const { where, orderBy, take } = keyset(page, column);
    expect(orderBy).toEqual([{ createdAt: 'desc' }, { id: 'desc' }]);
    expect(take).toBe(11);
    expect(where).toEqual({
      OR: [{ createdAt: { lt: new Date('2026-01-02T00:00:00.000Z') } }, { createdAt: new Date('2026-01-02T00:00:00.000Z'), id: { lt: 'id-2' } }],
    });
  });
});
