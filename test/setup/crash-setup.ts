import type { TestProject } from 'vitest/node';
import { provideStack } from './global-setup.js';

// The crash project kills the worker and Temporal and adds replicas that it kills: a stack of its
// own, so no other test sees a process die.
//
// The stack starts with the run, in the background, and idles between the crash files. Its
// notification dispatch (a Temporal Schedule) fires every 20 s rather than the shared stack's 5 s:
// each firing is a workflow, and firing every 2 s kept about a twentieth of a core busy for the
// whole run. scale-out.test.ts waits up to 60 s for a firing after its kill.
export default function setup(project: TestProject) {
  return provideStack(project, { durablePostgres: false }, { NOTIFICATION_DISPATCH_INTERVAL_SECONDS: '20' });
}
