import { z } from 'zod';
import type { WorkflowRun } from '../generated/prisma/client.js';
import { defineRoute, idParams, type RouteResponse } from '../http/route.js';
import { listResponse } from '../http/schemas.js';
import { agreementSchema } from '../agreements/schemas.js';
import {
  invoiceMatchListQuery,
  listInvoiceMatchesPage,
  refreshAgreementInvoices,
  refreshInvoiceAgreements,
} from './matches.js';

const tag = 'Matching';

const startedSchema = z.object({ workflow_run_id: z.string().uuid() }).meta({ id: 'WorkflowStarted' });

const matchSchema = z
  .object({
    id: z.string().uuid().meta({ description: 'The agreement ID' }),
    agreement: agreementSchema,
    reasons: z.array(z.string()).meta({ description: 'Why the invoice falls under the agreement' }),
    matched_at: z.string().datetime(),
  })
  .meta({ id: 'InvoiceAgreementMatch' });

// A refresh is answered with its run, which Location points to.
function refreshStarted(run: WorkflowRun): RouteResponse {
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
    handler: async ({ params, actor, deps, idempotencyKey }) =>
      refreshStarted(await refreshInvoiceAgreements(deps, actor, params.id, idempotencyKey)),
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
    handler: async ({ params, actor, deps, idempotencyKey }) =>
      refreshStarted(await refreshAgreementInvoices(deps, actor, params.id, idempotencyKey)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/invoices/{id}/agreements',
    operationId: 'listInvoiceAgreements',
    summary: 'Agreements the invoice is matched to, with the reasons',
    tag,
    access: { level: 'read' },
    params: idParams,
    query: invoiceMatchListQuery,
    fieldsOf: matchSchema,
    responses: { 200: { description: 'A page of matches', schema: listResponse(matchSchema) } },
    handler: async ({ params, query, actor, deps }) => ({
      body: await listInvoiceMatchesPage(deps, actor.organizationId, params.id, query),
    }),
  }),
];
