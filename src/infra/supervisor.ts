import { writeFileSync } from 'node:fs';
import type { ManagedProcess } from './process.js';

// Keeps a process running: when it dies (a crash, a kill -9 in a test), it is started again, as a
// process manager would in production. Its current pid is written to pidFile.
export interface Supervised {
  current(): ManagedProcess;
  stop(): Promise<void>;
}

export function supervise(
  name: string,
  start: () => ManagedProcess,
  pidFile: string,
  restartDelayMs = 300,
): Supervised {
  let stopping = false;
  let process = launch();

  function launch(): ManagedProcess {
    const child = start();
    writeFileSync(pidFile, String(child.child.pid));
    child.child.once('exit', () => {
      if (stopping) return;
      setTimeout(() => {
        if (!stopping) process = launch();
      }, restartDelayMs);
    });
    return child;
  }

  return {
    current: () => process,
    async stop() {
      stopping = true;
      await process.stop();
    },
  };
}
