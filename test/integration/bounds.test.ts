import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { createSession } from '../../src/auth/sessions.js';
import { expectError } from '../support/api.js';
import { alertOn, claimSetup, createClaim } from '../support/claims.js';
import { startOwnApi, type OwnApi } from '../support/own-api.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

// Limits that keep one client or one slow party from holding the service's resources, tried over
// HTTP against the real stack (docs/security.md, "Bounds"). Each test that needs a small limit
// starts an API instance of its own with that setting.

async function ownCall(api: OwnApi, tenant: Tenant, path: string, init: RequestInit = {}) {
  return fetch(`${api.url}${path}`, {
    ...init,
    headers: {
      Authorization: `Bearer ${tenant.apiKey}`,
      'X-Organization-Id': tenant.organizationId,
      'Content-Type': 'application/json',
      ...(init.headers ?? {}),
    },
  });
}

async function errorOf(response: Response) {
  const body = (await response.json()) as { error: { code: string; message: string; request_id: string } };
  return { status: response.status, headers: response.headers, body };
}

describe('bounds', () => {
  it('cancels a statement at DATABASE_STATEMENT_TIMEOUT_SECONDS: a request stuck behind a lock is 503 with Retry-After and changes nothing', async () => {
    const tenant = await createTenant();
    const agreement = (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Locked' } })).body;
    const api = await startOwnApi({ DATABASE_STATEMENT_TIMEOUT_SECONDS: '1' });
    // A transaction of the test's own holds the agreement's row, as a long job would.
    const holder = new pg.Client({ connectionString: inject('stackEnv').DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM agreements WHERE id = $1 FOR UPDATE', [agreement.id]);
      const started = Date.now();
      const response = await ownCall(api, tenant, `/v1/agreements/${agreement.id}`, {
        method: 'PATCH',
        body: JSON.stringify({ title: 'Changed' }),
      });
      const elapsed = Date.now() - started;
      const refused = await errorOf(response);
      expectError(refused, 503, 'service_unavailable');
      expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      // Cancelled by the server at the statement's deadline, long before the transaction's own (20 s).
      expect(elapsed).toBeLessThan(10_000);
      // Reads that take no lock are untouched.
      expect((await ownCall(api, tenant, `/v1/agreements/${agreement.id}`)).status).toBe(200);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
      await api.stop();
    }
    expect((await tenant.call(`/v1/agreements/${agreement.id}`)).body.title).toBe('Locked');
  });

  it('spends a signed-in browser session from the same request budget as its bearer: the application is no way around it', async () => {
    const tenant = await createTenant();
    const api = await startOwnApi({
      RATE_LIMIT_REQUESTS: '4',
      RATE_LIMIT_WINDOW_SECONDS: '60',
      RATE_LIMIT_STORE: 'memory',
    });
    try {
      const lifetime = { SESSION_IDLE_HOURS: 12, SESSION_MAX_DAYS: 30 };
      const { token } = await createSession(testDb(), lifetime, {
        userId: tenant.userId,
        organizationId: tenant.organizationId,
      });
      const page = () =>
        fetch(`${api.url}/app/invoices`, { headers: { Cookie: `ics_session=${token}` }, redirect: 'manual' });
      // Two pages and two API calls with the session's bearer spend its four requests.
      expect((await page()).status).toBe(200);
      expect((await fetch(`${api.url}/v1/me`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
      expect((await page()).status).toBe(200);
      expect((await fetch(`${api.url}/v1/me`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
      const refusedPage = await page();
      expect(refusedPage.status).toBe(429);
      expect(refusedPage.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await refusedPage.text()).toContain('rate_limit_exceeded');
      expectError(
        await errorOf(await fetch(`${api.url}/v1/me`, { headers: { Authorization: `Bearer ${token}` } })),
        429,
        'rate_limit_exceeded',
      );
      // Another session of the same person has a budget of its own.
      const other = (
        await createSession(testDb(), lifetime, { userId: tenant.userId, organizationId: tenant.organizationId })
      ).token;
      expect(
        (await fetch(`${api.url}/app/invoices`, { headers: { Cookie: `ics_session=${other}` }, redirect: 'manual' }))
          .status,
      ).toBe(200);
      // Signed out, nothing is spent: the visitor is sent to sign in.
      expect((await fetch(`${api.url}/app/invoices`, { redirect: 'manual' })).status).toBe(302);
    } finally {
      await api.stop();
    }
  });

  it('streams claim XLSX and CSV exports and refuses a claim beyond CLAIM_EXPORT_MAX_LINES with 409', async () => {
    const tenant = await createTenant();
    const { agreementId, invoices } = await claimSetup(tenant, [{ number: 'B-1' }, { number: 'B-2' }]);
    const alerts = [
      await alertOn(tenant, invoices[0]!.id, agreementId, { impact_amount: '10.00' }),
      await alertOn(tenant, invoices[1]!.id, agreementId, { impact_amount: '20.00' }),
      await alertOn(tenant, invoices[1]!.id, agreementId, { impact_amount: '30.00' }),
    ];
    const claim = await createClaim(tenant, { agreement_id: agreementId, alerts: { alert_ids: alerts } });
    const api = await startOwnApi({ CLAIM_EXPORT_MAX_LINES: '2' });
    try {
      for (const format of ['xlsx', 'csv']) {
        const refused = await errorOf(await ownCall(api, tenant, `/v1/claims/${claim.id}/export?format=${format}`));
        expectError(refused, 409, 'claim_too_large_for_export');
        expect(refused.body.error.message).toContain('more than 2 lines');
      }
      // The PDF keeps its own limit (2,000 lines): three lines are fine.
      expect((await ownCall(api, tenant, `/v1/claims/${claim.id}/export?format=pdf`)).status).toBe(200);
    } finally {
      await api.stop();
    }

    // Within the limit (the stack's 50,000): streamed (chunked, no length known in advance) and whole.
    const xlsx = await fetch(`${inject('apiUrl')}/v1/claims/${claim.id}/export?format=xlsx`, {
      headers: { Authorization: `Bearer ${tenant.apiKey}`, 'X-Organization-Id': tenant.organizationId },
    });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('transfer-encoding')).toBe('chunked');
    expect(xlsx.headers.get('content-length')).toBeNull();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(await xlsx.arrayBuffer()).buffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      'Claim lines',
      'Totals',
      'Refunds received',
      'Claim',
    ]);
    expect(workbook.getWorksheet('Claim lines')!.rowCount).toBe(4);
    expect(workbook.getWorksheet('Totals')!.getRow(2).getCell(2).value).toBe(60);

    const csv = await fetch(`${inject('apiUrl')}/v1/claims/${claim.id}/export?format=csv`, {
      headers: { Authorization: `Bearer ${tenant.apiKey}`, 'X-Organization-Id': tenant.organizationId },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('transfer-encoding')).toBe('chunked');
    const rows: string[][] = parse(Buffer.from(await csv.arrayBuffer()), { bom: true });
    expect(rows).toHaveLength(4);
    expect(
      rows
        .slice(1)
        .map((row) => row.find((cell) => alerts.includes(cell)))
        .sort(),
    ).toEqual([...alerts].sort());
  });
});
