import type { Db } from '../src/db/client.js';
import { reconcileAgreementTopics, type ReconcileResult } from '../src/alerts/topic-reconcile/service.js';

export function createTopicActivities(db: Db) {
  return {
    // Idempotent: one transaction, and the rule is a fixed point (a repeat changes nothing).
    async reconcileAlertTopics(organizationId: string, agreementId: string): Promise<ReconcileResult> {
      return reconcileAgreementTopics(db, organizationId, agreementId);
    },
  };
}

export type TopicActivities = ReturnType<typeof createTopicActivities>;
