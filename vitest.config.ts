import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/setup/sequencer.js';

// How the suite is laid out and why (docs/testing.md, "How the suite is laid out"): all four
// projects run side by side in one group of workers, longest files first; most integration and
// browser time is spent waiting on the stack (workflows, timers, dispatch intervals), which the
// other files use. Integration and browser share one stack; the crash files, which kill
// processes, have a stack of their own and take turns on it (test/support/crash-stack.ts).
const SHARED_WORKERS = 4;

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          sequence: { groupOrder: 0 },
          testTimeout: 30_000,
          maxWorkers: SHARED_WORKERS,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          sequence: { groupOrder: 0 },
          // One real stack (PostgreSQL, Temporal dev server, MinIO, worker, API) for the whole run,
          // shared with the browser project.
          globalSetup: ['test/setup/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: SHARED_WORKERS,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          // The web application in Debian's chromium (playwright-core), on the integration stack.
          sequence: { groupOrder: 0 },
          globalSetup: ['test/setup/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: SHARED_WORKERS,
        },
      },
      {
        test: {
          name: 'crash',
          include: ['test/crash/**/*.test.ts'],
          // Kills processes of its stack, so on a stack of its own, one file at a time on it.
          sequence: { groupOrder: 0 },
          globalSetup: ['test/setup/crash-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: SHARED_WORKERS,
        },
      },
    ],
  },
});
