import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { keyset, pageOf, pageParams, resolvePage, type SortColumn } from '../../http/pagination.js';
import { commaList } from '../../http/schemas.js';
import { findAgreement } from '../service.js';
import { serializeSuggestion, SUGGESTION_STATUSES } from './service.js';

const CREATED_AT: SortColumn = { field: 'createdAt', kind: 'date' };

export const suggestionListQuery = z.object({
  ...pageParams(['created_at']),
  statuses: commaList(z.enum(SUGGESTION_STATUSES)).optional(),
});

// A page of the suggestions for an agreement of the organization, newest first.
export async function listContextSuggestionsPage(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  organizationId: string,
  agreementId: string,
  query: z.infer<typeof suggestionListQuery>,
) {
  const agreement = await findAgreement(deps, organizationId, agreementId);
  const { limit, cursor, sort, direction, fields, ...filters } = query;
  const page = resolvePage(
    deps.cursors,
    { limit, cursor, sort, direction },
    { sort: 'created_at', direction: 'desc' },
    filters,
  );
  const { where, orderBy, take } = keyset(page, CREATED_AT);
  const rows = await deps.db.contextSuggestion.findMany({
    where: {
      AND: [
        { agreementId: agreement.id, organizationId: agreement.organizationId },
        filters.statuses ? { status: { in: filters.statuses } } : {},
        where,
      ],
    },
    orderBy,
    take,
  });
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, CREATED_AT, rows);
  return { data: visible.map(serializeSuggestion), next_cursor: nextCursor };
}
