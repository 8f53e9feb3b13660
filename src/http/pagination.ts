import { createHash, createHmac } from 'node:crypto';
import { sameSecret } from '../auth/tokens.js';
import { z } from 'zod';
import { Prisma } from '../db/client.js';
import { errors } from './errors.js';

// Cursor pagination for every list: keyset over (sort column, id), so each record appears exactly
// once across pages even while records are inserted. The cursor is opaque, signed, and bound to
// the filters and sort it was made for.

export type Direction = 'asc' | 'desc';
export type SortValue = string | number | null;

export interface SortColumn {
  // Prisma field name.
  field: string;
  kind: 'date' | 'string' | 'number';
  // Nullable columns sort their nulls last in either direction.
  nullable?: boolean;
}

// A sort column of a list read in SQL: its column (a constant of the code, never input) and type.
export interface SqlSortColumn extends SortColumn {
  column: string;
  type: 'timestamptz' | 'date' | 'numeric' | 'text';
}

export interface PageRequest {
  limit: number;
  sort: string;
  direction: Direction;
  after: { value: SortValue; id: string } | null;
  filterDigest: string;
}

interface CursorPayload {
  s: string;
  d: Direction;
  f: string;
  v: SortValue;
  i: string;
}

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_CURSOR_LENGTH = 512;

export function pageParams<S extends string>(
  sorts: readonly [S, ...S[]],
  limits = { max: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
) {
  return {
    limit: z.coerce.number().int().min(1).max(limits.max).default(limits.default),
    cursor: z.string().min(1).max(MAX_CURSOR_LENGTH).optional(),
    sort: z.enum(sorts).optional(),
    direction: z.enum(['asc', 'desc']).optional(),
    fields: z.string().optional(),
  };
}

export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(payload: CursorPayload): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode(cursor: string): CursorPayload {
    const [body, signature] = cursor.split('.');
    const expected = body ? this.sign(body) : '';
    if (!body || !sameSecret(expected, signature)) throw invalidCursor('The cursor is not one this API issued.');
    try {
      return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
    } catch {
      throw invalidCursor('The cursor is not one this API issued.');
    }
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url').slice(0, 22);
  }
}

function invalidCursor(message: string) {
  return errors.validation(message, [{ field: 'cursor', message }]);
}

