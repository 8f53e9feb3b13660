import { afterAll, describe, expect, it } from 'vitest';
import {
  closeIsolation,
  configureIsolation,
  DEFAULT_HELPERS,
  isolationStats,
  runIsolated,
} from '../../../src/shared/isolated.js';

const fixture = new URL('./isolated-fixture.ts', import.meta.url);
const limits = { timeMs: 30_000, memoryBytes: 1024 * 2 ** 20 };
type Busy = { pid: number; startedAt: number; endedAt: number };

describe('runIsolated', () => {
  // The unit files share their worker's modules (vitest.config.ts): the next file finds the pool
  // as a process starts with it.
  afterAll(() => {
    closeIsolation();
    configureIsolation({ helpers: DEFAULT_HELPERS });
  });

  it('runs the function in a helper process and returns its result', async () => {
    expect(await runIsolated(fixture, 'double', [new Uint8Array([1, 2, 3])], limits)).toEqual({
      ok: true,
      value: [2, 4, 6],
    });
  }, 60_000);

  it('stops a call that runs out of time, and the next call gets a new helper', async () => {
    expect(await runIsolated(fixture, 'spin', [], { ...limits, timeMs: 500 })).toMatchObject({
      ok: false,
      reason: 'time_limit',
    });
    expect(await runIsolated(fixture, 'double', [new Uint8Array([5])], limits)).toEqual({ ok: true, value: [10] });
  }, 60_000);

  it('reports a helper that dies mid-call, and the next call gets a new one', async () => {
    expect(await runIsolated(fixture, 'exitHard', [], limits)).toMatchObject({
      ok: false,
      reason: 'crashed',
      message: expect.stringContaining('ended'),
    });
    expect(await runIsolated(fixture, 'double', [new Uint8Array([7])], limits)).toEqual({ ok: true, value: [14] });
  }, 60_000);

  it('runs two calls at once in two helpers of the pool', async () => {
    configureIsolation({ helpers: 2 });
    // Both helpers started and warm, so start-up is not what overlaps.
    await Promise.all([
      runIsolated(fixture, 'double', [new Uint8Array([1])], limits),
      runIsolated(fixture, 'double', [new Uint8Array([2])], limits),
    ]);
    expect(isolationStats()).toMatchObject({ helpers: 2, busy: 0 });
    const [first, second] = await Promise.all([
      runIsolated<Busy>(fixture, 'busyFor', [1_500], limits),
      runIsolated<Busy>(fixture, 'busyFor', [1_500], limits),
    ]);
    if (!first?.ok || !second?.ok) throw new Error('both calls should succeed');
    expect(first.value.pid).not.toBe(second.value.pid);
    // They overlapped in time: each started before the other ended.
    expect(first.value.startedAt).toBeLessThan(second.value.endedAt);
    expect(second.value.startedAt).toBeLessThan(first.value.endedAt);
  }, 60_000);

  it('queues calls beyond the pool size and runs them as helpers free up', async () => {
    configureIsolation({ helpers: 1 });
    try {
      const calls = [
        runIsolated<Busy>(fixture, 'busyFor', [300], limits),
        runIsolated<Busy>(fixture, 'busyFor', [300], limits),
      ];
      expect(isolationStats()).toMatchObject({ waiting: 1, size: 1 });
      const [first, second] = await Promise.all(calls);
      if (!first?.ok || !second?.ok) throw new Error('both calls should succeed');
      expect(second.value.startedAt).toBeGreaterThanOrEqual(first.value.endedAt);
    } finally {
      configureIsolation({ helpers: 2 });
    }
  }, 60_000);

  it('an aborted call kills its helper at once, and the freed slot serves the next call', async () => {
    configureIsolation({ helpers: 1 });
    try {
      const controller = new AbortController();
      const started = performance.now();
      const spinning = runIsolated(fixture, 'spin', [], { ...limits, signal: controller.signal });
      const queued = runIsolated(fixture, 'double', [new Uint8Array([4])], limits);
      setTimeout(() => controller.abort(), 500);
      expect(await spinning).toMatchObject({ ok: false, reason: 'cancelled' });
      expect(await queued).toEqual({ ok: true, value: [8] });
      expect(performance.now() - started).toBeLessThan(limits.timeMs);
    } finally {
      configureIsolation({ helpers: 2 });
    }
  }, 60_000);

  it('a call aborted while it waits for a helper leaves the queue without running', async () => {
    configureIsolation({ helpers: 1 });
    try {
      const controller = new AbortController();
      const running = runIsolated<Busy>(fixture, 'busyFor', [500], limits);
      const waiting = runIsolated(fixture, 'exitHard', [], { ...limits, signal: controller.signal });
      controller.abort();
      expect(await waiting).toMatchObject({ ok: false, reason: 'cancelled' });
      expect(isolationStats().waiting).toBe(0);
      expect(await running).toMatchObject({ ok: true });
    } finally {
      configureIsolation({ helpers: 2 });
    }
  }, 60_000);

  it('replaces a helper killed for its time limit at once, so the next call finds one started', async () => {
    configureIsolation({ helpers: 1 });
    try {
      expect(await runIsolated(fixture, 'spin', [], { ...limits, timeMs: 500 })).toMatchObject({
        ok: false,
        reason: 'time_limit',
      });
      // The replacement is there before anyone asks for it, idle.
      expect(isolationStats()).toMatchObject({ helpers: 1, busy: 0, waiting: 0 });
      expect(await runIsolated(fixture, 'double', [new Uint8Array([3])], limits)).toEqual({ ok: true, value: [6] });
    } finally {
      configureIsolation({ helpers: 2 });
    }
  }, 60_000);

  it("counts a call's time limit from the start of its function, not while a new helper loads the module", async () => {
    closeIsolation();
    const slowToLoad = new URL('./isolated-slow-fixture.ts', import.meta.url);
    // Loading takes 1.5 s, the function a moment: a 500 ms limit is the function's, and is kept.
    expect(await runIsolated(slowToLoad, 'quick', [], { ...limits, timeMs: 500 })).toEqual({
      ok: true,
      value: 'quick',
    });
    expect(await runIsolated(fixture, 'spin', [], { ...limits, timeMs: 500 })).toMatchObject({
      ok: false,
      reason: 'time_limit',
    });
  }, 60_000);

  it('reports an error the function throws', async () => {
    expect(await runIsolated(fixture, 'fail', [], limits)).toEqual({
      ok: false,
      reason: 'crashed',
      message: 'broken on purpose',
    });
  }, 60_000);
});
