import { z } from 'zod';
import { findAgreement, serializeAgreement, withLinks } from '../agreements/service.js';
import type { AppDeps } from '../deps.js';
import { keyset, pageOf, pageParams, resolvePage, type SortColumn } from '../http/pagination.js';
import { defineRoute, idParams, type RouteResponse } from '../http/route.js';
import { listResponse } from '../http/schemas.js';
import { agreementSchema } from '../agreements/schemas.js';
import { findInvoiceId } from '../invoices/service.js';
import { startRun } from '../runs/service.js';
import { deterministicUuid } from '../shared/ids.js';
import type { RequestActor } from '../auth/actor.js';

const tag = 'Matching';
const MATCHED_AT: SortColumn = { field: 'matchedAt', kind: 'date' };

const startedSchema = z.object({ workflow_run_id: z.string().uuid() }).meta({ id: 'WorkflowStarted' });

const matchSchema = z
  .object({
    id: z.string().uuid().meta({ description: 'The agreement ID' }),
    agreement: agreementSchema,
    reasons: z.array(z.string()).meta({ description: 'Why the invoice falls under the agreement' }),
    matched_at: z.string().datetime(),
  })
  .meta({ id: 'InvoiceAgreementMatch' });

async function startRefresh(
  deps: AppDeps,
  actor: RequestActor,
  owner: { type: 'invoice' | 'agreement'; id: string },
  invoiceIds: string[] | undefined,
  idempotencyKey: string | null,
): Promise<RouteResponse> {
  const run = await startRun(deps, {
    organizationId: actor.organizationId,
    type: 'refresh',
    owner,
    input: invoiceIds ? { invoiceIds } : {},
    runId: idempotencyKey ? deterministicUuid(`refresh:${actor.organizationId}:${idempotencyKey}`) : undefined,
    createdByUserId: actor.userId,
  });
  return { status: 202, body: { workflow_run_id: run.id }, headers: { Location: `/v1/workflow-runs/${run.id}` } };
}

export const matchingRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/invoices/{id}/agreements/refresh',
    operationId: 'refreshInvoiceAgreements',
    summary: 'Re-match one invoice to the agreements it falls under',
    tag,
    access: { level: 'write' },
    params: idParams,
    idempotent: true,
    responses: { 202: { description: 'The matching run; Location points to it', schema: startedSchema } },
    handler: async ({ params, actor, deps, idempotencyKey }) => {
      const invoice = await findInvoiceId(deps, actor.organizationId, params.id);
      return startRefresh(deps, actor, { type: 'invoice', id: invoice.id }, [invoice.id], idempotencyKey);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/agreements/{id}/invoices/refresh',
    operationId: 'refreshAgreementInvoices',
    summary: "Re-match the organization's invoices to this agreement (and the others)",
    tag,
    access: { level: 'write' },
    params: idParams,
    idempotent: true,
    responses: { 202: { description: 'The matching run; Location points to it', schema: startedSchema } },
    handler: async ({ params, actor, deps, idempotencyKey }) => {
      const agreement = await findAgreement(deps, actor.organizationId, params.id);
      return startRefresh(deps, actor, { type: 'agreement', id: agreement.id }, undefined, idempotencyKey);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/invoices/{id}/agreements',
    operationId: 'listInvoiceAgreements',
    summary: 'Agreements the invoice is matched to, with the reasons',
    tag,
    access: { level: 'read' },
    params: idParams,
    query: z.object({ ...pageParams(['matched_at']) }),
    fieldsOf: matchSchema,
    responses: { 200: { description: 'A page of matches', schema: listResponse(matchSchema) } },
    handler: async ({ params, query, actor, deps }) => {
      const invoice = await findInvoiceId(deps, actor.organizationId, params.id);
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
        body: {
          data: visible.map((m) => ({
            id: m.agreementId,
            agreement: serializeAgreement(agreements.get(m.agreementId)!),
            reasons: m.reasons,
            matched_at: m.matchedAt.toISOString(),
          })),
          next_cursor: nextCursor,
        },
      };
    },
  }),
];
