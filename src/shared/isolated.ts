import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Runs one exported function of a module in a helper process that is killed, and started again
// on the next call, when the call takes too long or the process takes too much memory. For work
// on untrusted files whose cost the work itself cannot bound: pdf.js inflates a PDF's compressed
// streams in full (a 2 MB file took 3.5 GB), and a time limit in the same thread cannot stop it.
//
// A process rather than a thread, because only a process's memory can be told apart from the
// caller's (/proc/<pid>/statm); one process, reused, one call at a time, so each call's limits
// are its own. It ends when idle and when its parent goes.

export interface IsolationLimits {
  timeMs: number;
  // Resident memory of the helper process, its start-up (Node, tsx, the module) included.
  memoryBytes: number;
}

export type Isolated<T> = { ok: true; value: T } | { ok: false; reason: 'time_limit' | 'memory_limit' | 'crashed'; message: string };

type Reply = { ok: true; value: unknown } | { ok: false; message: string };

const ENTRY = fileURLToPath(new URL('./isolated-process.mjs', import.meta.url));
const MEMORY_SAMPLE_MS = 20;
const IDLE_MS = 30_000;
const PAGE_BYTES = 4096;

let helper: ChildProcess | undefined;
let idleTimer: NodeJS.Timeout | undefined;
let turn: Promise<unknown> = Promise.resolve();

export function runIsolated<T>(moduleUrl: URL, exportName: string, args: unknown[], limits: IsolationLimits): Promise<Isolated<T>> {
  const result = turn.then(() => callHelper<T>(moduleUrl, exportName, args, limits));
  turn = result.catch(() => undefined);
  return result;
}

function helperProcess(): ChildProcess {
  if (helper && helper.exitCode === null && helper.signalCode === null) return helper;
  helper = fork(ENTRY, [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
  helper.unref();
  return helper;
}

// Ends a helper; the next call starts a new one rather than find this one still dying.
function retire(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (helper === child) helper = undefined;
  child.kill(signal);
}

// Resident bytes of the process, or null where /proc does not tell (then only time is limited).
function residentBytes(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
  } catch {
    return null;
  }
}

async function callHelper<T>(moduleUrl: URL, exportName: string, args: unknown[], limits: IsolationLimits): Promise<Isolated<T>> {
  clearTimeout(idleTimer);
  const child = helperProcess();
  child.channel?.ref();
  try {
    return await new Promise<Isolated<T>>((resolve) => {
      const finish = (result: Isolated<T>) => {
        clearTimeout(timer);
        clearInterval(watch);
        child.off('message', onReply);
        child.off('exit', onExit);
        resolve(result);
      };
      const stop = (result: Isolated<T>) => {
        retire(child, 'SIGKILL');
        finish(result);
      };
      const onReply = (reply: Reply) => finish(reply.ok ? { ok: true, value: reply.value as T } : { ok: false, reason: 'crashed', message: reply.message });
      const onExit = (code: number | null, signal: string | null) => finish({ ok: false, reason: 'crashed', message: `the helper process ended (${signal ?? code})` });
      const timer = setTimeout(() => stop({ ok: false, reason: 'time_limit', message: `stopped after ${limits.timeMs} ms` }), limits.timeMs);
      const watch = setInterval(() => {
        const resident = residentBytes(child.pid);
        if (resident !== null && resident > limits.memoryBytes) stop({ ok: false, reason: 'memory_limit', message: `stopped at ${Math.round(resident / 2 ** 20)} MiB` });
      }, MEMORY_SAMPLE_MS);
      child.on('message', onReply);
      child.once('exit', onExit);
      child.send({ moduleUrl: moduleUrl.href, exportName, args }, (error) => {
        if (error) stop({ ok: false, reason: 'crashed', message: `the helper process could not be reached: ${error.message}` });
      });
    });
  } finally {
    // Idle, the helper must not keep this process alive, and ends after a while.
    child.channel?.unref();
    idleTimer = setTimeout(() => retire(child), IDLE_MS);
    idleTimer.unref();
  }
}

// For a clean shutdown (tests, the worker): ends the helper process now.
export function closeIsolation(): void {
  clearTimeout(idleTimer);
  if (helper) retire(helper);
}
