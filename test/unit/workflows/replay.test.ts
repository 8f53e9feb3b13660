import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { workflowsPath } from '../../../src/worker.js';
import { historyOf, loadHistoryFixtures, productionWorkflowTypes } from '../../support/workflow-histories.js';

// Replays recorded histories of every production workflow against the current workflow code
// (the bundle the worker runs). A change that would make a run in flight take another path than
// its history (a non-deterministic change) fails here: version it with patched(), or drain the
// task queue, then record again (docs/testing.md).

const fixtures = loadHistoryFixtures();

describe('workflow histories replay against the current workflows', () => {
  it('has a recorded history for every workflow type the worker runs', () => {
    const recorded = new Set(fixtures.map((fixture) => fixture.workflow_type));
    expect(productionWorkflowTypes().filter((type) => !recorded.has(type))).toEqual([]);
  });

  it('replays each history without non-determinism', async () => {
    const histories = fixtures.map((fixture) => ({ workflowId: fixture.workflow_id, history: historyOf(fixture) }));
    const failures: string[] = [];
    let replayed = 0;
    for await (const result of Worker.runReplayHistories(
      { workflowsPath: workflowsPath(false), replayName: 'replay-test' },
      histories,
    )) {
      replayed++;
      if (result.error) {
        const scenario =
          fixtures.find((fixture) => fixture.workflow_id === result.workflowId)?.scenario ?? result.workflowId;
        failures.push(`${scenario}: ${result.error.name}: ${result.error.message}`);
      }
    }
    expect(failures).toEqual([]);
    expect(replayed).toBe(fixtures.length);
  }, 180_000);
});
