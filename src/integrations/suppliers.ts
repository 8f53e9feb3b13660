import type { z } from 'zod';
import type { RequestActor } from '../auth/actor.js';
import type { AppDeps } from '../deps.js';
import type { WorkflowRun } from '../generated/prisma/client.js';
import { errors } from '../http/errors.js';
import { keyset, pageOf, resolvePage, type SortColumn } from '../http/pagination.js';
import { startRun } from '../runs/service.js';
import type { supplierListQuery } from './schemas.js';
import { findIntegration } from './service.js';

// The provider's suppliers of an integration, as last fetched by a supplier refresh (a run).

const NAME: SortColumn = { field: 'name', kind: 'string' };

// A page of the suppliers of an integration of the organization, by name.
export async function listIntegrationSuppliersPage(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  organizationId: string,
  integrationId: string,
  query: z.infer<typeof supplierListQuery>,
) {
  const integration = await findIntegration(deps, organizationId, integrationId);
  const { limit, cursor, sort, direction } = query;
  const page = resolvePage(
    deps.cursors,
    { limit, cursor, sort, direction },
    { sort: 'name', direction: 'asc' },
    { integration: integration.id },
  );
  const { where, orderBy, take } = keyset(page, NAME);
  const rows = await deps.db.integrationSupplier.findMany({
    where: { AND: [{ integrationId: integration.id, organizationId: integration.organizationId }, where] },
    orderBy,
    take,
  });
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, NAME, rows);
  return {
    data: visible.map((row) => ({
      id: row.id,
      external_id: row.externalId,
      name: row.name,
      org_number: row.orgNumber,
      refreshed_at: row.refreshedAt.toISOString(),
    })),
    next_cursor: nextCursor,
  };
}

// Starts fetching the provider's supplier list; only an integration that passed its test may.
export async function refreshIntegrationSuppliers(
  deps: Parameters<typeof startRun>[0],
  actor: RequestActor,
  integrationId: string,
): Promise<WorkflowRun> {
  const integration = await findIntegration(deps, actor.organizationId, integrationId);
  if (integration.testStatus !== 'passed') {
    throw errors.conflict(
      'integration_not_tested',
      'The integration must pass its test before its suppliers can be fetched.',
    );
  }
  return startRun(deps, {
    organizationId: integration.organizationId,
    type: 'supplier_refresh',
    owner: { type: 'integration', id: integration.id },
    input: { integrationId: integration.id },
    createdByUserId: actor.userId,
  });
}
