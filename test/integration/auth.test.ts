import { describe, expect, it } from 'vitest';
import { disableApiKey, disableIngestionToken } from '../../src/admin/service.js';
import { call, expectError } from '../support/api.js';
import { createTenant, keyFor, testDb } from '../support/tenants.js';

describe('authentication', () => {
  it('rejects a request without a bearer token with invalid_token', async () => {
    expectError(await call('/v1/organization'), 401, 'invalid_token');
  });

  it('rejects an unknown token with invalid_token', async () => {
    expectError(await call('/v1/organization', { token: 'icsk_not-a-real-key' }), 401, 'invalid_token');
    expectError(await call('/v1/organization', { token: 'garbage' }), 401, 'invalid_token');
  });

  it('rejects a disabled key and a disabled ingestion token with token_disabled', async () => {
    const tenant = await createTenant();
    const keyId = (await testDb().apiKey.findFirstOrThrow({ where: { userId: tenant.userId } })).id;
    await disableApiKey(testDb(), keyId);
    expectError(await tenant.call('/v1/organization'), 403, 'token_disabled');

    const other = await createTenant();
    const tokenRow = await testDb().ingestionToken.findFirstOrThrow({
      where: { organizationId: other.organizationId },
    });
    await disableIngestionToken(testDb(), tokenRow.id);
    expectError(await call('/v1/workflow-runs', { token: other.ingestionToken }), 403, 'token_disabled');
  });

  it('lets GET /v1/organizations work without an organization header', async () => {
    const tenant = await createTenant({ name: 'Alpha Org' });
    const response = await call('/v1/organizations', { token: tenant.apiKey });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      { id: tenant.organizationId, name: 'Alpha Org', role: 'admin', currency_code: 'EUR' },
    ]);
    expect(response.body.next_cursor).toBeNull();
  });

  it("uses a key's own organization when the header is omitted, and refuses organizations the owner is not in", async () => {
    const tenant = await createTenant();
    const stranger = await createTenant();
    const implicit = await call('/v1/organization', { token: tenant.apiKey });
    expect(implicit.body.id).toBe(tenant.organizationId);
    expectError(
      await call('/v1/organization', { token: tenant.apiKey, organizationId: stranger.organizationId }),
      403,
      'organization_not_accessible',
    );
    expectError(
      await call('/v1/organization', { token: tenant.apiKey, organizationId: 'not-a-uuid' }),
      400,
      'validation_error',
    );
  });

  it('keeps ingestion tokens to the Ingestion API', async () => {
    const tenant = await createTenant();
    expectError(await call('/v1/workflow-runs', { token: tenant.ingestionToken }), 403, 'insufficient_scope');
    expectError(await call('/v1/members', { token: tenant.ingestionToken }), 403, 'insufficient_scope');
  });
});

describe('levels', () => {
  it('lets a read key read but not write', async () => {
    const tenant = await createTenant();
    const readKey = await keyFor(tenant, 'read');
    const read = await call('/v1/workflow-runs', { token: readKey, organizationId: tenant.organizationId });
    expect(read.status).toBe(200);
    const cancel = await call(`/v1/workflow-runs/${crypto.randomUUID()}/cancel`, {
      method: 'POST',
      token: readKey,
      organizationId: tenant.organizationId,
    });
    expectError(cancel, 403, 'insufficient_level');
  });

  it('caps a key at its owner role', async () => {
    // An admin key whose owner was later demoted to read acts at read.
    const tenant = await createTenant({ role: 'admin', keyLevel: 'admin' });
    await testDb().membership.update({
      where: { organizationId_userId: { organizationId: tenant.organizationId, userId: tenant.userId } },
      data: { role: 'read' },
    });
    const organization = await tenant.call('/v1/organization');
    expect(organization.body).toMatchObject({
      role: 'read',
      key_level: 'admin',
      level: 'read',
      can: { read: true, write: false, admin: false },
    });
    expectError(
      await tenant.call(`/v1/workflow-runs/${crypto.randomUUID()}/retry`, { method: 'POST' }),
      403,
      'insufficient_level',
    );
  });
});

describe('me and members', () => {
  it('tells who the key belongs to', async () => {
    const tenant = await createTenant();
    const me = await tenant.call('/v1/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      id: tenant.userId,
      user_id: tenant.userId,
      organization_id: tenant.organizationId,
      role: 'admin',
    });
    expect(me.headers.get('etag')).toMatch(/^"[\w-]+"$/);
  });

  it('pages members with a cursor and selects fields', async () => {
    const tenant = await createTenant();
    const { addMember } = await import('../../src/admin/service.js');
    for (let i = 0; i < 4; i++) {
      await addMember(testDb(), {
        organizationId: tenant.organizationId,
        email: `member${i}-${tenant.organizationId}@example.test`,
        role: 'read',
      });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await tenant.call(
        `/v1/members?limit=2&fields=email${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.status).toBe(200);
      for (const member of page.body.data) {
        expect(Object.keys(member).sort()).toEqual(['email', 'id']);
        seen.push(member.id);
      }
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
  });
});
