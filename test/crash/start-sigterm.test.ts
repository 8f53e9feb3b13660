import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/infra/defaults.js';
import { freePort, portAnswers } from '../../src/infra/process.js';
import { eventually } from '../support/api.js';

// `npm start` stopped by SIGTERM sent to npm alone, as a process manager, `kill <pid>` or a CI
// runner does (Ctrl-C signals every process of the terminal's group; SIGTERM reaches one). Every
// process the command started must end and free its port. It runs the real command: install
// check, embedded PostgreSQL, Temporal dev server, MinIO, migrations, worker and API, on ports
// and a data folder of its own. Linux only (it reads the process tree from /proc).

// Every process below `root`, from /proc/<pid>/stat (pid, command, state, parent pid).
function descendants(root: number): { pid: number; command: string }[] {
  const parents = new Map<number, { ppid: number; command: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const [, ppid] = stat.slice(close + 2).split(' ');
      parents.set(Number(entry), { ppid: Number(ppid), command: stat.slice(stat.indexOf('(') + 1, close) });
    } catch {
      // Gone while listing.
    }
  }
  const found: { pid: number; command: string }[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [pid, info] of parents) {
      if (info.ppid === parent) {
        found.push({ pid, command: info.command });
        queue.push(pid);
      }
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    // A zombie has exited; only its parent has not read its status yet.
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return false;
  }
}

describe('npm start', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ics-start-'));
  // Run as root, embedded PostgreSQL drops to a 'postgres' user that must reach its data folder.
  chmodSync(dataDir, 0o755);
  let leftover: number[] = [];

  afterAll(() => {
    // Only if the test failed: nothing it started may outlive it.
    for (const pid of leftover) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops the whole stack when npm alone gets SIGTERM', async () => {
    const portVariables = [
      'PORT',
      'EMBEDDED_POSTGRES_PORT',
      'EMBEDDED_TEMPORAL_PORT',
      'EMBEDDED_TEMPORAL_UI_PORT',
      'EMBEDDED_MINIO_PORT',
      'EMBEDDED_MINIO_CONSOLE_PORT',
    ];
    const ports: Record<string, number> = Object.fromEntries(
      await Promise.all(portVariables.map(async (variable) => [variable, await freePort()])),
    );
    const environment: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    // The embedded servers, not whatever this environment may point at.
    for (const variable of [
      'DATABASE_URL',
      'TEMPORAL_ADDRESS',
      'S3_ENDPOINT',
      'S3_ACCESS_KEY',
      'S3_SECRET_KEY',
      'APP_BASE_URL',
      'PUBLIC_BASE_URL',
    ])
      delete environment[variable];
    for (const [variable, port] of Object.entries(ports)) environment[variable] = String(port);

    const npm = spawn('npm', ['start'], { cwd: repoRoot, env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    leftover = [npm.pid!];

    await eventually(
      async () => output.includes('[stack] running') || npm.exitCode !== null,
      (ready) => ready,
      300_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${output}`);
    });
    expect(npm.exitCode, output).toBeNull();
    const started = descendants(npm.pid!);
    leftover.push(...started.map((p) => p.pid));
    // The servers and the two Node processes (worker, API) are all below npm.
    expect(
      started.map((p) => p.command),
      JSON.stringify(started),
    ).toEqual(
      expect.arrayContaining(['postgres', expect.stringMatching(/^temporal/), expect.stringMatching(/^minio/)]),
    );
    expect(started.filter((p) => p.command === 'node').length, JSON.stringify(started)).toBeGreaterThanOrEqual(3);
    for (const port of Object.values(ports)) expect(await portAnswers(port), `port ${port}`).toBe(true);

    npm.kill('SIGTERM');
    const code = await Promise.race([
      exited,
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 60_000)),
    ]);
    expect(code, output).not.toBe('timeout');
    // What npm started ends with it: no process of the tree is left, no port answers.
    await eventually(
      async () => started.filter((p) => alive(p.pid)),
      (left) => left.length === 0,
      30_000,
    );
    for (const port of Object.values(ports)) expect(await portAnswers(port), `port ${port}`).toBe(false);
    expect(output).toContain('[stack] stopping...');
    leftover = [];
  }, 420_000);
});
