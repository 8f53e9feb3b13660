import { ScheduleNotFoundError, ScheduleOverlapPolicy, type Client, type ScheduleOptions } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { Logger } from '../logger.js';
import { INTEGRATION_ID, ORGANIZATION_ID, RUN_TYPE } from '../temporal/search-attributes.js';

// The nightly auto-sync: one Temporal Schedule per integration, from its creation to its deletion,
// paused while auto_sync is off. Each firing starts scheduledSyncWorkflow (workflows/sync.ts),
// which opens a sync run since the last successful sync. Overlap policy Skip: a night whose
// previous scheduled sync still runs is skipped; a catch-up window starts a night missed while
// Temporal was down, if it is not too late.

export const SCHEDULE_PREFIX = 'sync-schedule-';
export const scheduleIdOf = (integrationId: string) => `${SCHEDULE_PREFIX}${integrationId}`;

export interface ScheduledSyncArgs {
  organizationId: string;
  integrationId: string;
}

type ScheduledIntegration = { id: string; organizationId: string; autoSync: boolean };

function scheduleOptions(
  config: Pick<Config, 'SYNC_SCHEDULE_TIME_UTC' | 'SYNC_SCHEDULE_CATCHUP_MINUTES' | 'TEMPORAL_TASK_QUEUE'>,
  integration: ScheduledIntegration,
): ScheduleOptions {
  const [hour, minute] = config.SYNC_SCHEDULE_TIME_UTC.split(':').map(Number) as [number, number];
  const attributes = [
    { key: ORGANIZATION_ID, value: integration.organizationId },
    { key: INTEGRATION_ID, value: integration.id },
  ];
  const args: ScheduledSyncArgs = { organizationId: integration.organizationId, integrationId: integration.id };
  return {
    scheduleId: scheduleIdOf(integration.id),
    spec: { calendars: [{ hour, minute }], timezone: 'UTC' },
    action: {
      type: 'startWorkflow',
      workflowType: 'scheduledSyncWorkflow',
      workflowId: `scheduled-sync-${integration.id}`,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      args: [args],
      typedSearchAttributes: new TypedSearchAttributes([...attributes, { key: RUN_TYPE, value: 'scheduled_sync' }]),
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: `${config.SYNC_SCHEDULE_CATCHUP_MINUTES} minutes` },
    state: { paused: !integration.autoSync, note: integration.autoSync ? 'auto_sync on' : 'auto_sync off' },
    typedSearchAttributes: new TypedSearchAttributes(attributes),
  };
}

// Creates the Schedule, or brings an existing one in step with the integration: its pause state,
// and with `refresh` (the worker's reconcile) also the nightly time, action and policies.
export async function upsertSchedule(
  temporal: Client,
  config: Config,
  integration: ScheduledIntegration,
  options_: { refresh?: boolean } = {},
): Promise<void> {
  const options = scheduleOptions(config, integration);
  const handle = temporal.schedule.getHandle(options.scheduleId);
  let paused: boolean;
  try {
    paused = (await handle.describe()).state.paused;
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
    await temporal.schedule.create(options);
    return;
  }
  if (options_.refresh) {
    await handle.update((previous) => ({
      ...previous,
      spec: options.spec,
      action: options.action,
      policies: { ...previous.policies, ...options.policies },
    }));
  }
  if (paused && integration.autoSync) await handle.unpause('auto_sync turned on');
  if (!paused && !integration.autoSync) await handle.pause('auto_sync turned off');
}

export async function removeSchedule(temporal: Client, integrationId: string): Promise<void> {
  try {
    await temporal.schedule.getHandle(scheduleIdOf(integrationId)).delete();
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
  }
}

// At worker start: every integration has its Schedule in the right state, and no Schedule
// outlives its integration (a change made while Temporal was unreachable, or in Temporal UI).
export async function reconcileSchedules(
  db: Db,
  temporal: Client,
  config: Config,
  logger: Logger,
): Promise<{ upserted: number; removed: number }> {
  let upserted = 0;
  let removed = 0;
  const seen = new Set<string>();
  let after: string | undefined;
  for (;;) {
    const batch = await db.integration.findMany({
      where: after ? { id: { gt: after } } : {},
      orderBy: { id: 'asc' },
      take: 500,
      select: { id: true, organizationId: true, autoSync: true },
    });
    if (batch.length === 0) break;
    for (const integration of batch) {
      seen.add(scheduleIdOf(integration.id));
      try {
        await upsertSchedule(temporal, config, integration, { refresh: true });
        upserted++;
      } catch (error) {
        logger.warn({ err: error, integration_id: integration.id }, 'could not reconcile the sync schedule');
      }
    }
    after = batch[batch.length - 1]!.id;
  }
  for await (const schedule of temporal.schedule.list()) {
    if (!schedule.scheduleId.startsWith(SCHEDULE_PREFIX) || seen.has(schedule.scheduleId)) continue;
    const integrationId = schedule.scheduleId.slice(SCHEDULE_PREFIX.length);
    // Created by an integration that did not commit, or one deleted meanwhile.
    if (await db.integration.findUnique({ where: { id: integrationId }, select: { id: true } }).catch(() => null))
      continue;
    await removeSchedule(temporal, integrationId).catch((error: unknown) =>
      logger.warn({ err: error, schedule_id: schedule.scheduleId }, 'could not remove an orphan schedule'),
    );
    removed++;
  }
  return { upserted, removed };
}
