import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it, inject } from 'vitest';
import { repoRoot } from '../../src/infra/defaults.js';

// A change to prisma/schema.prisma without its migration fails here, before it reaches a database.
describe('migrations', () => {
  it('hold every change of prisma/schema.prisma', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--experimental-wasm-modules', '--no-warnings', 'scripts/migrate.mjs', 'check'],
      {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: inject('stackEnv').DATABASE_URL },
      },
    );
    expect(stdout).toContain('migrations match the schema');
  });
});
