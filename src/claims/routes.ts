import { z } from 'zod';
import { errors } from '../http/errors.js';
import { assertIfMatch } from '../http/etag.js';
import { pageParams, resolvePage } from '../http/pagination.js';
import { defineRoute, idParams } from '../http/route.js';
import { assertSentAsRead, listResponse } from '../http/schemas.js';
import type { RequestActor } from '../auth/actor.js';
import type { AppDeps } from '../deps.js';
import { resolveTeamScope } from '../teams/scope.js';
import { addAlerts, removeAlerts, type AlertChangeResult } from './claim-alerts.js';
import { buildClaimLetter, claimPdfOf, streamClaimCsv, streamClaimXlsx, TooManyLetterLines } from './export/index.js';
import { listClaims } from './list.js';
import { findClaim } from './records.js';
import { claimDocuments, claimMetrics, refundsByMonth } from './reports.js';
import {
  addAlertsSchema,
  alertChangeSchema,
  alertSelectionSchema,
  claimDocumentSchema,
  claimSchema,
  createClaimSchema,
  deleteClaimQuery,
  exportQuery,
  filterOf,
  listQuery,
  metricsQuery,
  metricsSchema,
  patchClaimSchema,
  refundsByMonthSchema,
  CLAIM_FIXED_FIELDS,
} from './schemas.js';
import { createClaim, deleteClaim, patchClaim } from './service.js';
import { claimView, serializeClaims } from './summary.js';

const tag = 'Claims';

export const claimLocation = (id: string) => ({ Location: `/v1/claims/${id}` });

const EXPORT_TYPES = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
} as const;

async function changeResponse(deps: Parameters<typeof claimView>[0], claimId: string, change: AlertChangeResult) {
  return { body: { claim: await claimView(deps, claimId), ...change } };
}

// pdfkit holds every page in memory until the page numbers are written (heap and time grow with
// every line, docs/claim-letter.md): a letter longer than this would hold the API for seconds.
const PDF_LETTER_MAX_LINES = 2_000;

// The claims a metrics read covers (the list's filters, the team scope) and its refund dates.
async function metricsInput(deps: AppDeps, actor: RequestActor, query: z.infer<typeof metricsQuery>) {
  const filter = filterOf(query);
  const scope = await resolveTeamScope(deps.db, actor, filter);
  return { filter, refunded: { from: query.refunded_from, through: query.refunded_through }, scope };
}

