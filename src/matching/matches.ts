import { z } from 'zod';
import { findAgreement, serializeAgreement, withLinks } from '../agreements/service.js';
import type { RequestActor } from '../auth/actor.js';
import type { AppDeps } from '../deps.js';
import type { WorkflowRun } from '../generated/prisma/client.js';
import { keyset, pageOf, pageParams, resolvePage, type SortColumn } from '../http/pagination.js';
import { findInvoiceId } from '../invoices/service.js';
import { startRun } from '../runs/service.js';
import { deterministicUuid } from '../shared/ids.js';

// What the API does with matches: re-match on request (a run of type refresh) and list the
// agreements an invoice is matched to, with the reasons. The matching itself is service.ts.

const MATCHED_AT: SortColumn = { field: 'matchedAt', kind: 'date' };

export const invoiceMatchListQuery = z.object({ ...pageParams(['matched_at']) });

async function startRefresh(
  deps: AppDeps,
  actor: RequestActor,
  owner: { type: 'invoice' | 'agreement'; id: string },
  invoiceIds: string[] | undefined,
  idempotencyKey: string | null,
): Promise<WorkflowRun> {
  return startRun(deps, {
    organizationId: actor.organizationId,
    type: 'refresh',
    owner,
    input: invoiceIds ? { invoiceIds } : {},
    runId: idempotencyKey ? deterministicUuid(`refresh:${actor.organizationId}:${idempotencyKey}`) : undefined,
    createdByUserId: actor.userId,
  });
}

// Re-matches one invoice of the actor's organization to the agreements it falls under.
export async function refreshInvoiceAgreements(
  deps: AppDeps,
  actor: RequestActor,
  invoiceId: string,
  idempotencyKey: string | null,
): Promise<WorkflowRun> {
  const invoice = await findInvoiceId(deps, actor.organizationId, invoiceId);
  return startRefresh(deps, actor, { type: 'invoice', id: invoice.id }, [invoice.id], idempotencyKey);
}

// Re-matches every invoice of the actor's organization, started from one of its agreements.
export async function refreshAgreementInvoices(
  deps: AppDeps,
  actor: RequestActor,
  agreementId: string,
  idempotencyKey: string | null,
): Promise<WorkflowRun> {
  const agreement = await findAgreement(deps, actor.organizationId, agreementId);
  return startRefresh(deps, actor, { type: 'agreement', id: agreement.id }, undefined, idempotencyKey);
}

// A page of the active matches of an invoice of the organization, oldest match first.
export async function listInvoiceMatchesPage(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  organizationId: string,
  invoiceId: string,
  query: z.infer<typeof invoiceMatchListQuery>,
) {
  const invoice = await findInvoiceId(deps, organizationId, invoiceId);
  const page = resolvePage(deps.cursors, query, { sort: 'matched_at', direction: 'asc' }, {});
  const { where, orderBy, take } = keyset(page, MATCHED_AT, 'agreementId');
  const rows = await deps.db.invoiceAgreementMatch.findMany({
    where: { AND: [{ invoiceId: invoice.id, active: true }, where] },
    orderBy,
    take,
    include: { agreement: true },
  });
  const agreements = new Map(
    (
      await withLinks(
        deps.db,
        rows.map((row) => row.agreement),
      )
    ).map((agreement) => [agreement.id, agreement]),
  );
  const { rows: visible, nextCursor } = pageOf(
    deps.cursors,
    page,
    MATCHED_AT,
    rows.map((row) => ({ ...row, id: row.agreementId })),
  );
  return {
    data: visible.map((m) => ({
      id: m.agreementId,
      agreement: serializeAgreement(agreements.get(m.agreementId)!),
      reasons: m.reasons,
      matched_at: m.matchedAt.toISOString(),
    })),
    next_cursor: nextCursor,
  };
}
