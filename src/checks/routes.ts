import { z } from 'zod';
import { findAgreement } from '../agreements/service.js';
import { errors } from '../http/errors.js';
import { pageParams } from '../http/pagination.js';
import { defineRoute, idParams } from '../http/route.js';
import { commaList, listResponse, uuidList } from '../http/schemas.js';
import { findInvoiceId } from '../invoices/service.js';
import { agreementExclusion, pairEligibility } from './eligibility.js';
import { checkSchema, findingSchema, startedChecksSchema } from './schemas.js';
import { getCheck, listChecks, listFindings } from './reads.js';
import { activeAgreementsToCheck, assertTopicOfAgreement, checkAgreement } from './agreement-checks.js';
import { startCheckRun } from './service.js';

const tag = 'Compliance checks';

const exclusionsOf = (excluded: { invoiceId: string; agreementId: string; reason: string; detail?: string[] }[]) =>
  excluded.map((e) => ({
    invoice_id: e.invoiceId,
    agreement_id: e.agreementId,
    reason: e.reason,
    missing: e.detail ?? [],
  }));

const agreementCheckBody = z
  .object({
    topic_id: z
      .string()
      .uuid()
      .optional()
      .meta({ description: 'Only invoices with alerts in this topic of the agreement' }),
    include_checked: z
      .boolean()
      .default(false)
      .meta({ description: 'Also check again invoices whose check is current' }),
  })
  .strict();

