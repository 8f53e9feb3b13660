import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Context } from '@temporalio/activity';

// Runs one exported function of a module in a helper process that is killed, and started again
// on the next call, when the call takes too long, the process takes too much memory, or the
// caller gives up (an activity cancelled, timed out or retried). For work on untrusted files
// (PDF, XML, CSV/XLSX, DOCX) whose cost the work itself cannot bound: pdf.js inflates a PDF's
// compressed streams in full (a small file can take gigabytes), and a time limit in the same thread
// cannot stop synchronous parsing, which would also block the worker's event loop for every
// other tenant's activities.
//
// Processes rather than threads, because only a process's memory can be told apart from the
// caller's (/proc/<pid>/statm). A small pool of them (configureIsolation, PARSER_HELPERS), each
// reused while warm and running one call at a time, so each call's limits are its own; calls
// beyond the pool's size wait their turn. Helpers end when idle and when their parent goes.
//
// A killed helper is replaced at once by one that loads the modules the pool has run, so the
// ordinary file after a hostile one finds a warm helper instead of paying a process start (seconds
// on a loaded machine). A call's time limit counts its own work: it starts when the helper has
// loaded the module and begins the function, not while a new helper starts (which has its own,
// longer limit).

export interface IsolationLimits {
  // CPU time of the helper for this call (user + system, read from /proc/<pid>/stat; wall-clock
  // time where /proc does not tell). On a busy machine a helper gets a fraction of a core: a large
  // invoice within its CPU budget took several times as long in wall-clock time and was refused as
  // xml_timeout (docs/benchmarks.md). Wall-clock time is bounded too, at WALL_CLOCK_FACTOR x.
  timeMs: number;
  // Resident memory of the helper process, its start-up (Node, tsx, the module) included.
  memoryBytes: number;
  // Stops the call (and kills its helper) when aborted. Inside a Temporal activity the activity's
  // cancellation signal is used when none is given.
  signal?: AbortSignal;
}

export type IsolationFailure = 'time_limit' | 'memory_limit' | 'crashed' | 'cancelled';

/** Thrown by callers when the isolated call was cancelled: the activity ends as cancelled, writing no outcome. */
export class IsolationCancelled extends Error {
  constructor() {
    super('Parsing was stopped because its activity was cancelled or timed out.');
    this.name = 'IsolationCancelled';
  }
}

export type Isolated<T> = { ok: true; value: T } | { ok: false; reason: IsolationFailure; message: string };

type Reply = { started: true } | { ok: true; value: unknown } | { ok: false; message: string };

const ENTRY = fileURLToPath(new URL('./isolated-process.mjs', import.meta.url));
const MEMORY_SAMPLE_MS = 20;
const IDLE_MS = 30_000;
/** A new helper's start (Node, tsx, the module) before the call's own time limit begins. */
const STARTUP_LIMIT_MS = 60_000;
const PAGE_BYTES = 4096;
// Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux).
const TICKS_PER_SECOND = 100;
/** A call ends at this multiple of its time limit in wall-clock time, whatever its CPU time. */
export const WALL_CLOCK_FACTOR = 4;
/** While a call runs inside an activity, it heartbeats this often so a cancellation reaches it. */
const HEARTBEAT_MS = 2_000;
export const DEFAULT_HELPERS = 2;

interface Helper {
  child: ChildProcess;
  busy: boolean;
  idleTimer?: NodeJS.Timeout;
  // Killed by the pool for a call's limit or cancellation (not ended by a shutdown or a crash).
  stopped?: boolean;
}

interface Waiting {
  start: (helper: Helper) => void;
}

let poolSize = DEFAULT_HELPERS;
const helpers = new Set<Helper>();
const waiting: Waiting[] = [];
// Modules the pool has run calls of: a new helper loads them before it is asked to.
const knownModules = new Set<string>();

/** Sets how many helper processes may run at once (the worker does this from its config). */
export function configureIsolation(options: { helpers: number }): void {
  poolSize = Math.max(1, Math.floor(options.helpers));
  // A smaller pool: idle helpers beyond it end now, busy ones when their call ends (release).
  for (const helper of [...helpers]) if (!helper.busy && helpers.size > poolSize) retire(helper);
  dispatch();
}

/** For tests and metrics: helpers alive and busy, and calls waiting for one. */
export function isolationStats(): { helpers: number; busy: number; waiting: number; size: number } {
  return {
    helpers: helpers.size,
    busy: [...helpers].filter((helper) => helper.busy).length,
    waiting: waiting.length,
    size: poolSize,
  };
}

