import { afterAll, describe, expect, it } from 'vitest';
import { closeIsolation, runIsolated } from '../../../src/shared/isolated.js';

const fixture = new URL('./isolated-fixture.ts', import.meta.url);
const limits = { timeMs: 30_000, memoryBytes: 1024 * 2 ** 20 };

describe('runIsolated', () => {
  afterAll(() => closeIsolation());

  it('runs the function in a helper process and returns its result', async () => {
    expect(await runIsolated(fixture, 'double', [new Uint8Array([1, 2, 3])], limits)).toEqual({ ok: true, value: [2, 4, 6] });
  }, 60_000);

  it('stops a call that runs out of time, and the next call gets a new helper', async () => {
    expect(await runIsolated(fixture, 'spin', [], { ...limits, timeMs: 3_000 })).toMatchObject({ ok: false, reason: 'time_limit' });
    expect(await runIsolated(fixture, 'double', [new Uint8Array([5])], limits)).toEqual({ ok: true, value: [10] });
  }, 60_000);

  it('reports a helper that dies mid-call, and the next call gets a new one', async () => {
    expect(await runIsolated(fixture, 'exitHard', [], limits)).toMatchObject({ ok: false, reason: 'crashed', message: expect.stringContaining('ended') });
    expect(await runIsolated(fixture, 'double', [new Uint8Array([7])], limits)).toEqual({ ok: true, value: [14] });
  }, 60_000);

  it('reports an error the function throws', async () => {
    expect(await runIsolated(fixture, 'fail', [], limits)).toEqual({ ok: false, reason: 'crashed', message: 'broken on purpose' });
  }, 60_000);
});
