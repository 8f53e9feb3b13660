import type { TestProject } from 'vitest/node';
import { provideStack } from './global-setup.js';

// The crash project kills the worker and Temporal and adds replicas that it kills: a stack of its
// own, so no other test sees a process die.
export default function setup(project: TestProject) {
  return provideStack(project, 'crash');
}
