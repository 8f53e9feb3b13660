import type { AppDeps } from '../deps.js';
import { keyset, pageOf, recordSortValue, type PageRequest, type SortColumn } from '../http/pagination.js';
import type { FilterTarget } from './filter/index.js';
import { coveredIds, type TeamScope } from './scope.js';

// One page of a Prisma list narrowed by a team scope. The list's own keyset walks its records in
// sort order in batches; one SQL statement per batch keeps those the scope covers, until the page
// is full. Memory is bounded by the batch, and a batch check is one query with an id array.
// When the scope is sparse the walk stops after MAX_ROUNDS batches and returns a shorter page
// whose cursor continues after the last record looked at (a page may hold fewer than `limit`).

const MAX_BATCH = 2000;
const MIN_BATCH = 100;
const MAX_ROUNDS = 25;

type Keyset = ReturnType<typeof keyset>;

export async function scopedPage<K extends { id: string }, R extends { id: string }>(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  options: {
    page: PageRequest;
    column: SortColumn;
    scope: TeamScope;
    target: FilterTarget;
    // The list's own query (its filters AND the keyset where), selecting the id and the sort column.
    keys: (where: Keyset['where'], orderBy: Keyset['orderBy'], take: number) => Promise<K[]>;
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
    const { where, orderBy, take } = keyset({ ...page, after, limit: batch - 1 }, column);
    const candidates = await options.keys(where, orderBy, take);
    const covered = await coveredIds(deps.db, scope, target, candidates.map((c) => c.id));
    for (const candidate of candidates) {
      if (covered.has(candidate.id)) picked.push(candidate);
      if (picked.length > page.limit) break;
    }
    if (picked.length > page.limit || candidates.length < take) break;
    const last = candidates[candidates.length - 1]!;
    after = { value: recordSortValue((last as Record<string, unknown>)[column.field]), id: last.id };
    if (round + 1 >= MAX_ROUNDS) {
      cursorFromLastScanned = deps.cursors.encode({ s: page.sort, d: page.direction, f: page.filterDigest, v: after.value, i: after.id });
      break;
    }
  }
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, column, picked);
  const loaded = new Map((await options.load(visible.map((v) => v.id))).map((row) => [row.id, row]));
  return { rows: visible.map((v) => loaded.get(v.id)!).filter(Boolean), nextCursor: nextCursor ?? cursorFromLastScanned };
}
