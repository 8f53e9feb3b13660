// Functions for isolated.test.ts to run in the helper process.
export function double(values: Uint8Array): number[] {
  return [...values].map((value) => value * 2);
}

export function spin(): never {
  for (;;) {
    // never returns: only the time limit ends it
  }
}

export function fail(): never {
  throw new Error('broken on purpose');
}

export function exitHard(): never {
  process.exit(3);
}

/** Busy for `ms` milliseconds (synchronously, like a parser), then says which process it ran in. */
export function busyFor(ms: number): { pid: number; startedAt: number; endedAt: number } {
  const startedAt = Date.now();
  while (Date.now() - startedAt < ms) {
    // a synchronous parse
  }
  return { pid: process.pid, startedAt, endedAt: Date.now() };
}
