import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, eventually } from '../support/api.js';
import { ingestionUpload, settledIngestionInvoice } from '../support/invoices.js';
import { largePeppolInvoice, priceItemEntries, smallPeppolInvoice } from '../support/large-invoice.js';
import { testTemporal } from '../support/runs.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

// Failures are honest and safe: what the customer reads says what failed, with a stable code and
// a message written for them, and never the server's paths, source, SQL or library text.

const INTERNALS = /\/work\/|\/src\/|\.ts:\d|invocation|prisma|SELECT|INSERT|compliance_checks|forced for test|P0001/i;

async function supplierAgreement(tenant: Tenant) {
  const first = await ingestionUpload(
    tenant.ingestionToken,
    'first.xml',
    smallPeppolInvoice(`FIRST-${randomUUID().slice(0, 8)}`),
  );
  expect(first.status).toBe(201);
  await settledIngestionInvoice(tenant.ingestionToken, first.body.invoice_id);
  const supplierId = (await tenant.call(`/v1/invoices/${first.body.invoice_id}`)).body.supplier.id;
  const agreement = await tenant.call('/v1/agreements', {
    method: 'POST',
    body: {
      title: 'Supplies 2026',
      status: 'active',
      supplier_ids: [supplierId],
      effective_date: '2026-01-01',
      expiration_date: '2026-12-31',
    },
  });
  expect(agreement.status).toBe(201);
  const items = await tenant.call(`/v1/agreements/${agreement.body.id}/price-items`, {
    method: 'POST',
    body: { entries: priceItemEntries(0, 10) },
  });
  expect(items.status).toBe(201);
  return agreement.body.id as string;
}

// A trigger on `table` for this organization's rows only, fired `when` (BEFORE INSERT, ...) and
// running `body` (PL/pgSQL); returns what drops it again.
async function organizationTrigger(
  organizationId: string,
  name: string,
  { when, table, body }: { when: string; table: string; body: string },
): Promise<() => Promise<void>> {
  const db = testDb();
  await db.$executeRawUnsafe(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} END $$`);
  await db.$executeRawUnsafe(
    `CREATE TRIGGER ${name} ${when} ON ${table} FOR EACH ROW WHEN (NEW.organization_id = '${organizationId}'::uuid) EXECUTE FUNCTION ${name}()`,
  );
  return async () => {
    await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS ${name} ON ${table}`);
    await db.$executeRawUnsafe(`DROP FUNCTION IF EXISTS ${name}()`);
  };
}

// A real PostgreSQL error inside the check's transaction, for this organization only: what a
// broken statement or a database bug looks like to the service.
function failChecksOf(organizationId: string): Promise<() => Promise<void>> {
  return organizationTrigger(organizationId, `fail_checks_${organizationId.replaceAll('-', '')}`, {
    when: 'BEFORE INSERT OR UPDATE',
    table: 'compliance_checks',
    body: "RAISE EXCEPTION 'forced for test';",
  });
}

