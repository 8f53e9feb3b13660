import type { TestProject } from 'vitest/node';
import { startTestStack } from './stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    stackEnv: Record<string, string>;
  }
}

export default async function setup(project: TestProject) {
  const started = Date.now();
  // Starting five servers on free ports can lose a race for a port; one more attempt, not more.
  const stack = await startTestStack().catch((error: unknown) => {
    console.error(
      `test stack did not start (${error instanceof Error ? error.message : String(error)}); trying once more`,
    );
    return startTestStack();
  });
  console.log(`test stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${stack.apiUrl}`);
  project.provide('apiUrl', stack.apiUrl);
  project.provide('stackEnv', stack.env);
  return () => stack.stop();
}
