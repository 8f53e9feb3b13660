import { defineConfig } from 'vitest/config';
import LongestFirst from './test/setup/longest-first.js';

// How the suite is laid out (docs/testing.md, "How the suite is laid out"):
// - unit: no stack, both cores, while the static checks run and the stacks start beside it;
// - then, as one group: integration (test/integration and the web application's browser tests in
//   test/browser, on one shared stack) and crash (the files that kill processes, on a stack of
//   their own). Their files take turns, three at a time (test/setup/longest-first.ts): the
//   browser files' chromium runs beside the integration files' waits on workflows, so both cores
//   stay busy. One project after another left a core half idle through each.
//
// No project but crash isolates its files (`isolate: false`): a worker runs its files one after
// another in one process, each file's own module fresh, the source and support modules it imports
// loaded once per worker instead of once per file. A worker is reused only for the next file of
// its own project, which is why the browser files are in the integration project. A test file
// therefore leaves no module state behind that the next one would trip on (a pool resized, a
// setting changed: put it back in an afterAll).
//
// vitest gives the projects of one group one worker count.
const STACK_GROUP_WORKERS = 3;

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          sequence: { groupOrder: 0 },
          testTimeout: 30_000,
          maxWorkers: 2,
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration',
          // The browser files drive Debian's chromium-headless-shell (playwright-core).
          include: ['test/integration/**/*.test.ts', 'test/browser/**/*.test.ts'],
          sequence: { groupOrder: 1 },
          // One real stack (PostgreSQL, Temporal dev server, MinIO, worker, API) for the whole run.
          globalSetup: ['test/setup/global-setup.ts'],
          setupFiles: ['test/setup/stack-ready.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: STACK_GROUP_WORKERS,
          isolate: false,
        },
      },
      {
        test: {
          name: 'crash',
          include: ['test/crash/**/*.test.ts'],
          // Kills processes of its stack, so it has a stack of its own. The files that use that
          // stack hold it one at a time (test/support/crash-stack.ts); start-sigterm, which starts
          // `npm start` of its own, runs beside them.
          sequence: { groupOrder: 1 },
          globalSetup: ['test/setup/crash-setup.ts'],
          setupFiles: ['test/setup/stack-ready.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: STACK_GROUP_WORKERS,
        },
      },
    ],
  },
});
