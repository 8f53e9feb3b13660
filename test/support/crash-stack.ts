import { mkdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';

// The crash files run side by side with the other files of the run, on a stack of their own, but
// not with each other: crash-recovery kills that stack's worker and Temporal server, scale-out
// counts its pollers and kills replicas of its own. A file that uses the crash stack holds it for
// all its tests: a folder created in the stack's work folder (mkdir is atomic) and removed after.
const HOLD_WAIT_MS = 15 * 60_000;

async function hold(lock: string): Promise<void> {
  for (;;) {
    try {
      await mkdir(lock);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

// Call at the top of a crash file's describe, before its own hooks.
export function holdCrashStackForThisFile(): void {
  const lock = path.join(inject('stackEnv').TEST_WORK_DIR!, 'crash-stack.lock');
  let held = false;
  beforeAll(async () => {
    await hold(lock);
    held = true;
  }, HOLD_WAIT_MS);
  afterAll(async () => {
    if (held) await rmdir(lock);
  });
}