export function runIsolated<T>(
  moduleUrl: URL,
  exportName: string,
  args: unknown[],
  limits: IsolationLimits,
): Promise<Isolated<T>> {
  const signal = limits.signal ?? activitySignal();
  if (signal?.aborted) return Promise.resolve(cancelled());
  return new Promise<Isolated<T>>((resolve) => {
    const entry: Waiting = {
      start: (helper) => {
        signal?.removeEventListener('abort', leaveQueue);
        void callHelper<T>(helper, moduleUrl, exportName, args, limits, signal).then(resolve);
      },
    };
    const leaveQueue = () => {
      const index = waiting.indexOf(entry);
      if (index === -1) return;
      waiting.splice(index, 1);
      resolve(cancelled());
    };
    signal?.addEventListener('abort', leaveQueue, { once: true });
    waiting.push(entry);
    dispatch();
  });
}

function cancelled(): { ok: false; reason: 'cancelled'; message: string } {
  return { ok: false, reason: 'cancelled', message: 'the caller stopped waiting (cancelled or timed out)' };
}

/** The running activity's cancellation signal, or undefined outside an activity. */
function activitySignal(): AbortSignal | undefined {
  try {
    return Context.current().cancellationSignal;
  } catch {
    return undefined;
  }
}

function heartbeat(): void {
  try {
    const context = Context.current();
    // A local activity cannot heartbeat (the worker logged "Activity heartbeat failed" each time);
    // its cancellation comes through the signal all the same.
    if (!context.info.isLocal) context.heartbeat();
  } catch {
    // Not in an activity.
  }
}

/** Hands free (or new) helpers to waiting calls, oldest first. */
function dispatch(): void {
  while (waiting.length > 0) {
    const helper = freeHelper();
    if (!helper) return;
    helper.busy = true;
    clearTimeout(helper.idleTimer);
    waiting.shift()!.start(helper);
  }
}

function freeHelper(): Helper | undefined {
  if ([...helpers].filter((helper) => helper.busy).length >= poolSize) return undefined;
  for (const helper of helpers) {
    if (!helper.busy && alive(helper.child)) return helper;
    if (!alive(helper.child)) helpers.delete(helper);
  }
  if (helpers.size >= poolSize) return undefined;
  return startHelper();
}

function startHelper(): Helper {
  const child = fork(ENTRY, [], {
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
  });
  child.unref();
  const helper: Helper = { child, busy: false };
  helpers.add(helper);
  if (knownModules.size > 0) child.send({ preload: [...knownModules] }, () => undefined);
  return helper;
}

// After a helper was killed for a call's limit: a warm replacement, unless calls are waiting (dispatch starts one for
// them) or the pool is full.
function replenish(): void {
  if (waiting.length > 0 || helpers.size >= poolSize) return;
  idle(startHelper());
}

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

// Ends a helper; the next call starts a new one rather than find this one still dying. The
// processes it started for its call (pdftoppm, tesseract) end with it: they are the call's work.
function retire(helper: Helper, signal: NodeJS.Signals = 'SIGTERM'): void {
  helpers.delete(helper);
  clearTimeout(helper.idleTimer);
  for (const pid of descendants(helper.child.pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  helper.child.kill(signal);
}

// The processes a helper started, and theirs, from /proc/<pid>/task/<tid>/children (empty where
// /proc does not tell; then the limits cover the helper alone).
function descendants(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  const found: number[] = [];
  const pending = [pid];
  while (pending.length > 0 && found.length < 256) {
    const parent = pending.pop() as number;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${parent}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        for (const child of readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8').split(' ')) {
          if (child.trim() === '') continue;
          found.push(Number(child));
          pending.push(Number(child));
        }
      } catch {
        // The thread ended, or the kernel does not list children.
      }
    }
  }
  return found;
}

// CPU milliseconds the helper's call has used (user + system), or null where /proc does not
// tell: the helper's own, its ended children's (cutime, cstime) and its running children's, so
// work handed to a program (OCR) counts as the call's.
function cpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  const own = processCpuMs(pid);
  if (own === null) return null;
  return descendants(pid).reduce((total, child) => total + (processCpuMs(child) ?? 0), own);
}

function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces, in parentheses): utime, stime,
    // cutime and cstime are the 12th to 15th of them.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (
      ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND
    );
  } catch {
    return null;
  }
}

