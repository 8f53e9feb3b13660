import type { TestProject } from 'vitest/node';
import { rmSync, writeFileSync } from 'node:fs';
import { planTestStack, type PlannedTestStack, type TestStack, type TestStackOptions } from './stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    stackEnv: Record<string, string>;
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function startInBackground(plan: PlannedTestStack): Promise<TestStack | null> {
  const started = Date.now();
  // Starting five servers can fail for a reason that passes (a port taken meanwhile); one more
  // attempt, not more.
  return plan
    .start()
    .catch((error: unknown) => {
      console.error(`test stack did not start (${messageOf(error)}); trying once more`);
      return plan.start();
    })
    .then(
      (stack) => {
        console.log(`test stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${stack.apiUrl}`);
        return stack;
      },
      (error: unknown) => {
        console.error(`test stack did not start: ${messageOf(error)}`);
        // The files waiting for this stack (test/setup/stack-ready.ts) fail with this error.
        writeFileSync(plan.env.TEST_STACK_FAILURE_FILE!, messageOf(error));
        return null;
      },
    );
}

// One stack per project that needs one (integration: test/integration and test/browser; crash).
// A stack's addresses are planned and provided at once, and its servers start in the background:
// vitest runs every project's global setup before the first test file, and the unit files, which
// need no stack, would otherwise wait the half minute two stacks take to start. A file that needs
// the stack waits for it in its setup file (test/setup/stack-ready.ts).
export async function provideStack(
  project: TestProject,
  options: TestStackOptions = {},
  overrides: Record<string, string> = {},
): Promise<() => Promise<void>> {
  const plan = await planTestStack(overrides, options);
  const starting = startInBackground(plan);
  project.provide('apiUrl', plan.apiUrl);
  project.provide('stackEnv', plan.env);
  return async () => {
    const stack = await starting;
    rmSync(plan.env.TEST_STACK_FAILURE_FILE!, { force: true });
    await stack?.stop();
  };
}

// The integration project (test/integration and test/browser): one stack for all its files (they
// work in organizations of their own, so they do not see each other). None of them kills Temporal
// (the crash files do, on their own stack), so its state stays in memory.
export default function setup(project: TestProject) {
  return provideStack(project, { durableTemporal: false, durablePostgres: false });
}
