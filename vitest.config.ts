import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          sequence: { groupOrder: 0 },
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          sequence: { groupOrder: 1 },
          // One real stack (PostgreSQL, Temporal dev server, MinIO, worker, API) for the whole run.
          globalSetup: ['test/setup/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          // The web application in Debian's chromium (playwright-core), on the integration stack
          // (test/setup/global-setup.ts shares it), after the integration tests.
          sequence: { groupOrder: 2 },
          globalSetup: ['test/setup/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 1,
        },
      },
      {
        test: {
          name: 'crash',
          include: ['test/crash/**/*.test.ts'],
          // Kills shared processes, so it runs alone, last, on a stack of its own.
          sequence: { groupOrder: 3 },
          globalSetup: ['test/setup/crash-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 1,
        },
      },
    ],
  },
});
