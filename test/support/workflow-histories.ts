import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
// A CommonJS module whose exports Node's ESM loader cannot name: through its default export.
import protos from '@temporalio/proto';
import { repoRoot } from '../../src/infra/defaults.js';

// Recorded workflow histories (scripts/record-workflow-histories.ts) and the workflow types they
// must cover: every workflow exported by workflows/index.ts, the production bundle.

export const HISTORIES_DIR = path.join(repoRoot, 'test/fixtures/workflow-histories');

// How a history is written as JSON (protobufjs' toObject): 64-bit numbers and bytes as strings,
// enums by name. historyOf reads it back into the History message the replayer takes.
export const HISTORY_JSON = { longs: String, enums: String, bytes: String } as const;

export const HistoryMessage = protos.temporal.api.history.v1.History;

export function historyOf(fixture: HistoryFixture) {
  return HistoryMessage.fromObject(fixture.history);
}

export interface HistoryFixture {
  scenario: string;
  workflow_type: string;
  workflow_id: string;
  run_status: string;
  temporal_status: string;
  history: { events: unknown[] };
}

// Read from the source rather than imported: workflow modules belong in Temporal's sandbox.
export function productionWorkflowTypes(): string[] {
  const source = readFileSync(path.join(repoRoot, 'workflows/index.ts'), 'utf8');
  return [...source.matchAll(/export\s*\{([^}]*)\}/g)]
    .flatMap((match) =>
      match[1]!.split(',').map((name) =>
        name
          .trim()
          .split(/\s+as\s+/)
          .pop()!,
      ),
    )
    .filter(Boolean);
}

export function loadHistoryFixtures(): HistoryFixture[] {
  return readdirSync(HISTORIES_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8')) as HistoryFixture);
}
