import type { TestProject } from 'vitest/node';
import { startTestStack, type TestStack, type TestStackOptions } from './stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    stackEnv: Record<string, string>;
  }
}

// Every project of one vitest run loads its global setup through a module runner of its own, so
// a module variable is not shared between projects; the process's globalThis is. The projects that
// name the same stack get one stack, stopped when the last of them is torn down.
interface SharedStack {
  starting: Promise<TestStack>;
  users: number;
}
const registry = globalThis as typeof globalThis & { icsTestStacks?: Map<string, SharedStack> };

function startOnce(overrides: Record<string, string>, options: TestStackOptions): Promise<TestStack> {
  const started = Date.now();
  // Starting five servers on free ports can lose a race for a port; one more attempt, not more.
  return startTestStack(overrides, options)
    .catch((error: unknown) => {
      console.error(
        `test stack did not start (${error instanceof Error ? error.message : String(error)}); trying once more`,
      );
      return startTestStack(overrides, options);
    })
    .then((stack) => {
      console.log(`test stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${stack.apiUrl}`);
      return stack;
    });
}

export async function provideStack(
  project: TestProject,
  name: string,
  options: TestStackOptions = {},
  overrides: Record<string, string> = {},
): Promise<() => Promise<void>> {
  const stacks = (registry.icsTestStacks ??= new Map());
  let shared = stacks.get(name);
  if (!shared) {
    shared = { starting: startOnce(overrides, options), users: 0 };
    stacks.set(name, shared);
  }
  shared.users++;
  const stack = await shared.starting;
  project.provide('apiUrl', stack.apiUrl);
  project.provide('stackEnv', stack.env);
  return async () => {
    if (--shared.users > 0) return;
    stacks.delete(name);
    await stack.stop();
  };
}

// The integration and browser projects: one stack for both (their tests work in organizations of
// their own, so they do not see each other). None of them kills Temporal (the crash files do, on
// their own stack), so its state stays in memory.
export default function setup(project: TestProject) {
  return provideStack(project, 'shared', { durableTemporal: false });
}
