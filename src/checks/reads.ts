import { errors } from '../http/errors.js';
import { keyset, pageOf, resolvePage, type Direction, type SortColumn } from '../http/pagination.js';
import type { AppDeps } from '../deps.js';
import { serializeCheck } from './service.js';
import { serializeFinding } from './serialize.js';

// Reading checks and their findings: the organization's only.

type Deps = Pick<AppDeps, 'db' | 'cursors'>;

const STARTED_AT: SortColumn = { field: 'startedAt', kind: 'date' };
const POSITION: SortColumn = { field: 'position', kind: 'number' };

// A list's page parameters as the route's query parses them.
interface PageQuery {
  limit: number;
  cursor?: string;
  sort?: string;
  direction?: Direction;
}

export interface CheckFilter {
  invoice_ids?: string[];
  agreement_ids?: string[];
  workflow_run_ids?: string[];
  statuses?: ('running' | 'completed' | 'failed')[];
}

export async function listChecks(
  deps: Deps,
  organizationId: string,
  query: PageQuery & CheckFilter & { fields?: string },
) {
  const { limit, cursor, sort, direction, fields, ...filters } = query;
  const page = resolvePage(deps.cursors, query, { sort: 'started_at', direction: 'desc' }, filters);
  const { where, orderBy, take } = keyset(page, STARTED_AT);
  const rows = await deps.db.complianceCheck.findMany({
    where: {
      AND: [
        {
          organizationId,
          ...(filters.invoice_ids ? { invoiceId: { in: filters.invoice_ids } } : {}),
          ...(filters.agreement_ids ? { agreementId: { in: filters.agreement_ids } } : {}),
          ...(filters.workflow_run_ids ? { workflowRunId: { in: filters.workflow_run_ids } } : {}),
          ...(filters.statuses ? { status: { in: filters.statuses } } : {}),
        },
        where,
      ],
    },
    orderBy,
    take,
    include: { invoice: { select: { contentChangedAt: true } }, agreement: { select: { termsChangedAt: true } } },
  });
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, STARTED_AT, rows);
  return { data: visible.map(serializeCheck), next_cursor: nextCursor };
}

export async function getCheck(deps: Deps, organizationId: string, id: string) {
  const check = await deps.db.complianceCheck.findFirst({
    where: { id, organizationId },
    include: { invoice: { select: { contentChangedAt: true } }, agreement: { select: { termsChangedAt: true } } },
  });
  if (!check) throw errors.notFound('compliance check');
  return serializeCheck(check);
}

export async function listFindings(deps: Deps, organizationId: string, checkId: string, query: PageQuery) {
  const check = await deps.db.complianceCheck.findFirst({
    where: { id: checkId, organizationId },
    select: { id: true },
  });
  if (!check) throw errors.notFound('compliance check');
  const page = resolvePage(deps.cursors, query, { sort: 'position', direction: 'asc' }, { check: check.id });
  const { where, orderBy, take } = keyset(page, POSITION);
  const rows = await deps.db.complianceFinding.findMany({
    where: { AND: [{ checkId: check.id }, where] },
    orderBy,
    take,
  });
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, POSITION, rows);
  return { data: visible.map(serializeFinding), next_cursor: nextCursor };
}
