import type { Db } from '../src/db/client.js';
import {
  beginItem,
  closeRun,
  failItems,
  finishItem,
  finishRun,
  finishSingleItemRun,
  itemIdsByKey,
  markRunStarted,
  registerItems,
  saveCheckpoint,
  startSingleItemRun,
  type ItemOutcome,
  type NewItem,
  type RunFailure,
} from '../src/runs/read-model.js';

// The activities through which workflows keep the run read model (src/runs/read-model.ts) up to
// date. Each is idempotent: a retry after a worker crash changes nothing further.
export function createRunActivities(db: Db) {
  return {
    async markRunStarted(runId: string): Promise<void> {
      await markRunStarted(db, runId);
    },
    async registerRunItems(runId: string, items: NewItem[], complete: boolean): Promise<Record<string, string>> {
      await registerItems(db, runId, items, complete);
      return itemIdsByKey(
        db,
        runId,
        items.map((item) => item.key),
      );
    },
    async beginRunItem(itemId: string): Promise<boolean> {
      return beginItem(db, itemId);
    },
    async completeRunItem(itemId: string, result: unknown): Promise<void> {
      await finishItem(db, itemId, { status: 'completed', result });
    },
    async failRunItem(itemId: string, failure: RunFailure): Promise<void> {
      await finishItem(db, itemId, { status: 'failed', failure });
    },
    // Fails the items of a batch whose activity failed for good (the items it finished keep their outcome).
    async failRunItems(itemIds: string[], failure: RunFailure): Promise<void> {
      await failItems(db, itemIds, failure);
    },
    async finishRun(runId: string, failure: RunFailure | null): Promise<string> {
      return finishRun(db, runId, failure ?? undefined);
    },
    // A run of one item: two activities instead of five (see workflows/runs/lifecycle.ts).
    async startSingleItemRun(runId: string, item: NewItem): Promise<{ itemId: string; proceed: boolean }> {
      return startSingleItemRun(db, runId, item);
    },
    async finishSingleItemRun(runId: string, itemId: string, outcome: ItemOutcome | null): Promise<string> {
      return finishSingleItemRun(db, runId, itemId, outcome);
    },
    async markRunCancelled(runId: string): Promise<void> {
      await closeRun(db, runId, 'cancelled', null, 'cancelled');
    },
    async loadRunState(runId: string): Promise<{ attempt: number; checkpoint: unknown }> {
      const run = await db.workflowRun.findUniqueOrThrow({
        where: { id: runId },
        select: { attempt: true, checkpoint: true },
      });
      return { attempt: run.attempt, checkpoint: run.checkpoint };
    },
    async saveRunCheckpoint(runId: string, checkpoint: unknown): Promise<void> {
      await saveCheckpoint(db, runId, checkpoint);
    },
  };
}

export type RunActivities = ReturnType<typeof createRunActivities>;
