/**
 * Runs the OCR programs (poppler's pdfinfo and pdftoppm, tesseract) from the parser pool's helper
 * process: input on stdin, output from stdout (no temporary files to leak when a helper is
 * killed), each under its own hard limits (prlimit: CPU seconds and address space) so a program
 * that outlives its helper still ends. The pool counts these programs' CPU time and memory as
 * the call's and kills them with the helper (shared/isolated.ts); a helper that ends on its own
 * kills the ones still running.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ProgramLimits {
  /** Hard CPU-time limit of the program, seconds. */
  cpuSeconds: number;
  /** Hard address-space limit of the program, bytes. */
  addressSpaceBytes: number;
  /** Output beyond this many bytes kills the program. */
  maxOutputBytes: number;
}

export class ProgramMissing extends Error {
  constructor(readonly program: string) {
    super(`${program} is not installed`);
    this.name = 'ProgramMissing';
  }
}

export class ProgramFailed extends Error {
  constructor(
    readonly program: string,
    message: string,
  ) {
    super(`${program}: ${message}`);
    this.name = 'ProgramFailed';
  }
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function killRunningOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // The helper ends when its parent goes (the IPC channel closes): its programs end with it.
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

/** Runs `program args`, writes `input` to its stdin, resolves with its stdout. */
export function runProgram(
  program: string,
  args: readonly string[],
  input: Uint8Array,
  limits: ProgramLimits,
  env: NodeJS.ProcessEnv = {},
): Promise<Buffer> {
  killRunningOnExit();
  return new Promise((resolve, reject) => {
    // prlimit (util-linux) sets the limits and executes the program in the same process.
    const child = spawn(
      'prlimit',
      [`--cpu=${limits.cpuSeconds}`, `--as=${limits.addressSpaceBytes}`, '--', program, ...args],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...env },
      },
    );
    running.add(child);
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let overflow = false;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxOutputBytes) {
        overflow = true;
        child.kill('SIGKILL');
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      running.delete(child);
      reject(error.code === 'ENOENT' ? new ProgramMissing('prlimit') : error);
    });
    child.on('close', (code, signal) => {
      running.delete(child);
      if (overflow) return reject(new ProgramFailed(program, `its output passed ${limits.maxOutputBytes} bytes`));
      // prlimit's own exit code when it cannot execute the program.
      if (code === 127 || (code === 1 && /failed to execute|No such file/u.test(stderr)))
        return reject(new ProgramMissing(program));
      if (code !== 0)
        return reject(
          new ProgramFailed(program, signal ? `ended by ${signal}` : `exit code ${code}: ${lastLine(stderr)}`),
        );
      resolve(Buffer.concat(chunks));
    });
    // A program that stops reading (it failed early) must not fail the write.
    child.stdin.on('error', () => undefined);
    child.stdin.end(Buffer.from(input.buffer, input.byteOffset, input.byteLength));
  });
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.slice(0, 300) ?? '';
}
