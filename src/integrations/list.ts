import type { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { keyset, pageOf, resolvePage, type SortColumn } from '../http/pagination.js';
import type { listQuery } from './schemas.js';
import { viewIntegrations } from './service.js';

const CREATED_AT: SortColumn = { field: 'createdAt', kind: 'date' };

// A page of the organization's integrations, newest first.
export async function listIntegrationsPage(
  deps: Pick<AppDeps, 'db' | 'config' | 'cursors'>,
  organizationId: string,
  query: z.infer<typeof listQuery>,
) {
  const { limit, cursor, sort, direction } = query;
  const page = resolvePage(
    deps.cursors,
    { limit, cursor, sort, direction },
    { sort: 'created_at', direction: 'desc' },
    {},
  );
  const { where, orderBy, take } = keyset(page, CREATED_AT);
  const rows = await deps.db.integration.findMany({
    where: { AND: [{ organizationId }, where] },
    orderBy,
    take,
  });
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, CREATED_AT, rows);
  return { data: await viewIntegrations(deps, visible), next_cursor: nextCursor };
}
