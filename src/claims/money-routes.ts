import { defineRoute, idParams } from '../http/route.js';
import { assertSentAsRead } from '../http/schemas.js';
import { findClaim } from './records.js';
import { attachCreditNote, createRefund, deleteRefund, detachCreditNote, patchRefund } from './refunds.js';
import { claimLocation } from './routes.js';
import {
  attachCreditNoteSchema,
  claimSchema,
  createRefundSchema,
  creditNoteParams,
  patchRefundSchema,
  refundParams,
  REFUND_FIXED_FIELDS,
} from './schemas.js';
import { serializeRefund } from './serialize.js';
import { claimView } from './summary.js';

// A claim's money: refunds the supplier paid back, and credit notes attached as evidence.

const tag = 'Claims';

export const claimMoneyRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/claims/{id}/refunds',
    operationId: 'createClaimRefund',
    summary:
      'Record money the supplier paid back (amount, currency_code, date: today by default); optional Idempotency-Key',
    tag,
    access: { level: 'write' },
    idempotent: true,
    params: idParams,
    body: createRefundSchema,
    responses: { 201: { description: 'The claim with the refund', schema: claimSchema } },
    handler: async ({ params, body, actor, deps }) => {
      const claim = await findClaim(deps, actor.organizationId, params.id);
      await createRefund(deps, actor, claim, body);
      return { status: 201, body: await claimView(deps, claim.id), headers: claimLocation(claim.id) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/claims/{id}/refunds/{refund_id}',
    operationId: 'updateClaimRefund',
    summary: 'Correct a refund (only the sent fields change)',
    tag,
    access: { level: 'write' },
    params: refundParams,
    body: patchRefundSchema,
    responses: { 200: { description: 'The claim', schema: claimSchema } },
    handler: async ({ params, body, actor, deps, ctx }) => {
      const claim = await findClaim(deps, actor.organizationId, params.id);
      const refund = claim.refunds.find((r) => r.id === params.refund_id);
      if (refund) assertSentAsRead(ctx.request.body, serializeRefund(refund), REFUND_FIXED_FIELDS);
      await patchRefund(deps, actor, claim, params.refund_id, body);
      return { body: await claimView(deps, claim.id) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/claims/{id}/refunds/{refund_id}',
    operationId: 'deleteClaimRefund',
    summary: 'Delete a wrong refund (one already gone changes nothing)',
    tag,
    access: { level: 'write' },
    params: refundParams,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, actor, deps }) => {
      await deleteRefund(deps, actor, await findClaim(deps, actor.organizationId, params.id), params.refund_id);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/claims/{id}/credit-notes',
    operationId: 'attachClaimCreditNote',
    summary:
      "Attach an imported credit note of the claim's supplier as evidence; create_refund also records its amount as a refund. Attaching again changes nothing",
    tag,
    access: { level: 'write' },
    idempotent: true,
    params: idParams,
    body: attachCreditNoteSchema,
    responses: {
      201: { description: 'Attached; the claim', schema: claimSchema },
      200: { description: 'Already attached; the claim', schema: claimSchema },
    },
    handler: async ({ params, body, actor, deps }) => {
      const claim = await findClaim(deps, actor.organizationId, params.id);
      const attached = await attachCreditNote(deps, actor, claim, body.invoice_id, body.create_refund);
      return { status: attached ? 201 : 200, body: await claimView(deps, claim.id) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/claims/{id}/credit-notes/{invoice_id}',
    operationId: 'detachClaimCreditNote',
    summary: 'Detach a credit note (refunds recorded from it stay); one not attached changes nothing',
    tag,
    access: { level: 'write' },
    params: creditNoteParams,
    responses: { 204: { description: 'Detached' } },
    handler: async ({ params, actor, deps }) => {
      await detachCreditNote(deps, actor, await findClaim(deps, actor.organizationId, params.id), params.invoice_id);
      return { status: 204 };
    },
  }),
];
