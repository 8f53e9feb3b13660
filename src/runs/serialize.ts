import type { WorkflowRun, WorkflowRunItem } from '../generated/prisma/client.js';
import type { ItemCounts, RunFailure } from './read-model.js';
import type { WorkflowRunItemView, WorkflowRunView } from './schemas.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function ownerOf(type: string | null, id: string | null) {
  return type && id ? { type, id } : null;
}

export function serializeRun(run: WorkflowRun, counts: ItemCounts): WorkflowRunView {
  return {
    id: run.id,
    type: run.type,
    status: run.status,
    owner: ownerOf(run.ownerType, run.ownerId),
    progress: { total: run.progressTotal, ...counts },
    failure: (run.failure as RunFailure | null) ?? null,
    retry_of_run_id: run.retryOfRunId,
    attempt: run.attempt,
    created_at: run.createdAt.toISOString(),
    started_at: iso(run.startedAt),
    finished_at: iso(run.finishedAt),
  };
}

export function serializeItem(item: WorkflowRunItem): WorkflowRunItemView {
  return {
    id: item.id,
    run_id: item.runId,
    key: item.key,
    label: item.label,
    status: item.status,
    record: ownerOf(item.recordType, item.recordId),
    result: item.result ?? null,
    failure: (item.failure as RunFailure | null) ?? null,
    created_at: item.createdAt.toISOString(),
    finished_at: iso(item.finishedAt),
  };
}