export const checkRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/invoices/{id}/check',
    operationId: 'checkInvoice',
    summary: 'Check the invoice against its matched agreements (or some of them)',
    tag,
    access: { level: 'write' },
    params: idParams,
    body: z
      .object({ agreement_ids: z.array(z.string().uuid()).min(1).max(1000).optional() })
      .strict()
      .default({}),
    idempotent: true,
    responses: {
      202: { description: 'The check run; Location points to it', schema: startedChecksSchema },
      409: { description: 'Nothing is eligible: no run was started (code nothing_eligible, with the exclusions)' },
    },
    handler: async ({ params, body, actor, deps, idempotencyKey }) => {
      const organizationId = actor.organizationId;
      const invoice = await findInvoiceId(deps, organizationId, params.id);
      const eligibility = await pairEligibility(deps.db, organizationId, [invoice.id], body.agreement_ids);
      const matched = new Set([...eligibility.eligible, ...eligibility.excluded].map((pair) => pair.agreementId));
      const unmatched = (body.agreement_ids ?? []).filter((id) => !matched.has(id));
      if (unmatched.length > 0) {
        throw errors.validation(
          'Some agreements are not matched to this invoice.',
          unmatched.map((id) => ({ field: 'agreement_ids', message: `agreement ${id} is not matched to the invoice` })),
        );
      }
      if (eligibility.eligible.length === 0) {
        throw errors.conflict('nothing_eligible', 'Nothing is eligible for a check; no run was started.', {
          exclusions: exclusionsOf(eligibility.excluded),
        });
      }
      const runId = await startCheckRun(
        deps,
        actor,
        { type: 'invoice', id: invoice.id },
        eligibility.eligible,
        idempotencyKey && `invoice:${invoice.id}:${idempotencyKey}`,
      );
      return {
        status: 202,
        body: {
          workflow_run_id: runId,
          checks: eligibility.eligible.length,
          has_more: false,
          exclusions: exclusionsOf(eligibility.excluded),
        },
        headers: { Location: `/v1/workflow-runs/${runId}` },
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/agreements/{id}/check',
    operationId: 'checkAgreement',
    summary: 'Check the matched invoices not yet checked (or last failed) against the agreement',
    tag,
    access: { level: 'write' },
    params: idParams,
    body: agreementCheckBody.default({ include_checked: false }),
    idempotent: true,
    responses: {
      202: { description: 'The check run; Location points to it', schema: startedChecksSchema },
      200: { description: 'Nothing eligible: workflow_run_id is null', schema: startedChecksSchema },
    },
    handler: async ({ params, body, actor, deps, idempotencyKey }) => {
      const organizationId = actor.organizationId;
      const agreement = await findAgreement(deps, organizationId, params.id);
      await assertTopicOfAgreement(deps, organizationId, agreement.id, body.topic_id);
      const notReady = agreementExclusion(agreement);
      if (notReady)
        return {
          status: 200,
          body: { workflow_run_id: null, checks: 0, has_more: false, exclusions: [], not_ready: notReady.missing },
        };
      const { workflowRunId, page } = await checkAgreement(
        deps,
        actor,
        agreement.id,
        { topicId: body.topic_id, includeChecked: body.include_checked },
        idempotencyKey && `agreement:${agreement.id}:${idempotencyKey}`,
      );
      const responseBody = {
        workflow_run_id: workflowRunId,
        checks: page.eligible.length,
        has_more: page.hasMore,
        exclusions: exclusionsOf(page.excluded),
      };
      if (!workflowRunId) return { status: 200, body: responseBody };
      return { status: 202, body: responseBody, headers: { Location: `/v1/workflow-runs/${workflowRunId}` } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/agreements/check',
    operationId: 'checkAgreements',
    summary: 'Check the outstanding matched invoices of every ready agreement (one run per agreement)',
    tag,
    access: { level: 'write' },
    body: z
      .object({
        agreement_ids: z
          .array(z.string().uuid())
          .min(1)
          .max(1000)
          .optional()
          .meta({ description: 'Only these agreements (default: all)' }),
        include_checked: z.boolean().default(false),
      })
      .strict()
      .default({ include_checked: false }),
    idempotent: true,
    responses: {
      202: { description: 'The runs started; Location points to the first', schema: startedChecksSchema },
      200: { description: 'Nothing eligible' },
    },
    handler: async ({ body, actor, deps, idempotencyKey }) => {
      const organizationId = actor.organizationId;
      const agreements = await activeAgreementsToCheck(deps, organizationId, body.agreement_ids);
      const runIds: string[] = [];
      let hasMore = false;
      let checks = 0;
      for (const agreement of agreements.filter((a) => !agreementExclusion(a))) {
        const { workflowRunId, page } = await checkAgreement(
          deps,
          actor,
          agreement.id,
          { includeChecked: body.include_checked },
          idempotencyKey && `agreements:${agreement.id}:${idempotencyKey}`,
        );
        if (workflowRunId) runIds.push(workflowRunId);
        hasMore ||= page.hasMore;
        checks += page.eligible.length;
      }
      const responseBody = { workflow_run_ids: runIds, workflow_run_id: runIds[0] ?? null, checks, has_more: hasMore };
      if (runIds.length === 0) return { status: 200, body: responseBody };
      return { status: 202, body: responseBody, headers: { Location: `/v1/workflow-runs/${runIds[0]}` } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/compliance-checks',
    operationId: 'listComplianceChecks',
    summary: 'Checks of invoices against agreements; a finished check never changes',
    tag,
    access: { level: 'read' },
    query: z.object({
      ...pageParams(['started_at']),
      invoice_ids: uuidList.optional(),
      agreement_ids: uuidList.optional(),
      workflow_run_ids: uuidList.optional(),
      statuses: commaList(z.enum(['running', 'completed', 'failed'])).optional(),
    }),
    fieldsOf: checkSchema,
    responses: { 200: { description: 'A page of checks', schema: listResponse(checkSchema) } },
    handler: async ({ query, actor, deps }) => ({ body: await listChecks(deps, actor.organizationId, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/compliance-checks/{id}',
    operationId: 'getComplianceCheck',
    summary: 'One check',
    tag,
    access: { level: 'read' },
    params: idParams,
    fieldsOf: checkSchema,
    responses: { 200: { description: 'The check', schema: checkSchema } },
    handler: async ({ params, actor, deps }) => ({ body: await getCheck(deps, actor.organizationId, params.id) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/compliance-checks/{id}/findings',
    operationId: 'listComplianceCheckFindings',
    summary: 'What a check found, in the order the checkers reported it',
    tag,
    access: { level: 'read' },
    params: idParams,
    query: z.object({ ...pageParams(['position']) }),
    fieldsOf: findingSchema,
    responses: { 200: { description: 'A page of findings', schema: listResponse(findingSchema) } },
    handler: async ({ params, query, actor, deps }) => ({
      body: await listFindings(deps, actor.organizationId, params.id, query),
    }),
  }),
];
