// Functions for isolated-children.test.ts to run in the helper process: work handed to a program
// the helper starts, as OCR hands a page to tesseract.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

/** Starts a program that spins on the CPU, notes its pid, and waits for it (forever). */
export function spinInChild(pidFile: string): Promise<never> {
  const child = spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' });
  writeFileSync(pidFile, String(child.pid));
  return new Promise(() => undefined);
}

/** Starts a program that holds `mib` MiB of memory, notes its pid, and waits for it (forever). */
export function holdMemoryInChild(pidFile: string, mib: number): Promise<never> {
  const child = spawn(
    process.execPath,
    ['-e', `globalThis.kept = Buffer.alloc(${mib} * 2 ** 20, 1); setInterval(() => {}, 1000);`],
    { stdio: 'ignore' },
  );
  writeFileSync(pidFile, String(child.pid));
  return new Promise(() => undefined);
}
