import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type ScheduleOptions } from '@temporalio/client';
import type { Config } from '../config.js';
import { connectTemporal } from '../temporal/client.js';

export const DISPATCH_SCHEDULE_ID = 'notifications-dispatch';
export const EXPIRING_SCHEDULE_ID = 'notifications-agreement-expiring';

// Created at worker start, idempotently: a schedule that exists is updated to the current
// settings, so every worker may do this and a changed interval takes effect on the next start.
export async function ensureNotificationSchedules(config: Config): Promise<void> {
  const client = await connectTemporal(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE);
  try {
    const schedules: ScheduleOptions[] = [
      {
        scheduleId: DISPATCH_SCHEDULE_ID,
        spec: { intervals: [{ every: config.NOTIFICATION_DISPATCH_INTERVAL_SECONDS * 1000 }] },
        action: {
          type: 'startWorkflow',
          workflowType: 'dispatchNotificationsWorkflow',
          taskQueue: config.TEMPORAL_TASK_QUEUE,
          args: [],
        },
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
      },
      {
        scheduleId: EXPIRING_SCHEDULE_ID,
        // Daily at 06:00 UTC.
        spec: { calendars: [{ hour: 6, minute: 0 }] },
        action: {
          type: 'startWorkflow',
          workflowType: 'agreementExpiringNotificationsWorkflow',
          taskQueue: config.TEMPORAL_TASK_QUEUE,
          args: [],
        },
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
      },
    ];
    for (const options of schedules) {
      try {
        await client.schedule.create(options);
      } catch (error) {
        if (!(error instanceof ScheduleAlreadyRunning)) throw error;
        await client.schedule.getHandle(options.scheduleId).update((previous) => ({
          ...previous,
          spec: options.spec,
          action: options.action,
          policies: options.policies,
        }));
      }
    }
  } finally {
    await client.connection.close();
  }
}
