import { describe, expect, inject, it } from 'vitest';
import { call, expectError } from '../support/api.js';
import { createTenant } from '../support/tenants.js';

describe('errors', () => {
  it('answers an unknown path with 404 in the error body, with a request id', async () => {
    const tenant = await createTenant();
    const response = await tenant.call('/v1/no-such-thing');
    expectError(response, 404, 'not_found');
    expect(response.headers.get('x-request-id')).toBe(response.body.error.request_id);
  });

  it('answers a wrong method with 405 in the error body', async () => {
    const tenant = await createTenant();
    expectError(await tenant.call('/v1/members', { method: 'DELETE' }), 405, 'method_not_allowed');
  });

  it('answers malformed JSON with validation_error and changes nothing', async () => {
    const tenant = await createTenant();
    const response = await tenant.call(`/v1/workflow-runs/${crypto.randomUUID()}/cancel`, {
      method: 'POST',
      rawBody: '{"item_ids": [',
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(response, 400, 'validation_error');
  });

  it('refuses bodies over 2 MiB with 413', async () => {
    const tenant = await createTenant();
    const big = JSON.stringify({ item_ids: ['x'.repeat(2 * 1024 * 1024)] });
    const response = await tenant.call(`/v1/workflow-runs/${crypto.randomUUID()}/cancel`, {
      method: 'POST',
      rawBody: big,
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(response, 413, 'payload_too_large');
  });

  it('lists the fields to fix in validation errors', async () => {
    const tenant = await createTenant();
    const response = await tenant.call('/v1/workflow-runs?limit=5000&statuses=bogus');
    expectError(response, 400, 'validation_error');
    const fields = response.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['query.limit', 'query.statuses.0']));
  });

  it('rejects unknown fields names, listing the valid ones', async () => {
    const tenant = await createTenant();
    const response = await tenant.call('/v1/workflow-runs?fields=status,nonsense');
    expectError(response, 400, 'validation_error');
    expect(response.body.error.details.valid_fields).toEqual(
      expect.arrayContaining(['id', 'status', 'progress.total']),
    );
  });

  it('serves health and readiness, and Prometheus metrics on their own port only', async () => {
    expect((await call('/healthz')).status).toBe(200);
    expectError(await call('/metrics'), 404, 'not_found');
    const metrics = await fetch(inject('stackEnv').METRICS_URL!);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('http_request_duration_seconds_bucket');
  });
});

describe('rate limiting', () => {
  it('answers 429 rate_limit_exceeded with Retry-After once a credential spends its budget', async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    // The test stack allows 300 requests a minute per credential.
    const responses = await Promise.all(Array.from({ length: 310 }, () => tenant.call('/v1/me')));
    const limited = responses.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(10);
    expectError(limited[0]!, 429, 'rate_limit_exceeded');
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    // Budgets are per credential: another key is unaffected.
    expect((await other.call('/v1/me')).status).toBe(200);
  });
});
