import type { z } from 'zod';
import type { RequestActor } from '../auth/actor.js';
import type { AppDeps } from '../deps.js';
import type { Prisma } from '../generated/prisma/client.js';
import { keyset, pageOf, resolvePage, type SortColumn } from '../http/pagination.js';
import { containsText } from '../http/schemas.js';
import { resolveTeamScope } from '../teams/scope.js';
import { scopedPage } from '../teams/scoped-page.js';
import { filterOf, type ClaimFilter, type listQuery } from './schemas.js';
import { CLAIM_INCLUDE } from './serialize.js';
import { serializeClaims } from './summary.js';

type Deps = Pick<AppDeps, 'db' | 'config' | 'cursors'>;

const SORTS: Record<string, SortColumn> = {
  created_at: { field: 'createdAt', kind: 'date' },
  updated_at: { field: 'updatedAt', kind: 'date' },
  title: { field: 'title', kind: 'string' },
  reference: { field: 'reference', kind: 'string' },
};

function range(field: 'createdAt' | 'updatedAt', from?: string, before?: string): Prisma.ClaimWhereInput {
  if (!from && !before) return {};
  return { [field]: { ...(from ? { gte: new Date(from) } : {}), ...(before ? { lt: new Date(before) } : {}) } };
}

export function claimWhere(organizationId: string, filter: ClaimFilter): Prisma.ClaimWhereInput {
  const supplier: Prisma.ClaimWhereInput = !filter.supplier_ids
    ? {}
    : filter.supplier_operator === 'is_not'
      ? { OR: [{ supplierId: null }, { supplierId: { notIn: filter.supplier_ids } }] }
      : { supplierId: { in: filter.supplier_ids } };
  return {
    AND: [
      { organizationId },
      filter.agreement_ids ? { agreementId: { in: filter.agreement_ids } } : {},
      filter.statuses ? { status: { in: filter.statuses } } : {},
      supplier,
      filter.search ? { OR: [{ title: containsText(filter.search) }, { reference: containsText(filter.search) }] } : {},
      range('createdAt', filter.created_from, filter.created_before),
      range('updatedAt', filter.updated_from, filter.updated_before),
    ],
  };
}

// A page of the organization's claims, narrowed to the actor's teams when the query names them.
export async function listClaims(deps: Deps, actor: RequestActor, query: z.infer<typeof listQuery>) {
  const { limit, cursor, sort, direction } = query;
  const filter = filterOf(query);
  const page = resolvePage(
    deps.cursors,
    { limit, cursor, sort, direction },
    { sort: 'created_at', direction: 'desc' },
    filter as Record<string, unknown>,
  );
  const column = SORTS[page.sort]!;
  const scope = await resolveTeamScope(deps.db, actor, filter);
  const base = claimWhere(actor.organizationId, filter);
  const { rows: visible, nextCursor } = scope
    ? await scopedPage(deps, {
        page,
        column,
        scope,
        target: 'claim',
        keys: (batch) => {
          const { where, orderBy, take } = keyset(batch, column);
          return deps.db.claim.findMany({
            where: { AND: [base, where] },
            orderBy,
            take,
            select: { id: true, createdAt: true, updatedAt: true, title: true, reference: true },
          });
        },
        load: (ids) => deps.db.claim.findMany({ where: { id: { in: ids } }, include: CLAIM_INCLUDE }),
      })
    : await (async () => {
        const { where, orderBy, take } = keyset(page, column);
        return pageOf(
          deps.cursors,
          page,
          column,
          await deps.db.claim.findMany({ where: { AND: [base, where] }, orderBy, take, include: CLAIM_INCLUDE }),
        );
      })();
  return { data: await serializeClaims(deps, visible), next_cursor: nextCursor };
}
