import { existsSync, readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { waitFor } from '../../src/infra/process.js';

// Before a file that uses the run's stack: wait until its API answers. The global setup provides
// the stack's addresses at once and starts its servers in the background (test/setup/global-setup.ts);
// once the stack is up this is one request per file. A stack that did not start left its error in
// TEST_STACK_FAILURE_FILE.
const READY_WITHIN_MS = 240_000;

const apiUrl = inject('apiUrl');
const failureFile = inject('stackEnv').TEST_STACK_FAILURE_FILE!;
await waitFor(
  `the test stack at ${apiUrl}`,
  async () => existsSync(failureFile) || (await fetch(`${apiUrl}/healthz`)).ok,
  READY_WITHIN_MS,
);
if (existsSync(failureFile)) throw new Error(`the test stack did not start: ${readFileSync(failureFile, 'utf8')}`);
