import { z } from 'zod';
import type { RequestActor } from '../auth/actor.js';
import { Prisma } from '../db/client.js';
import type { AppDeps } from '../deps.js';
import { pageParams, resolvePage } from '../http/pagination.js';
import { commaList, createdRangeParams, dateString, joinOperatorParam, uuidList } from '../http/schemas.js';
import { allOf, containsSql, createdRangeSql, joinRelationsSql } from '../http/sql-filters.js';
import { teamScopeParams } from '../teams/scope.js';
import { sqlListPage, type SqlList } from '../teams/scoped-page.js';
import { AGREEMENT_STATUSES } from './schemas.js';
import { readAgreementsWithLinks, serializeAgreement } from './service.js';

// GET /v1/agreements: the filters as SQL over agreements `a`, and a page read in one statement
// with every agreement's links (docs/decisions.md, "A list page in one statement").

const AGREEMENT_LIST: SqlList = {
  table: 'agreements',
  alias: 'a',
  target: 'agreement',
  sorts: {
    created_at: { field: 'createdAt', column: 'created_at', kind: 'date', type: 'timestamptz' },
    renewal_deadline: {
      field: 'renewalDeadline',
      column: 'renewal_deadline',
      kind: 'date',
      type: 'date',
      nullable: true,
    },
  },
};

export const agreementListQuery = z.object({
  ...pageParams(['created_at', 'renewal_deadline']),
  statuses: commaList(z.enum(AGREEMENT_STATUSES)).optional(),
  supplier_ids: uuidList.optional(),
  supplier_operator: z.enum(['is', 'is_not']).optional(),
  tag_ids: uuidList.optional(),
  join_operator: joinOperatorParam.meta({ description: 'How supplier_ids and tag_ids combine: and (default) or or' }),
  search: z.string().min(1).max(200).optional().meta({ description: 'Matches the title (any case)' }),
  renewal_action_kinds: commaList(z.enum(['cancel_by', 'renew_by'])).optional(),
  renewal_deadline_through: dateString.optional(),
  ...createdRangeParams,
  ...teamScopeParams,
});

type Filters = Omit<z.infer<typeof agreementListQuery>, 'limit' | 'cursor' | 'sort' | 'direction' | 'fields'>;

function filterSql(organizationId: string, filters: Filters): Prisma.Sql {
  const bySupplier = filters.supplier_ids
    ? Prisma.sql`${Prisma.raw(filters.supplier_operator === 'is_not' ? 'NOT ' : '')}EXISTS (SELECT 1 FROM agreement_suppliers s WHERE s.agreement_id = a.id AND s.supplier_id = ANY(${filters.supplier_ids}::uuid[]))`
    : null;
  const byTag = filters.tag_ids
    ? Prisma.sql`EXISTS (SELECT 1 FROM agreement_tags t WHERE t.agreement_id = a.id AND t.tag_id = ANY(${filters.tag_ids}::uuid[]))`
    : null;
  return allOf([
    Prisma.sql`a.organization_id = ${organizationId}::uuid`,
    filters.statuses ? Prisma.sql`a.status = ANY(${filters.statuses}::"AgreementStatus"[])` : null,
    joinRelationsSql(filters.join_operator, [bySupplier, byTag]),
    filters.search ? containsSql('a.title', filters.search) : null,
    filters.renewal_action_kinds
      ? Prisma.sql`a.renewal_action_kind = ANY(${filters.renewal_action_kinds}::text[])`
      : null,
    filters.renewal_deadline_through
      ? Prisma.sql`a.renewal_deadline <= ${filters.renewal_deadline_through}::date`
      : null,
    createdRangeSql(filters, 'a'),
  ]);
}

export async function listAgreements(deps: AppDeps, actor: RequestActor, query: z.infer<typeof agreementListQuery>) {
  const { limit, cursor, sort, direction, fields, ...filters } = query;
  const defaults =
    sort === 'renewal_deadline'
      ? { sort, direction: 'asc' as const }
      : { sort: 'created_at', direction: 'desc' as const };
  const page = resolvePage(deps.cursors, { limit, cursor, sort, direction }, defaults, filters);
  const { rows, nextCursor } = await sqlListPage(deps, AGREEMENT_LIST, {
    actor,
    page,
    teams: filters,
    filters: filterSql(actor.organizationId, filters),
    read: (where, orderBy, count) => readAgreementsWithLinks(deps.reader, where, orderBy, count),
  });
  return { data: rows.map(serializeAgreement), next_cursor: nextCursor };
}
