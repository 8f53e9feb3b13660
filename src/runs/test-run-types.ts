import type { RunType } from '../temporal/run-types.js';

// Run types that exist only for the test suite (ENABLE_TEST_WORKFLOWS=true): they drive the generic
// run machinery through workflows/testing.ts until real run types exercise every path.
export const testRunTypes: RunType[] = [
  { type: 'test_items', workflowType: 'testItemsWorkflow', retry: 'new_run' },
  { type: 'test_resumable', workflowType: 'testItemsWorkflow', retry: 'resume' },
];
