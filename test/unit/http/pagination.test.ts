import { describe, expect, it } from 'vitest';
import { CursorCodec, digestFilters, keyset, pageOf, pageOfRanked, resolvePage } from '../../../src/http/pagination.js';
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
    const next = resolvePage(
      codec,
      { limit: 2, cursor: nextCursor! },
      { sort: 'created_at', direction: 'desc' },
      filters,
    );
    expect(next.after).toEqual({ value: '2026-01-02T00:00:00.000Z', id: 'id-2' });
    expect(() =>
      resolvePage(codec, { limit: 2, cursor: nextCursor! }, { sort: 'created_at', direction: 'desc' }, {}),
    ).toThrow(/other filters/);
    expect(() =>
      resolvePage(
        codec,
        { limit: 2, cursor: nextCursor!, direction: 'asc' },
        { sort: 'created_at', direction: 'desc' },
        filters,
      ),
    ).toThrow(/sort or direction/);
  });

  it('digest filters independently of key order and ignore undefined values', () => {
    expect(digestFilters({ a: 1, b: [2] })).toBe(digestFilters({ b: [2], a: 1, c: undefined }));
    expect(digestFilters({ a: 1 })).not.toBe(digestFilters({ a: 2 }));
  });
});

describe('keyset', () => {
  it('orders by the sort column then the id, and continues strictly after the last row', () => {
    const page = {
      limit: 10,
      sort: 'created_at',
      direction: 'desc' as const,
      filterDigest: 'x',
      after: { value: '2026-01-02T00:00:00.000Z', id: 'id-2' },
    };
    const { where, orderBy, take } = keyset(page, column);
    expect(orderBy).toEqual([{ createdAt: 'desc' }, { id: 'desc' }]);
    expect(take).toBe(11);
    expect(where).toEqual({
      OR: [
        { createdAt: { lt: new Date('2026-01-02T00:00:00.000Z') } },
        { createdAt: new Date('2026-01-02T00:00:00.000Z'), id: { lt: 'id-2' } },
      ],
    });
  });
});

describe('lists ranked in memory (pageOfRanked)', () => {
  const groups = [
    { key: 'b', count: 2 },
    { key: 'a', count: 2 },
    { key: 'c', count: 5 },
    { key: '', count: 1 },
  ];
  const pages = (
    limit: number,
    direction: 'asc' | 'desc',
    rankOf: (g: { key: string; count: number }) => (string | number)[],
    follow = false,
    items = groups,
  ) => {
    const seen: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = resolvePage(codec, { limit, cursor }, { sort: 'count', direction }, { group_by: 'x' });
      const { rows, nextCursor } = pageOfRanked(codec, page, items, rankOf, follow);
      seen.push(rows.map((g) => g.key));
      cursor = nextCursor ?? undefined;
    } while (cursor && seen.length < 10);
    return seen;
  };

  it('page in rank order, ascending or descending, each item once', () => {
    expect(pages(2, 'asc', (g) => [g.count, g.key])).toEqual([
      ['', 'a'],
      ['b', 'c'],
    ]);
    expect(pages(3, 'desc', (g) => [g.count, g.key])).toEqual([['c', 'b', 'a'], ['']]);
    // A rank that already follows the direction: most first, ties by key ascending.
    expect(pages(3, 'desc', (g) => [-g.count, g.key], true)).toEqual([['c', 'a', 'b'], ['']]);
    expect(pages(10, 'asc', (g) => [g.count, g.key])).toEqual([['', 'a', 'b', 'c']]);
  });

  it('continue after the last item when the list changed in between', () => {
    const first = resolvePage(codec, { limit: 2 }, { sort: 'count', direction: 'asc' }, {});
    const { rows, nextCursor } = pageOfRanked(codec, first, groups, (g) => [g.count, g.key]);
    expect(rows.map((g) => g.key)).toEqual(['', 'a']);
    // 'a' is gone and 'aa' joined before it: the next page starts after 'a''s place.
    const changed = [...groups.filter((g) => g.key !== 'a'), { key: '0', count: 1 }, { key: 'aa', count: 2 }];
    const next = resolvePage(codec, { limit: 5, cursor: nextCursor! }, { sort: 'count', direction: 'asc' }, {});
    expect(pageOfRanked(codec, next, changed, (g) => [g.count, g.key]).rows.map((g) => g.key)).toEqual([
      'aa',
      'b',
      'c',
    ]);
  });

  it("refuse a keyset list's cursor", () => {
    const rows = [1, 2, 3].map((n) => ({ id: `id-${n}`, createdAt: new Date(Date.UTC(2026, 0, n)) }));
    const keysetCursor = pageOf(
      codec,
      resolvePage(codec, { limit: 1 }, { sort: 'count', direction: 'asc' }, {}),
      column,
      rows,
    ).nextCursor!;
    const page = resolvePage(codec, { limit: 1, cursor: keysetCursor }, { sort: 'count', direction: 'asc' }, {});
    expect(() => pageOfRanked(codec, page, groups, (g) => [g.count, g.key])).toThrow(ApiError);
  });
});
