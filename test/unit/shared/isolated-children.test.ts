import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeIsolation, runIsolated } from '../../../src/shared/isolated.js';

// The programs a call starts (OCR: pdftoppm, tesseract) are the call's work: their CPU time and
// memory count against its limits, and they end with it.
const fixture = new URL('./isolated-children-fixture.ts', import.meta.url);
const directory = mkdtempSync(path.join(tmpdir(), 'isolated-children-'));

/** Gone, or a zombie waiting for its reaper: either way it no longer runs. */
function ended(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return true;
  try {
    return readFileSync(stat, 'utf8')
      .slice(readFileSync(stat, 'utf8').lastIndexOf(')') + 2)
      .startsWith('Z');
  } catch {
    return true;
  }
}

async function waitUntilEnded(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if (ended(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return ended(pid);
}

describe('runIsolated with programs the helper starts', () => {
  afterAll(() => {
    closeIsolation();
    rmSync(directory, { recursive: true, force: true });
  });

  it("counts a program's CPU time as the call's, and kills the program with the helper", async () => {
    const pidFile = path.join(directory, 'spin.pid');
    // The helper itself only waits; the program it started spins.
    const result = await runIsolated(fixture, 'spinInChild', [pidFile], { timeMs: 1_500, memoryBytes: 1024 * 2 ** 20 });
    expect(result).toMatchObject({ ok: false, reason: 'time_limit' });
    expect(await waitUntilEnded(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
  }, 60_000);

  it("counts a program's memory as the call's", async () => {
    const pidFile = path.join(directory, 'memory.pid');
    const result = await runIsolated(fixture, 'holdMemoryInChild', [pidFile, 700], {
      timeMs: 30_000,
      memoryBytes: 600 * 2 ** 20,
    });
    expect(result).toMatchObject({ ok: false, reason: 'memory_limit' });
    expect(await waitUntilEnded(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
  }, 60_000);

  it('kills the program when the caller gives up', async () => {
    const pidFile = path.join(directory, 'cancelled.pid');
    const controller = new AbortController();
    const call = runIsolated(fixture, 'spinInChild', [pidFile], {
      timeMs: 30_000,
      memoryBytes: 1024 * 2 ** 20,
      signal: controller.signal,
    });
    for (let attempt = 0; attempt < 300 && !existsSync(pidFile); attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    expect(await call).toMatchObject({ ok: false, reason: 'cancelled' });
    expect(await waitUntilEnded(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
  }, 60_000);
});
