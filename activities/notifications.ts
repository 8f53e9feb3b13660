import { ApplicationFailure } from '@temporalio/activity';
import { loadConfig, type Config } from '../src/config.js';
import type { Db } from '../src/db/client.js';
import { dispatchAgreementExpiring, dispatchNewAlerts, pendingDeliveries } from '../src/notifications/dispatch.js';
import { attemptDelivery, PermanentDeliveryFailure } from '../src/notifications/send.js';

// Notifications: dispatching creates events and deliveries idempotently (derived ids); a delivery
// attempt sends at most once per delivery (a delivered row is not sent again).
export function createNotificationActivities(db: Db, config: Config = loadConfig()) {
  return {
    async dispatchNewAlertNotifications(): Promise<{ id: string; replays: number }[]> {
      await dispatchNewAlerts(db, config);
      return pendingDeliveries(db);
    },
    async dispatchAgreementExpiringNotifications(today: string): Promise<{ id: string; replays: number }[]> {
      await dispatchAgreementExpiring(db, config, today);
      return pendingDeliveries(db);
    },
    async deliverNotification(deliveryId: string): Promise<string> {
      try {
        return await attemptDelivery(db, config, deliveryId);
      } catch (error) {
        if (error instanceof PermanentDeliveryFailure)
          throw ApplicationFailure.nonRetryable(error.message, 'PermanentDeliveryFailure');
        // A receiver that failed (5xx, network) is tried again with backoff: said explicitly, since
        // the activity wrapper retries only our own infrastructure's errors (activities/failures.ts).
        if (error instanceof Error)
          throw ApplicationFailure.retryable('The delivery failed; it is tried again.', 'delivery_failed');
        throw error;
      }
    },
    async markDeliveryFailed(deliveryId: string): Promise<void> {
      await db.notificationDelivery.updateMany({
        where: { id: deliveryId, status: 'pending' },
        data: { status: 'failed' },
      });
    },
    async notificationRetryPolicy(): Promise<{ initialSeconds: number; maxSeconds: number; attempts: number }> {
      return {
        initialSeconds: config.NOTIFICATION_RETRY_INITIAL_SECONDS,
        maxSeconds: config.NOTIFICATION_RETRY_MAX_SECONDS,
        attempts: config.NOTIFICATION_RETRY_ATTEMPTS,
      };
    },
  };
}

export type NotificationActivities = ReturnType<typeof createNotificationActivities>;
