import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTenant } from '../support/tenants.js';

describe('the stack', () => {
  it('is ready: database, Temporal and storage answer', async () => {
    const response = await call('/readyz');
    expect(response.status).toBe(200);
    expect(response.body.checks).toEqual({ database: 'ok', temporal: 'ok', storage: 'ok' });
  });

  it('serves the organization of an API key', async () => {
    const tenant = await createTenant();
    const response = await tenant.call('/v1/organization');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: tenant.organizationId,
      level: 'admin',
      can: { read: true, write: true, admin: true },
    });
  });
});
