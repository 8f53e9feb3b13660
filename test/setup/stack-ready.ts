import { existsSync, readFileSync } from 'node:fs';
import { inject } from 'vitest';

// Before a file that uses the run's stack: wait until its API answers. The global setup provides
// the stack's addresses at once and starts its servers in the background (test/setup/global-setup.ts);
// once the stack is up this is one request per file.
const READY_WITHIN_MS = 240_000;

const apiUrl = inject('apiUrl');
const failureFile = inject('stackEnv').TEST_STACK_FAILURE_FILE!;
const deadline = Date.now() + READY_WITHIN_MS;
for (;;) {
  if (existsSync(failureFile)) throw new Error(`the test stack did not start: ${readFileSync(failureFile, 'utf8')}`);
  const answered = await fetch(`${apiUrl}/healthz`).then(
    (response) => response.ok,
    () => false,
  );
  if (answered) break;
  if (Date.now() > deadline)
    throw new Error(`the test stack at ${apiUrl} did not answer within ${READY_WITHIN_MS / 1000} s`);
  await new Promise((resolve) => setTimeout(resolve, 250));
}
