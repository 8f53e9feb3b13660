import type { z } from 'zod';
import type { RequestActor } from '../auth/actor.js';
import type { AppDeps } from '../deps.js';
import { resolvePage, type SqlSortColumn } from '../http/pagination.js';
import { sqlListPage, type SqlList } from '../teams/scoped-page.js';
import { alertFilterSql } from './filters.js';
import { filterOf, type listQuery } from './schemas.js';
import { readAlertsWithMatches, serializeAlert } from './serialize.js';

// GET /v1/alerts: the filters as SQL over alerts `a`, and a page read in one statement with every
// alert's match, invoice and claim (docs/decisions.md, "A list page in one statement").

export const ALERT_LIST_SORTS: Record<string, SqlSortColumn> = {
  created_at: { field: 'createdAt', column: 'created_at', kind: 'date', type: 'timestamptz' },
  updated_at: { field: 'updatedAt', column: 'updated_at', kind: 'date', type: 'timestamptz' },
  impact_amount: { field: 'impactAmount', column: 'impact_amount', kind: 'number', type: 'numeric' },
};

const ALERT_LIST: SqlList = { table: 'alerts', alias: 'a', target: 'alert', sorts: ALERT_LIST_SORTS };

export async function listAlerts(deps: AppDeps, actor: RequestActor, query: z.infer<typeof listQuery>) {
  const { limit, cursor, sort, direction } = query;
  const filter = filterOf(query);
  const page = resolvePage(
    deps.cursors,
    { limit, cursor, sort, direction },
    { sort: 'created_at', direction: 'desc' },
    filter as Record<string, unknown>,
  );
  const { rows, nextCursor } = await sqlListPage(deps, ALERT_LIST, {
    actor,
    page,
    teams: filter,
    filters: alertFilterSql(actor.organizationId, filter),
    read: (where, orderBy, count) => readAlertsWithMatches(deps.reader, where, orderBy, count),
  });
  return { data: rows.map(serializeAlert), next_cursor: nextCursor };
}
