import { z } from 'zod';
import { findAgreement } from '../../agreements/service.js';
import { defineRoute, idParams } from '../../http/route.js';
import { startRun } from '../../runs/service.js';
import { deterministicUuid } from '../../shared/ids.js';

const startedSchema = z.object({ workflow_run_id: z.string().uuid() });

export const topicReconcileRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/agreements/{id}/alert-topics/reconcile',
    operationId: 'reconcileAlertTopics',
    summary: "Sort the agreement's alerts into topics (a run; locked topics are never rewritten)",
    tag: 'Alert topics',
    access: { level: 'write' },
    params: idParams,
    idempotent: true,
    responses: { 202: { description: 'The reconcile run; Location points to it', schema: startedSchema } },
    handler: async ({ params, actor, deps, idempotencyKey }) => {
      const agreement = await findAgreement(deps, actor.organizationId, params.id);
      const run = await startRun(deps, {
        organizationId: agreement.organizationId,
        type: 'topic_reconcile',
        owner: { type: 'agreement', id: agreement.id },
        input: { agreementId: agreement.id },
        runId: idempotencyKey
          ? deterministicUuid(`topic_reconcile:${agreement.organizationId}:${idempotencyKey}`)
          : undefined,
        createdByUserId: actor.userId,
      });
      return { status: 202, body: { workflow_run_id: run.id }, headers: { Location: `/v1/workflow-runs/${run.id}` } };
    },
  }),
];