// A stable digest of the filters a list was asked with (everything but paging and field selection).
export function digestFilters(filters: Record<string, unknown>): string {
  const canonical = Object.keys(filters)
    .filter((k) => filters[k] !== undefined)
    .sort()
    .map((k) => [k, filters[k]]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('base64url').slice(0, 16);
}

export function resolvePage(
  codec: CursorCodec,
  query: { limit: number; cursor?: string; sort?: string; direction?: Direction },
  defaults: { sort: string; direction: Direction },
  filters: Record<string, unknown>,
): PageRequest {
  const filterDigest = digestFilters(filters);
  if (!query.cursor) {
    return {
      limit: query.limit,
      sort: query.sort ?? defaults.sort,
      direction: query.direction ?? defaults.direction,
      after: null,
      filterDigest,
    };
  }
  const cursor = codec.decode(query.cursor);
  if ((query.sort && query.sort !== cursor.s) || (query.direction && query.direction !== cursor.d)) {
    throw invalidCursor(
      'The cursor was made for another sort or direction; send the same sort and direction, or none.',
    );
  }
  if (cursor.f !== filterDigest) {
    throw invalidCursor('The cursor was made for other filters; send the same filters as for the first page.');
  }
  return {
    limit: query.limit,
    sort: cursor.s,
    direction: cursor.d,
    after: { value: cursor.v, id: cursor.i },
    filterDigest,
  };
}

function toPrismaValue(column: SortColumn, value: SortValue): unknown {
  return column.kind === 'date' && typeof value === 'string' ? new Date(value) : value;
}

// The cursor value of a record's sort column (also used by walks that page in batches).
export function recordSortValue(value: unknown): SortValue {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' || typeof value === 'string' || value === null) return value;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the other sort columns are Decimal or bigint, exact as text
  return String(value);
}

// Prisma where/orderBy for one page; combine `where` with the list's own filters using AND.
// `idField` is the unique tie-breaker column (the record id, or e.g. userId on memberships).
export function keyset(page: Pick<PageRequest, 'direction' | 'after' | 'limit'>, column: SortColumn, idField = 'id') {
  const op = page.direction === 'asc' ? 'gt' : 'lt';
  const orderBy = [
    { [column.field]: column.nullable ? { sort: page.direction, nulls: 'last' as const } : page.direction },
    { [idField]: page.direction },
  ];
  if (!page.after) return { where: {}, orderBy, take: page.limit + 1 };
  const afterId = { [idField]: { [op]: page.after.id } };
  if (page.after.value === null) {
    // Past the last non-null value: only the remaining nulls, in id order.
    return { where: { [column.field]: null, ...afterId }, orderBy, take: page.limit + 1 };
  }
  const value = toPrismaValue(column, page.after.value);
  const where = {
    OR: [
      { [column.field]: { [op]: value } },
      { [column.field]: value, ...afterId },
      ...(column.nullable ? [{ [column.field]: null }] : []),
    ],
  };
  return { where, orderBy, take: page.limit + 1 };
}

export function pageOf<Row extends { id: string }>(
  codec: CursorCodec,
  page: PageRequest,
  column: SortColumn,
  rows: Row[],
): { rows: Row[]; nextCursor: string | null } {
  if (rows.length <= page.limit) return { rows, nextCursor: null };
  const visible = rows.slice(0, page.limit);
  const last = visible[visible.length - 1]!;
  const nextCursor = codec.encode({
    s: page.sort,
    d: page.direction,
    f: page.filterDigest,
    v: recordSortValue((last as Record<string, unknown>)[column.field]),
    i: last.id,
  });
  return { rows: visible, nextCursor };
}

function sqlValue(column: SqlSortColumn, value: string | number): Prisma.Sql {
  const text = column.type === 'date' ? String(value).slice(0, 10) : String(value);
  return Prisma.sql`${text}::${Prisma.raw(column.type)}`;
}

// The same keyset as `keyset`, as SQL over the list's table `alias` (a constant of the caller):
// `where` to AND with the list's filters, `orderBy` for the statement, `limit` one past the page.
// The row comparison lets PostgreSQL start the index scan at the cursor.
export function keysetSql(
  page: Pick<PageRequest, 'direction' | 'after' | 'limit'>,
  column: SqlSortColumn,
  alias: string,
) {
  const direction = page.direction === 'asc' ? 'ASC' : 'DESC';
  const op = Prisma.raw(page.direction === 'asc' ? '>' : '<');
  const sorted = Prisma.raw(`${alias}.${column.column}`);
  const id = Prisma.raw(`${alias}.id`);
  const orderBy = Prisma.raw(
    `${alias}.${column.column} ${direction}${column.nullable ? ' NULLS LAST' : ''}, ${alias}.id ${direction}`,
  );
  const limit = page.limit + 1;
  if (!page.after) return { where: Prisma.sql`TRUE`, orderBy, limit };
  const afterId = Prisma.sql`${page.after.id}::uuid`;
  // Past the last non-null value: only the remaining nulls, in id order.
  if (page.after.value === null)
    return { where: Prisma.sql`(${sorted} IS NULL AND ${id} ${op} ${afterId})`, orderBy, limit };
  const after = Prisma.sql`(${sorted}, ${id}) ${op} (${sqlValue(column, page.after.value)}, ${afterId})`;
  return { where: column.nullable ? Prisma.sql`(${after} OR ${sorted} IS NULL)` : after, orderBy, limit };
}

// A list ranked whole in memory (alert groups, search results, a claim's files): each item's place
// is a tuple compared element by element (numbers by value, text by code unit), its last element
// unique, ascending or (direction desc) descending as a whole. The cursor carries the last item's
// tuple, and the next page is the items ranked after it, so a page never repeats or skips an item
// that keeps its place while the list changes.
export type Rank = readonly (string | number)[];

function compareRanks(a: Rank, b: Rank): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

function rankOfCursor(after: NonNullable<PageRequest['after']>): Rank {
  try {
    const rank = JSON.parse(String(after.value)) as unknown;
    if (Array.isArray(rank) && rank.every((part) => typeof part === 'string' || typeof part === 'number')) return rank;
  } catch {
    // Not a ranked list's cursor: refused below.
  }
  throw invalidCursor('The cursor was made for another list.');
}

// `rankOf` may give the place for the page's direction itself (e.g. most alerts first, ties by key
// ascending): then `ranksFollowDirection` says so, and the tuples ascend as given.
export function pageOfRanked<T>(
  codec: CursorCodec,
  page: PageRequest,
  items: readonly T[],
  rankOf: (item: T) => Rank,
  ranksFollowDirection = false,
): { rows: T[]; nextCursor: string | null } {
  const sign = page.direction === 'desc' && !ranksFollowDirection ? -1 : 1;
  const compare = (a: Rank, b: Rank) => sign * compareRanks(a, b);
  const ranked = items.map((item) => ({ item, rank: rankOf(item) })).sort((a, b) => compare(a.rank, b.rank));
  const after = page.after ? rankOfCursor(page.after) : null;
  const remaining = after ? ranked.filter((entry) => compare(entry.rank, after) > 0) : ranked;
  const visible = remaining.slice(0, page.limit);
  if (remaining.length <= page.limit) return { rows: visible.map((entry) => entry.item), nextCursor: null };
  const last = visible[visible.length - 1]!;
  const nextCursor = codec.encode({
    s: page.sort,
    d: page.direction,
    f: page.filterDigest,
    v: JSON.stringify(last.rank),
    i: String(last.rank[last.rank.length - 1]),
  });
  return { rows: visible.map((entry) => entry.item), nextCursor };
}

// The cursor of a page cut short after `last` (a page bounded by its size, not only its count).
export function cursorAfter(codec: CursorCodec, page: PageRequest, column: SortColumn, last: { id: string }): string {
  return codec.encode({
    s: page.sort,
    d: page.direction,
    f: page.filterDigest,
    v: recordSortValue((last as Record<string, unknown>)[column.field]),
    i: last.id,
  });
}
