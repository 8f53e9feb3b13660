import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../src/infra/defaults.js';
import { call, expectError } from '../support/api.js';

// The admin CLI as an operator runs it: a separate process, JSON out.
async function admin(...args: string[]): Promise<{ code: number; json: any }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/admin/cli.ts', ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: inject('stackEnv').DATABASE_URL },
    });
    return { code: 0, json: JSON.parse(stdout) };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, json: JSON.parse(failed.stderr.trim().split('\n').pop()!) };
  }
}

describe('admin CLI', () => {
  it('creates an organization, a member, a key no higher than the role, and an ingestion token; and disables them', async () => {
    const organization = (await admin('create-organization', '--name', 'CLI Org', '--currency', 'nok')).json;
    expect(organization).toMatchObject({ name: 'CLI Org', currencyCode: 'NOK' });
    const user = (
      await admin(
        'add-member',
        '--organization',
        organization.id,
        '--email',
        `cli-${organization.id}@example.test`,
        '--role',
        'write',
      )
    ).json;

    const tooHigh = await admin(
      'create-api-key',
      '--organization',
      organization.id,
      '--user',
      user.id,
      '--level',
      'admin',
    );
    expect(tooHigh.code).toBe(1);
    expect(tooHigh.json.error).toContain("cannot exceed its owner's role");

    const key = (
      await admin('create-api-key', '--organization', organization.id, '--user', user.id, '--level', 'write')
    ).json;
    expect(key.key).toMatch(/^icsk_/);
    const me = await call('/v1/organization', { token: key.key, organizationId: organization.id });
    expect(me.body).toMatchObject({ id: organization.id, level: 'write' });

    const token = (
      await admin('create-ingestion-token', '--organization', organization.id, '--scopes', 'invoices:read')
    ).json;
    expect(token).toMatchObject({ token: expect.stringMatching(/^icsi_/), scopes: ['invoices:read'] });
    expect((await call('/v1/invoices', { token: token.token })).status).toBe(200);

    expect((await admin('disable-api-key', '--id', key.id)).json).toEqual({ id: key.id, disabled: true });
    expectError(
      await call('/v1/organization', { token: key.key, organizationId: organization.id }),
      403,
      'token_disabled',
    );
    await admin('disable-ingestion-token', '--id', token.id);
    expectError(await call('/v1/invoices', { token: token.token }), 403, 'token_disabled');
  });

  it('refuses unknown levels and scopes with a clear message', async () => {
    const organization = (await admin('create-organization', '--name', 'CLI Org 2')).json;
    expect(
      (await admin('create-ingestion-token', '--organization', organization.id, '--scopes', 'everything')).json.error,
    ).toContain('scopes must be');
    expect(
      (await admin('add-member', '--organization', organization.id, '--email', 'x@example.test', '--role', 'owner'))
        .json.error,
    ).toContain('level/role must be');
  });
});
