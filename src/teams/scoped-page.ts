import type { RequestActor } from '../auth/actor.js';
import type { AppDeps } from '../deps.js';
import { asModel, Prisma, type RawReader } from '../db/client.js';
import {
  keysetSql,
  pageOf,
  recordSortValue,
  type PageRequest,
  type SortColumn,
  type SqlSortColumn,
} from '../http/pagination.js';
import type { FilterTarget } from './filter/index.js';
import { coveredIds, resolveTeamScope, type TeamScope, type TeamScopeQuery } from './scope.js';

// One page of a list (Prisma's, or one read in SQL: sqlListPage below) narrowed by a team scope.
// The list's own keyset walks its records in sort order in batches; one SQL statement per batch
// keeps those the scope covers, until the page is full. Memory is bounded by the batch, and a batch check is one query with an id array.
// When the scope is sparse the walk stops after MAX_ROUNDS batches and returns a shorter page
// whose cursor continues after the last record looked at (a page may hold fewer than `limit`).

const MAX_BATCH = 2000;
const MIN_BATCH = 100;
const MAX_ROUNDS = 25;

export type KeyBatch = Pick<PageRequest, 'direction' | 'after' | 'limit'>;

export async function scopedPage<K extends { id: string }, R extends { id: string }>(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  options: {
    page: PageRequest;
    column: SortColumn;
    scope: TeamScope;
    target: FilterTarget;
    // The list's own query (its filters AND the batch's keyset, at most limit + 1 records),
    // selecting the id and the sort column.
    keys: (batch: KeyBatch) => Promise<K[]>;
    // The full records of the page.
    load: (ids: string[]) => Promise<R[]>;
  },
): Promise<{ rows: R[]; nextCursor: string | null }> {
  const { page, column, scope, target } = options;
  const batch = Math.min(MAX_BATCH, Math.max(MIN_BATCH, (page.limit + 1) * 2));
  const picked: K[] = [];
  let after = page.after;
  let cursorFromLastScanned: string | null = null;
  for (let round = 0; ; round++) {
    const candidates = await options.keys({ direction: page.direction, after, limit: batch - 1 });
    const covered = await coveredIds(
      deps.db,
      scope,
      target,
      candidates.map((c) => c.id),
    );
    for (const candidate of candidates) {
      if (covered.has(candidate.id)) picked.push(candidate);
      if (picked.length > page.limit) break;
    }
    if (picked.length > page.limit || candidates.length < batch) break;
    const last = candidates[candidates.length - 1]!;
    after = { value: recordSortValue((last as Record<string, unknown>)[column.field]), id: last.id };
    if (round + 1 >= MAX_ROUNDS) {
      cursorFromLastScanned = deps.cursors.encode({
        s: page.sort,
        d: page.direction,
        f: page.filterDigest,
        v: after.value,
        i: after.id,
      });
      break;
    }
  }
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, column, picked);
  const loaded = new Map((await options.load(visible.map((v) => v.id))).map((row) => [row.id, row]));
  return {
    rows: visible.map((v) => loaded.get(v.id)!).filter(Boolean),
    nextCursor: nextCursor ?? cursorFromLastScanned,
  };
}

// `keys` for a list read in SQL: the ids and sort values of its rows that `where` keeps, in the
// batch's keyset order.
function sqlSortKeys(reader: RawReader, { table, alias }: SqlList, where: Prisma.Sql, column: SqlSortColumn) {
  return async (batch: KeyBatch): Promise<{ id: string }[]> => {
    const { where: after, orderBy, limit } = keysetSql(batch, column, alias);
    const rows = await reader.$queryRaw<Record<string, unknown>[]>`
      SELECT ${Prisma.raw(`${alias}.id, ${alias}.${column.column}`)} FROM ${Prisma.raw(`${table} ${alias}`)}
       WHERE ${where} AND ${after} ORDER BY ${orderBy} LIMIT ${limit}`;
    return rows.map((row) => asModel<{ id: string }>(row));
  };
}

// A list read in SQL (a domain's list.ts): its table and alias (constants of the code, never
// input), what its team filters apply to, and its sorts.
export interface SqlList {
  table: string;
  alias: string;
  target: FilterTarget;
  sorts: Record<string, SqlSortColumn>;
}

// One page of a list read in SQL: `filters` over the list's rows, narrowed by the team scope the
// request names (`mine`, `team_ids`); `read` is the page statement for a condition, order and row
// count. With a team scope, batches of keys are checked against it first and the page is read by id.
export async function sqlListPage<R extends { id: string }>(
  deps: Pick<AppDeps, 'db' | 'cursors' | 'reader'>,
  list: SqlList,
  request: {
    actor: RequestActor;
    page: PageRequest;
    teams: TeamScopeQuery;
    filters: Prisma.Sql;
    read: (where: Prisma.Sql, orderBy: Prisma.Sql, limit: number) => Promise<R[]>;
  },
): Promise<{ rows: R[]; nextCursor: string | null }> {
  const { page, filters, read } = request;
  const column = list.sorts[page.sort]!;
  const scope = await resolveTeamScope(deps.db, request.actor, request.teams);
  const { where: afterCursor, orderBy, limit } = keysetSql(page, column, list.alias);
  if (!scope)
    return pageOf(deps.cursors, page, column, await read(Prisma.sql`${filters} AND ${afterCursor}`, orderBy, limit));
  return scopedPage(deps, {
    page,
    column,
    scope,
    target: list.target,
    keys: sqlSortKeys(deps.reader, list, filters, column),
    load: (ids) => read(Prisma.sql`${Prisma.raw(`${list.alias}.id`)} = ANY(${ids}::uuid[])`, orderBy, ids.length),
  });
}
