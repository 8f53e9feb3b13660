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
  const stack = await startTestStack();
  console.log(`test stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${stack.apiUrl}`);
  project.provide('apiUrl', stack.apiUrl);
  project.provide('stackEnv', stack.env);
  return () => stack.stop();
}
