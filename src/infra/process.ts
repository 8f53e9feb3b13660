import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

// Starting and stopping the local servers of the dev stack and the test suite.

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

// Children must not outlive this process when it ends without stopping them (an uncaught error,
// an early process.exit): a test or benchmark run that died would leave its servers holding
// ports and CPU. (Embedded PostgreSQL's library stops its own server the same way.)
const liveChildren = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of liveChildren) child.kill('SIGTERM');
});

export function spawnManaged(
  name: string,
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; logFile?: string; inheritOutput?: boolean; cwd?: string },
): ManagedProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: options.inheritOutput ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
  });
  if (options.logFile && !options.inheritOutput) {
    mkdirSync(path.dirname(options.logFile), { recursive: true });
    const log = createWriteStream(options.logFile, { flags: 'a' });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  } else if (!options.inheritOutput) {
    child.stdout?.resume();
    child.stderr?.resume();
  }
  liveChildren.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Once the process is gone its pipes must not keep this process alive.
  void exited.then(() => {
    liveChildren.delete(child);
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.unref();
  });
  return {
    name,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timeout = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}

// A TypeScript entry point as one Node process (tsx as a loader, not as a wrapper process), so
// its pid is the program itself: signals, kill -9 in tests and process managers reach it directly.
export function spawnTypeScript(
  name: string,
  entry: string,
  options: { env?: NodeJS.ProcessEnv; logFile?: string; inheritOutput?: boolean; cwd: string },
): ManagedProcess {
  return spawnManaged(name, process.execPath, ['--import', 'tsx', entry], options);
}

export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 60_000,
  process?: ManagedProcess,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (process && process.child.exitCode !== null)
      throw new Error(`${what}: the process exited with code ${process.child.exitCode}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not become ready within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export function portAnswers(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host }, () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
