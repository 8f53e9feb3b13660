import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { repoRoot, toolPath } from './defaults.js';
import { spawnManaged, waitFor, type ManagedProcess } from './process.js';

// The Temporal CLI's dev server: a full Temporal server with SQLite persistence and the Web UI.

export function searchAttributeFlags(): string[] {
  const file = readFileSync(path.join(repoRoot, 'temporal-config', 'search-attributes.txt'), 'utf8');
  return file
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .flatMap((line) => ['--search-attribute', line]);
}

export interface TemporalDevServerOptions {
  port: number;
  uiPort: number | null;
  dbFile: string | null;
  logFile?: string;
  namespace?: string;
}

export function spawnTemporalDevServer(options: TemporalDevServerOptions): ManagedProcess {
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    ...(options.namespace && options.namespace !== 'default' ? ['--namespace', options.namespace] : []),
    '--log-level',
    'warn',
    '--dynamic-config-value',
    'frontend.enableUpdateWorkflowExecution=true',
    ...searchAttributeFlags(),
    ...(options.dbFile ? ['--db-filename', options.dbFile] : []),
    ...(options.uiPort ? ['--ui-port', String(options.uiPort), '--ui-ip', '127.0.0.1'] : ['--headless']),
  ];
  return spawnManaged('temporal', toolPath('temporal'), args, { logFile: options.logFile });
}

export async function waitForTemporal(port: number, server?: ManagedProcess): Promise<void> {
  await waitFor(
    'Temporal dev server',
    async () => {
      const connection = await Connection.connect({ address: `127.0.0.1:${port}`, connectTimeout: 1000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return true;
      } finally {
        await connection.close();
      }
    },
    90_000,
    server,
  );
}

export async function startTemporalDevServer(options: TemporalDevServerOptions): Promise<ManagedProcess> {
  const server = spawnTemporalDevServer(options);
  await waitForTemporal(options.port, server);
  return server;
}
