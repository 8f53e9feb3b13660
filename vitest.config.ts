import { defineConfig } from 'vitest/config';
import LongestFirst from './test/setup/longest-first.js';

// How the suite is laid out (docs/testing.md, "How the suite is laid out"): the projects run one
// after another (unit, integration, browser, crash). Integration and browser share one stack; the
// crash files, which kill processes, have a stack of their own.
//
// No project but crash isolates its files (`isolate: false`): a worker runs its files one after
// another in one process, each file's own module fresh, the source and support modules it imports
// loaded once per worker instead of once per file. On 2 cores the suite is CPU-bound, and vitest
// counted 217 s of such imports in a 1,397 s run. A test file therefore leaves no module state
// behind that the next one would trip on (a pool resized, a setting changed: put it back in an
// afterAll).
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
          // Both cores: the unit files are CPU work, and the static checks beside them (about 165 s
          // alone) end long before the suite does (docs/testing.md, "How the suite is laid out").
          maxWorkers: 2,
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          sequence: { groupOrder: 1 },
          // One real stack (PostgreSQL, Temporal dev server, MinIO, worker, API) for the whole run,
          // shared with the browser project.
          globalSetup: ['test/setup/global-setup.ts'],
          setupFiles: ['test/setup/stack-ready.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 2,
          isolate: false,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          // The web application in Debian's chromium (playwright-core), on the integration stack,
          // after the integration tests so the two do not compete for the cores. One file at a
          // time: two kept the cores busy but took as long, with a fifth more chromium CPU.
          sequence: { groupOrder: 2 },
          globalSetup: ['test/setup/global-setup.ts'],
          setupFiles: ['test/setup/stack-ready.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 1,
          isolate: false,
        },
      },
      {
        test: {
          name: 'crash',
          include: ['test/crash/**/*.test.ts'],
          // Kills processes of its stack, so it runs last, on a stack of its own. The files that
          // use that stack hold it one at a time (test/support/crash-stack.ts); start-sigterm,
          // which starts `npm start` of its own, runs beside them.
          sequence: { groupOrder: 3 },
          globalSetup: ['test/setup/crash-setup.ts'],
          setupFiles: ['test/setup/stack-ready.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 2,
        },
      },
    ],
  },
});