// Holds the import of this organization's invoices before it stores anything: a new supplier's
// insert (the first write of a parsed invoice, outside the transaction that stores it) waits on
// an advisory lock the test holds, in a transaction of its own, until `release`. `blocked` resolves
// once an insert waits on it: only then has the import reached its first write, so a termination
// after it always comes first. Before it, a slow parse could reach that write after the read had
// settled the invoice failed, and rightly store nothing at all.
async function holdSupplierInserts(
  organizationId: string,
): Promise<{ blocked: () => Promise<void>; release: () => Promise<void> }> {
  const name = `hold_suppliers_${organizationId.replaceAll('-', '')}`;
  const key = `hashtext('${name}')`;
  const db = testDb();
  const drop = await organizationTrigger(organizationId, name, {
    when: 'BEFORE INSERT',
    table: 'suppliers',
    body: `PERFORM pg_advisory_xact_lock_shared(${key}); RETURN NEW;`,
  });
  let letGo!: () => void;
  const released = new Promise<void>((resolve) => (letGo = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const transaction = db.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${key})`);
      held();
      await released;
    },
    { timeout: 120_000 },
  );
  await holding;
  let done = false;
  return {
    blocked: async () => {
      await eventually(
        () =>
          // Only this organization's supplier inserts wait on an advisory lock in the INSERT itself.
          db.$queryRawUnsafe<{ waiting: number }[]>(
            `SELECT count(*)::int AS waiting FROM pg_stat_activity
              WHERE wait_event_type = 'Lock' AND wait_event = 'advisory' AND query ILIKE 'INSERT%suppliers%'`,
          ),
        (rows) => rows[0]!.waiting > 0,
        60_000,
      );
    },
    release: async () => {
      if (done) return;
      done = true;
      letGo();
      await transaction;
      await drop();
    },
  };
}

describe('failures', () => {
  it('a check that fails inside the database shows a stable code and no internals through both APIs, at once', async () => {
    const tenant = await createTenant();
    await supplierAgreement(tenant);
    const restore = await failChecksOf(tenant.organizationId);
    try {
      const started = Date.now();
      const upload = await ingestionUpload(
        tenant.ingestionToken,
        'invoice.xml',
        largePeppolInvoice({ number: `FAIL-${randomUUID().slice(0, 8)}`, lines: 20, items: 10 }).bytes,
      );
      expect(upload.status).toBe(201);
      const invoiceId = upload.body.invoice_id;
      const settled = await settledIngestionInvoice(tenant.ingestionToken, invoiceId);
      // Deterministic: failed at the first attempt, not after ten retries over minutes.
      expect(Date.now() - started).toBeLessThan(20_000);

      expect(settled.body.processing).toMatchObject({ status: 'completed', failure: null });
      expect(settled.body.alerts.processing).toMatchObject({
        status: 'failed',
        failure: { code: 'internal_error', message: expect.any(String) },
      });
      expect(JSON.stringify(settled.body)).not.toMatch(INTERNALS);

      const invoice = (await tenant.call(`/v1/invoices/${invoiceId}`)).body;
      expect(invoice.workflows).toMatchObject({
        settled: true,
        alert_check: { status: 'failed', failure: { code: 'internal_error' } },
      });
      expect(JSON.stringify(invoice)).not.toMatch(INTERNALS);

      const invoiceImport = await testDb().invoiceImport.findFirstOrThrow({ where: { invoiceId } });
      const read = (await tenant.call(`/v1/invoices/imports/${invoiceImport.id}`)).body;
      expect(read).toMatchObject({ status: 'failed', failure: { code: 'internal_error' } });
      const run = (await tenant.call(`/v1/workflow-runs/${invoiceImport.workflowRunId}`)).body;
      const items = (await tenant.call(`/v1/workflow-runs/${invoiceImport.workflowRunId}/items`)).body;
      expect(items.data).toEqual([
        expect.objectContaining({ status: 'failed', failure: expect.objectContaining({ code: 'internal_error' }) }),
      ]);
      expect(JSON.stringify([read, run, items])).not.toMatch(INTERNALS);
    } finally {
      await restore();
    }
  });

  it('an invoice whose import workflow is terminated does not stay processing: reading it settles it', async () => {
    const tenant = await createTenant();
    // The import cannot store the invoice until the test lets it: it is terminated first, always.
    const hold = await holdSupplierInserts(tenant.organizationId);
    try {
      const upload = await ingestionUpload(
        tenant.ingestionToken,
        'invoice.xml',
        smallPeppolInvoice(`TERM-${randomUUID().slice(0, 8)}`),
      );
      expect(upload.status).toBe(201);
      const invoiceId = upload.body.invoice_id;
      const invoiceImport = await testDb().invoiceImport.findFirstOrThrow({ where: { invoiceId } });
      await hold.blocked();
      await (
        await testTemporal()
      ).workflow
        .getHandle(invoiceImport.workflowRunId)
        .terminate('test: an operator stops the import');

      // Reads reconcile an unsettled invoice from 10 s after its upload on (before, it is one query).
      const read = await eventually(
        () => call(`/v1/invoices/${invoiceId}`, { token: tenant.ingestionToken }),
        (r) => r.body?.processing?.status !== 'processing' && r.body?.processing?.status !== 'pending',
        40_000,
      );
      expect(read.status).toBe(200);
      expect(read.body.processing).toMatchObject({
        status: 'failed',
        failure: { code: 'workflow_terminated', message: expect.any(String) },
      });
      expect(read.headers.get('retry-after')).toBeNull();
      expect((await tenant.call(`/v1/invoices/${invoiceId}`)).body.workflows.settled).toBe(true);
      const importRead = (await tenant.call(`/v1/invoices/imports/${invoiceImport.id}`)).body;
      expect(importRead).toMatchObject({ status: 'failed', failure: { code: 'workflow_terminated' } });

      // The import's worker, let go, must not store the invoice now: it stays failed.
      await hold.release();
      await eventually(
        () => testDb().supplier.count({ where: { organizationId: tenant.organizationId } }),
        (count) => count > 0,
      );
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const later = await call(`/v1/invoices/${invoiceId}`, { token: tenant.ingestionToken });
      expect(later.body.processing).toMatchObject({ status: 'failed', failure: { code: 'workflow_terminated' } });
      expect(await testDb().invoiceLine.count({ where: { invoiceId } })).toBe(0);
    } finally {
      await hold.release();
    }
  });
});
