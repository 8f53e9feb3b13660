import { describe, expect, it } from 'vitest';
import { addMember, createOrganization } from '../../src/admin/service.js';
import { createPasswordLink } from '../../src/auth/passwords.js';
import { createSession, revokeSession } from '../../src/auth/sessions.js';
import { call, expectError } from '../support/api.js';
import { createTenant, testDb } from '../support/tenants.js';

// The session bearer (spec, Authentication): the web application's session token authenticates
// API requests as its user in the session's active organization, at the user's role there.

const LIFETIME = { SESSION_IDLE_HOURS: 12, SESSION_MAX_DAYS: 30 };

async function sessionFor(userId: string, organizationId: string) {
  return (await createSession(testDb(), LIFETIME, { userId, organizationId })).token;
}

describe('session bearer', () => {
  it('acts as the user in the active organization at their role, with no key', async () => {
    const tenant = await createTenant({ role: 'write' });
    const token = await sessionFor(tenant.userId, tenant.organizationId);
    expect(token.startsWith('icss_')).toBe(true);
    const me = await call('/v1/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      user_id: tenant.userId,
      organization_id: tenant.organizationId,
      role: 'write',
      api_key: null,
    });
    const organization = await call('/v1/organization', { token, organizationId: tenant.organizationId });
    expect(organization.body).toMatchObject({
      id: tenant.organizationId,
      role: 'write',
      level: 'write',
      can: { read: true, write: true, admin: false },
    });
    expect((await call('/v1/organizations', { token })).body.data.map((o: { id: string }) => o.id)).toEqual([
      tenant.organizationId,
    ]);
    // At the role's level: admin operations are refused.
    expectError(
      await call('/v1/integrations', { token, method: 'POST', body: { provider: 's3_inbox', name: 'x' } }),
      403,
      'insufficient_level',
    );
  });

  it('records what a session does as the user, not as a key', async () => {
    const tenant = await createTenant({ role: 'admin' });
    const token = await sessionFor(tenant.userId, tenant.organizationId);
    const created = await call('/v1/agreements', { token, method: 'POST', body: { title: 'Made in a session' } });
    expect(created.status).toBe(201);
    const entry = await testDb().activityEntry.findFirstOrThrow({
      where: { organizationId: tenant.organizationId, entityId: created.body.id },
    });
    expect(entry).toMatchObject({ actorType: 'user', actorUserId: tenant.userId, actorApiKeyId: null });
  });

  it('needs X-Organization-Id, when sent, to be the active organization', async () => {
    const tenant = await createTenant();
    const second = await createOrganization(testDb(), { name: 'Second' });
    const email = (await testDb().user.findUniqueOrThrow({ where: { id: tenant.userId } })).email;
    await addMember(testDb(), { organizationId: second.id, email, role: 'admin' });
    const token = await sessionFor(tenant.userId, tenant.organizationId);
    expect((await call('/v1/organization', { token, organizationId: tenant.organizationId })).status).toBe(200);
    // A member of the other organization too, but the session is not active there.
    expectError(
      await call('/v1/organization', { token, organizationId: second.id }),
      403,
      'organization_not_accessible',
    );
    const stranger = await createTenant();
    expectError(
      await call('/v1/invoices', { token, organizationId: stranger.organizationId }),
      403,
      'organization_not_accessible',
    );
    expectError(await call('/v1/organization', { token, organizationId: 'not-a-uuid' }), 400, 'validation_error');
  });

  it('ends with the session, after the idle time, and with the membership', async () => {
    const tenant = await createTenant();
    const token = await sessionFor(tenant.userId, tenant.organizationId);
    const session = await testDb().userSession.findFirstOrThrow({ where: { userId: tenant.userId } });
    await revokeSession(testDb(), session.id);
    expectError(await call('/v1/me', { token }), 401, 'invalid_token');

    const idle = await sessionFor(tenant.userId, tenant.organizationId);
    await testDb().userSession.updateMany({
      where: { userId: tenant.userId, revokedAt: null },
      data: { lastSeenAt: new Date(Date.now() - 13 * 3_600_000) },
    });
    expectError(await call('/v1/me', { token: idle }), 401, 'invalid_token');

    const other = await createTenant();
    const live = await sessionFor(other.userId, other.organizationId);
    await testDb().membership.delete({
      where: { organizationId_userId: { organizationId: other.organizationId, userId: other.userId } },
    });
    expectError(await call('/v1/me', { token: live }), 403, 'organization_not_accessible');
  });

  it('reads the Organization API like a key, and a password link is no bearer at all', async () => {
    const tenant = await createTenant();
    const token = await sessionFor(tenant.userId, tenant.organizationId);
    const list = await call('/v1/invoices', { token });
    expect(list.status).toBe(200);
    expect(list.body).toHaveProperty('data');
    const link = await createPasswordLink(testDb(), { userId: tenant.userId, appBaseUrl: 'http://localhost/app' });
    const linkToken = new URL(link.url).searchParams.get('token')!;
    expectError(await call('/v1/me', { token: linkToken }), 401, 'invalid_token');
    expectError(await call('/v1/me', { token: 'icss_not-a-session' }), 401, 'invalid_token');
  });
});
