import { Context } from '@temporalio/activity';
import type { Db } from '../src/db/client.js';
import { reconcileAgreementTopics, type ReconcileResult } from '../src/alerts/topic-reconcile/service.js';

export function createTopicActivities(db: Db) {
  return {
    // Idempotent: one transaction, and the rule is a fixed point (a repeat changes nothing).
    async reconcileAlertTopics(organizationId: string, agreementId: string): Promise<ReconcileResult> {
      // A run's id is its workflow's id: the changes are recorded as done by that run.
      const workflowId = Context.current().info.workflowExecution?.workflowId ?? '';
      const runId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(workflowId)
        ? workflowId
        : null;
      return reconcileAgreementTopics(db, organizationId, agreementId, runId);
    },
  };
}

export type TopicActivities = ReturnType<typeof createTopicActivities>;