// Resident bytes of the helper and the processes it started, or null where /proc does not tell
// (then only time is limited).
function residentBytes(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  const own = processResidentBytes(pid);
  if (own === null) return null;
  return descendants(pid).reduce((total, child) => total + (processResidentBytes(child) ?? 0), own);
}

function processResidentBytes(pid: number): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
  } catch {
    return null;
  }
}

async function callHelper<T>(
  helper: Helper,
  moduleUrl: URL,
  exportName: string,
  args: unknown[],
  limits: IsolationLimits,
  signal: AbortSignal | undefined,
): Promise<Isolated<T>> {
  const { child } = helper;
  child.channel?.ref();
  let result: Isolated<T> | undefined;
  try {
    result = await new Promise<Isolated<T>>((resolve) => {
      const finish = (outcome: Isolated<T>) => {
        clearTimeout(timer);
        clearInterval(watch);
        clearInterval(beat);
        signal?.removeEventListener('abort', onAbort);
        child.off('message', onReply);
        child.off('exit', onExit);
        resolve(outcome);
      };
      const stop = (outcome: Isolated<T>) => {
        helper.stopped = true;
        retire(helper, 'SIGKILL');
        finish(outcome);
      };
      const onReply = (reply: Reply) => {
        if ('started' in reply) {
          // The module is loaded and the function begins: from now on the call's own limits, in
          // CPU time (checked with the memory) and at most WALL_CLOCK_FACTOR x in wall-clock time.
          clearTimeout(timer);
          started = performance.now();
          cpuAtStart = cpuMs(child.pid);
          timer = setTimeout(
            () => outOfTime(`stopped after ${limits.timeMs * WALL_CLOCK_FACTOR} ms of wall-clock time`),
            limits.timeMs * WALL_CLOCK_FACTOR,
          );
          return;
        }
        finish(
          reply.ok ? { ok: true, value: reply.value as T } : { ok: false, reason: 'crashed', message: reply.message },
        );
      };
      const onExit = (code: number | null, exitSignal: string | null) =>
        finish({ ok: false, reason: 'crashed', message: `the helper process ended (${exitSignal ?? code})` });
      const onAbort = () => stop(cancelled());
      const outOfTime = (message: string) => stop({ ok: false, reason: 'time_limit', message });
      // Until the helper says the function has begun, only its start-up limit applies.
      let started: number | null = null;
      let cpuAtStart: number | null = null;
      let timer = setTimeout(
        () => outOfTime(`the helper did not start within ${STARTUP_LIMIT_MS} ms`),
        STARTUP_LIMIT_MS,
      );
      const watch = setInterval(() => {
        const resident = residentBytes(child.pid);
        if (resident !== null && resident > limits.memoryBytes)
          return stop({
            ok: false,
            reason: 'memory_limit',
            message: `stopped at ${Math.round(resident / 2 ** 20)} MiB`,
          });
        if (started === null) return;
        const cpu = cpuAtStart === null ? null : cpuMs(child.pid);
        const used = cpu === null || cpuAtStart === null ? performance.now() - started : cpu - cpuAtStart;
        if (used > limits.timeMs)
          outOfTime(`stopped after ${limits.timeMs} ms of ${cpu === null ? 'wall-clock' : 'CPU'} time`);
      }, MEMORY_SAMPLE_MS);
      const beat = setInterval(heartbeat, HEARTBEAT_MS);
      signal?.addEventListener('abort', onAbort, { once: true });
      child.on('message', onReply);
      child.once('exit', onExit);
      knownModules.add(moduleUrl.href);
      child.send({ moduleUrl: moduleUrl.href, exportName, args }, (error) => {
        if (error)
          stop({ ok: false, reason: 'crashed', message: `the helper process could not be reached: ${error.message}` });
      });
    });
    return result;
  } finally {
    release(helper);
  }
}

// Back to the pool, or gone if it was killed; idle, it must not keep this process alive.
function release(helper: Helper): void {
  helper.busy = false;
  if (helpers.has(helper) && helpers.size > poolSize) retire(helper);
  if (helpers.has(helper) && alive(helper.child)) idle(helper);
  else {
    helpers.delete(helper);
    if (helper.stopped) replenish();
  }
  dispatch();
}

function idle(helper: Helper): void {
  helper.child.channel?.unref();
  clearTimeout(helper.idleTimer);
  helper.idleTimer = setTimeout(() => retire(helper), IDLE_MS);
  helper.idleTimer.unref();
}

// For a clean shutdown (tests, the worker): ends every helper process now.
export function closeIsolation(): void {
  for (const helper of [...helpers]) retire(helper);
}