export const claimRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/claims',
    operationId: 'listClaims',
    summary: 'List claims; newest first unless sorted',
    tag,
    access: { level: 'read' },
    query: listQuery,
    fieldsOf: claimSchema,
    responses: { 200: { description: 'A page of claims', schema: listResponse(claimSchema) } },
    handler: async ({ query, actor, deps }) => ({ body: await listClaims(deps, actor, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/claims/metrics',
    operationId: 'getClaimMetrics',
    summary:
      'Claim counts per status; claimed amounts and refunds per currency and claim status, for the list filters (refunded_from / refunded_through restrict refund_summary)',
    tag,
    access: { level: 'read' },
    query: metricsQuery,
    responses: { 200: { description: 'Counts and amounts', schema: metricsSchema } },
    handler: async ({ query, actor, deps }) => {
      const { filter, refunded, scope } = await metricsInput(deps, actor, query);
      return { body: await claimMetrics(deps, actor.organizationId, filter, refunded, scope) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/claims/metrics/refunds-by-month',
    operationId: 'getClaimRefundsByMonth',
    summary:
      "Refunds per calendar month and currency, for the list filters and refunded_from / refunded_through (not in the spec: the overview's recovered chart)",
    tag,
    access: { level: 'read' },
    query: metricsQuery,
    responses: { 200: { description: 'Refunds per month', schema: refundsByMonthSchema } },
    handler: async ({ query, actor, deps }) => {
      const { filter, refunded, scope } = await metricsInput(deps, actor, query);
      return { body: await refundsByMonth(deps, actor.organizationId, filter, refunded, scope) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/claims',
    operationId: 'createClaim',
    summary:
      'Create a claim on an agreement, with alerts by alert_ids (all or nothing) or filter; optional Idempotency-Key',
    tag,
    access: { level: 'write' },
    idempotent: true,
    body: createClaimSchema,
    responses: {
      201: { description: 'The claim; Location points to it', schema: claimSchema },
      409: { description: 'alerts_not_claimable: details say why per alert' },
    },
    handler: async ({ body, actor, deps }) => {
      const { claimId } = await createClaim(deps, actor, body);
      return { status: 201, body: await claimView(deps, claimId), headers: claimLocation(claimId) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/claims/{id}',
    operationId: 'getClaim',
    summary: 'Read a claim, with ETag',
    tag,
    access: { level: 'read' },
    params: idParams,
    query: z.object({ fields: z.string().optional() }),
    etag: true,
    fieldsOf: claimSchema,
    responses: { 200: { description: 'The claim, with ETag', schema: claimSchema } },
    handler: async ({ params, actor, deps }) => {
      const claim = await findClaim(deps, actor.organizationId, params.id);
      return { body: (await serializeClaims(deps, [claim]))[0] };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/claims/{id}',
    operationId: 'updateClaim',
    summary:
      'Change status (the claim state machine), title, supplier_contact or note; If-Match optional (412 on mismatch)',
    tag,
    access: { level: 'write' },
    params: idParams,
    body: patchClaimSchema,
    responses: {
      200: { description: 'The claim', schema: claimSchema },
      409: { description: 'invalid_transition' },
      412: { description: 'precondition_failed' },
    },
    handler: async ({ params, body, actor, deps, ctx }) => {
      assertSentAsRead(
        ctx.request.body,
        (await serializeClaims(deps, [await findClaim(deps, actor.organizationId, params.id)]))[0],
        CLAIM_FIXED_FIELDS,
      );
      await patchClaim(deps, actor.organizationId, actor, params.id, body, async (claim) =>
        assertIfMatch(ctx, (await serializeClaims(deps, [claim]))[0]),
      );
      return { body: await claimView(deps, params.id) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/claims/{id}',
    operationId: 'deleteClaim',
    summary:
      'Delete a claim; its claimed alerts return to pending (alert_outcome=pending, the default) or become dismissed',
    tag,
    access: { level: 'write' },
    params: idParams,
    query: deleteClaimQuery,
    responses: {
      204: { description: 'Deleted' },
      409: { description: 'claim_completed: reopen it first' },
      412: { description: 'precondition_failed' },
    },
    handler: async ({ params, query, actor, deps, ctx }) => {
      await deleteClaim(deps, actor.organizationId, actor, params.id, query.alert_outcome, async (claim) =>
        assertIfMatch(ctx, (await serializeClaims(deps, [claim]))[0]),
      );
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/claims/{id}/alerts',
    operationId: 'addClaimAlerts',
    summary: 'Add alerts (they become claimed); move_from_open_claims moves them from other open claims',
    tag,
    access: { level: 'write' },
    params: idParams,
    body: addAlertsSchema,
    responses: {
      200: { description: 'The claim and what happened to each alert', schema: alertChangeSchema },
      409: { description: 'alerts_not_claimable (details per alert), claim_completed, claim_cancelled' },
    },
    handler: async ({ params, body, actor, deps }) =>
      changeResponse(deps, params.id, await addAlerts(deps, actor.organizationId, actor, params.id, body)),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/claims/{id}/alerts/remove',
    operationId: 'removeClaimAlerts',
    summary: 'Take alerts out of the claim (claimed ones return to pending); alerts not in it are unchanged',
    tag,
    access: { level: 'write' },
    params: idParams,
    body: alertSelectionSchema,
    responses: {
      200: { description: 'The claim and what happened to each alert', schema: alertChangeSchema },
      409: { description: 'claim_completed, claim_cancelled' },
    },
    handler: async ({ params, body, actor, deps }) =>
      changeResponse(deps, params.id, await removeAlerts(deps, actor.organizationId, actor, params.id, body)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/claims/{id}/documents',
    operationId: 'listClaimDocuments',
    summary:
      "The files behind the claim (its alerts' invoices and attached credit notes), with 15-minute download links",
    tag,
    access: { level: 'read' },
    params: idParams,
    query: z.object({
      ...pageParams(['letter']),
      direction: z.enum(['asc']).optional().meta({ description: "The letter's order only" }),
    }),
    responses: {
      200: {
        description: "A page of files, in the letter's order (sort=letter)",
        schema: listResponse(claimDocumentSchema),
      },
    },
    handler: async ({ params, query, actor, deps }) => {
      const claim = await findClaim(deps, actor.organizationId, params.id);
      return {
        body: await claimDocuments(
          deps,
          claim,
          resolvePage(deps.cursors, query, { sort: 'letter', direction: 'asc' }, { claim_id: claim.id }),
        ),
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/claims/{id}/export',
    operationId: 'exportClaim',
    summary:
      'The claim for the supplier as a PDF letter, XLSX or CSV; claimed alerts always, include_pending / include_credited add those',
    tag,
    access: { level: 'read' },
    params: idParams,
    query: exportQuery,
    responses: {
      200: {
        description: 'PDF (format=pdf), XLSX (format=xlsx) or CSV (format=csv)',
        contentType: 'application/pdf',
        schema: z.string(),
      },
      409: {
        description:
          'claim_too_large_for_pdf: more lines than a PDF letter holds (2,000); export xlsx or csv. claim_too_large_for_export: more lines than an export holds (CLAIM_EXPORT_MAX_LINES, 50,000 by default); split the claim',
      },
    },
    handler: async ({ params, query, actor, deps }) => {
      const maxLines = query.format === 'pdf' ? PDF_LETTER_MAX_LINES : deps.config.CLAIM_EXPORT_MAX_LINES;
      let letter;
      try {
        letter = await buildClaimLetter(deps.db, actor.organizationId, params.id, {
          includePending: query.include_pending,
          includeCredited: query.include_credited,
          maxLines,
        });
      } catch (error) {
        if (!(error instanceof TooManyLetterLines)) throw error;
        if (query.format === 'pdf') {
          throw errors.conflict(
            'claim_too_large_for_pdf',
            `This claim has more than ${PDF_LETTER_MAX_LINES} lines, the most a PDF letter holds. Export it as xlsx or csv.`,
          );
        }
        throw errors.conflict(
          'claim_too_large_for_export',
          `This claim has more than ${maxLines} lines, the most an export holds. Split it into smaller claims (by invoice period, say).`,
        );
      }
      // XLSX and CSV are streamed to the client as they are written (src/claims/export/render-table.ts).
      const body =
        query.format === 'pdf'
          ? await claimPdfOf(letter)
          : query.format === 'xlsx'
            ? streamClaimXlsx(letter)
            : streamClaimCsv(letter);
      return {
        body,
        headers: {
          'Content-Type': EXPORT_TYPES[query.format],
          'Content-Disposition': `attachment; filename="${letter.reference}.${query.format}"`,
        },
      };
    },
  }),
];
