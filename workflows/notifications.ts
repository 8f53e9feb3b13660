import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import type { NotificationActivities } from '../activities/notifications.js';
import { deliveryWorkflowId } from '../src/notifications/workflow-ids.js';

const dispatch = proxyActivities<NotificationActivities>({
  startToCloseTimeout: '5 minutes',
  // Heartbeated by the worker while it runs (src/temporal/activity-heartbeats.ts): if the worker
  // dies, another one retries it a minute later, and the dispatch Schedule (overlap Skip) goes on.
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', maximumAttempts: 5 },
});

export interface RetryPolicyInput {
  initialSeconds: number;
  maxSeconds: number;
  attempts: number;
}

// One delivery: attempts with exponential backoff (doubling from initialSeconds, capped at
// maxSeconds; the defaults span more than 24 hours), then the delivery is marked failed and can be
// replayed through the API.
export async function deliverNotificationWorkflow(deliveryId: string, retry: RetryPolicyInput): Promise<void> {
  const delivery = proxyActivities<NotificationActivities>({
    startToCloseTimeout: '1 minute',
    retry: {
      initialInterval: retry.initialSeconds * 1000,
      backoffCoefficient: 2,
      maximumInterval: retry.maxSeconds * 1000,
      maximumAttempts: retry.attempts,
      nonRetryableErrorTypes: ['PermanentDeliveryFailure'],
    },
  });
  try {
    await delivery.deliverNotification(deliveryId);
  } catch {
    await dispatch.markDeliveryFailed(deliveryId);
  }
}

async function startDeliveries(deliveries: { id: string; replays: number }[]): Promise<void> {
  if (deliveries.length === 0) return;
  const retry = await dispatch.notificationRetryPolicy();
  for (const delivery of deliveries) {
    try {
      await startChild(deliverNotificationWorkflow, {
        workflowId: deliveryWorkflowId(delivery),
        args: [delivery.id, retry],
        parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    } catch (error) {
      // Already being delivered (started by an earlier dispatch or a replay).
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }
}

// Scheduled every minute or so: new alerts of finished runs become new_alert messages.
export async function dispatchNotificationsWorkflow(): Promise<void> {
  await startDeliveries(await dispatch.dispatchNewAlertNotifications());
}

// Scheduled daily: agreements expiring in 90, 60 or 30 days (UTC, from the workflow's clock).
export async function agreementExpiringNotificationsWorkflow(): Promise<void> {
  const today = new Date(Date.now()).toISOString().slice(0, 10);
  await startDeliveries(await dispatch.dispatchAgreementExpiringNotifications(today));
}
