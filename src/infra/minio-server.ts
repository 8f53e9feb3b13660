import { toolPath } from './defaults.js';
import { spawnManaged, waitFor, type ManagedProcess } from './process.js';

// A MinIO server (S3-compatible storage), built from its Go module by scripts/ensure-tools.
export async function startMinio(options: {
  dataDir: string;
  port: number;
  consolePort: number;
  accessKey: string;
  secretKey: string;
  logFile?: string;
}): Promise<ManagedProcess> {
  const server = spawnManaged(
    'minio',
    toolPath('minio'),
    [
      'server',
      options.dataDir,
      '--address',
      `127.0.0.1:${options.port}`,
      '--console-address',
      `127.0.0.1:${options.consolePort}`,
      '--quiet',
    ],
    {
      logFile: options.logFile,
      env: {
        MINIO_ROOT_USER: options.accessKey,
        MINIO_ROOT_PASSWORD: options.secretKey,
        MINIO_BROWSER: 'on',
        MINIO_UPDATE: 'off',
        MINIO_CALLHOME_ENABLE: 'off',
      },
    },
  );
  await waitFor(
    'MinIO',
    async () => (await fetch(`http://127.0.0.1:${options.port}/minio/health/ready`)).ok,
    60_000,
    server,
  );
  return server;
}
