import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { keyset, pageOf, pageParams, resolvePage, type SortColumn } from '../http/pagination.js';
import { commaList, createdRangeParams, createdRangeWhere, uuidList } from '../http/schemas.js';
import { ITEM_STATUSES, RUN_STATUSES } from './schemas.js';
import { serializeItem } from './serialize.js';
import { findRun, reconcileRuns, viewRuns } from './service.js';

// The organization's runs and a run's items, as pages.

type Deps = Parameters<typeof reconcileRuns>[0] & Pick<AppDeps, 'cursors'>;

const CREATED_AT: SortColumn = { field: 'createdAt', kind: 'date' };
const POSITION: SortColumn = { field: 'position', kind: 'number' };

export const runListQuery = z.object({
  ...pageParams(['created_at']),
  statuses: commaList(z.enum(RUN_STATUSES)).optional(),
  types: commaList(z.string().min(1)).optional(),
  owner_type: z.string().min(1).optional(),
  owner_ids: uuidList.optional(),
  ...createdRangeParams,
});

export const runItemListQuery = z.object({
  ...pageParams(['position']),
  statuses: commaList(z.enum(ITEM_STATUSES)).optional(),
});

// A page of the organization's runs, newest first, each reconciled with Temporal.
export async function listRunsPage(deps: Deps, organizationId: string, query: z.infer<typeof runListQuery>) {
  const { limit, cursor, sort, direction, fields, ...filters } = query;
  const page = resolvePage(
    deps.cursors,
    { limit, cursor, sort, direction },
    { sort: 'created_at', direction: 'desc' },
    filters,
  );
  const { where, orderBy, take } = keyset(page, CREATED_AT);
  const rows = await deps.db.workflowRun.findMany({
    where: {
      AND: [
        { organizationId },
        filters.statuses ? { status: { in: filters.statuses } } : {},
        filters.types ? { type: { in: filters.types } } : {},
        filters.owner_type ? { ownerType: filters.owner_type } : {},
        filters.owner_ids ? { ownerId: { in: filters.owner_ids } } : {},
        createdRangeWhere(filters),
        where,
      ],
    },
    orderBy,
    take,
  });
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, CREATED_AT, rows);
  const reconciled = await reconcileRuns(deps, visible);
  return { data: await viewRuns(deps, reconciled), next_cursor: nextCursor };
}

// A page of the items of a run of the organization, in their order.
export async function listRunItemsPage(
  deps: Deps,
  organizationId: string,
  runId: string,
  query: z.infer<typeof runItemListQuery>,
) {
  const run = await findRun(deps, organizationId, runId);
  const { limit, cursor, sort, direction, fields, ...filters } = query;
  const page = resolvePage(
    deps.cursors,
    { limit, cursor, sort, direction },
    { sort: 'position', direction: 'asc' },
    filters,
  );
  const { where, orderBy, take } = keyset(page, POSITION);
  const rows = await deps.db.workflowRunItem.findMany({
    where: { AND: [{ runId: run.id }, filters.statuses ? { status: { in: filters.statuses } } : {}, where] },
    orderBy,
    take,
  });
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, POSITION, rows);
  return { data: visible.map(serializeItem), next_cursor: nextCursor };
}
