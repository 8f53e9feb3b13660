import { describe, expect, inject, it } from 'vitest';
import { createImportActivities } from '../../activities/imports.js';
import { updateOrganizationSettings } from '../../src/admin/service.js';
import { createStorage } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config.js';
import { viewImport } from '../../src/invoices/imports.js';
import { call, expectError } from '../support/api.js';
import {
  importDocument,
  ingestionUpload,
  sample,
  settledImport,
  settledIngestionInvoice,
  uploadDocument,
} from '../support/invoices.js';
import { eventually } from '../support/api.js';
import { createTenant, testDb } from '../support/tenants.js';

describe('documents', () => {
  it('registers a file, takes its bytes straight into storage, and tells when they arrived', async () => {
    const tenant = await createTenant();
    const bytes = sample('peppol-bis3/peppol-base-example.xml');
    const registration = await tenant.call('/v1/documents/upload', {
      method: 'POST',
      body: { file_name: 'invoice.xml', mime_type: 'application/xml', file_size: bytes.length },
    });
    expect(registration.status).toBe(201);
    expect(registration.body).toMatchObject({
      document_id: expect.any(String),
      upload_url: expect.stringContaining(tenant.organizationId),
      headers: { 'Content-Type': 'application/xml' },
    });
    expect((await tenant.call(`/v1/documents/${registration.body.document_id}`)).body.uploaded).toBe(false);
    const put = await fetch(registration.body.upload_url, {
      method: 'PUT',
      headers: registration.body.headers,
      body: bytes,
    });
    expect(put.status).toBe(200);
    expect((await tenant.call(`/v1/documents/${registration.body.document_id}`)).body.uploaded).toBe(true);
  });

  it('refuses registrations that cannot be right', async () => {
    const tenant = await createTenant();
    const register = (body: object) => tenant.call('/v1/documents/upload', { method: 'POST', body });
    expectError(
      await register({ file_name: 'a.pdf', mime_type: 'application/pdf', file_size: 0 }),
      400,
      'validation_error',
    );
    expectError(
      await register({ file_name: 'a.bin', mime_type: 'not a media type', file_size: 10 }),
      400,
      'validation_error',
    );
    expectError(
      await register({ file_name: 'a.bin', mime_type: 'application/', file_size: 10 }),
      400,
      'validation_error',
    );
    expectError(
      await register({ file_name: 'a.pdf', mime_type: 'application/pdf', file_size: 5_000_000_000 }),
      400,
      'validation_error',
    );
    expectError(
      await register({ file_name: '', mime_type: 'application/pdf', file_size: 10 }),
      400,
      'validation_error',
    );
    expect(await testDb().document.count({ where: { organizationId: tenant.organizationId } })).toBe(0);
  });
});

describe('invoice imports', () => {
  it('imports a Peppol invoice with its values, supplier and lines, then finds the same file a duplicate', async () => {
    const tenant = await createTenant();
    const documentId = await uploadDocument(tenant, 'base-example.xml', sample('peppol-bis3/peppol-base-example.xml'));
    const started = await importDocument(tenant, documentId);
    expect(started.status).toBe(202);
    expect(started.headers.get('location')).toBe(`/v1/invoices/imports/${started.body.id}`);
    expect(['queued', 'running', 'completed']).toContain(started.body.status);
    const done = await settledImport(tenant, started.body.id);
    expect(done).toMatchObject({
      status: 'completed',
      outcome: 'imported',
      failure: null,
      workflow_run_id: started.body.workflow_run_id,
    });

    // A read of the import's row just before its run ended (a poll racing the workflow's end)
    // answers with the outcome the run wrote, never "completed" without an outcome or invoice.
    const row = await testDb().invoiceImport.findUniqueOrThrow({ where: { id: done.id } });
    const readWhileRunning = { ...row, outcome: null, invoiceId: null, finishedAt: null };
    expect(await viewImport({ db: testDb() } as any, readWhileRunning)).toMatchObject({
      status: 'completed',
      outcome: 'imported',
      invoice_id: done.invoice_id,
    });

    const invoice = await tenant.call(`/v1/invoices/${done.invoice_id}`);
    expect(invoice.status).toBe(200);
    expect(invoice.body).toMatchObject({
      invoice_number: 'Snippet1',
      document_type: 'invoice',
      format: 'peppol_bis_3',
      issue_date: '2017-11-13',
      amounts: { currency_code: 'EUR', including_vat: '1656.25', payable: '1656.25', valid: true },
      supplier: { invoiced_as: { name: 'SupplierTradingName Ltd.' } },
      processing: { status: 'completed', classification: 'invoice' },
    });
    expect(invoice.body.line_items).toHaveLength(2);
    expect(invoice.body.url).toContain(done.invoice_id);
    const suppliers = await tenant.call('/v1/suppliers');
    expect(suppliers.body.data.map((s: any) => s.id)).toContain(invoice.body.supplier.id);

    const run = await tenant.call(`/v1/workflow-runs/${done.workflow_run_id}`);
    expect(run.body).toMatchObject({
      type: 'import',
      status: 'completed',
      owner: { type: 'invoice_import', id: done.id },
    });

    const again = await settledImport(
      tenant,
      (
        await importDocument(
          tenant,
          await uploadDocument(tenant, 'again.xml', sample('peppol-bis3/peppol-base-example.xml')),
        )
      ).body.id,
    );
    expect(again).toMatchObject({ status: 'completed', outcome: 'duplicate', invoice_id: done.invoice_id });
    expect(await testDb().invoice.count({ where: { organizationId: tenant.organizationId } })).toBe(1);
  });

  it('classifies a PDF that is no invoice as not_invoice, with the reason', async () => {
    const tenant = await createTenant();
    const documentId = await uploadDocument(
      tenant,
      'order.pdf',
      sample('pdf-not-invoice/mustang-ORDER-X_EX01_ORDER_FULL_DATA-COMFORT.pdf'),
    );
    const done = await settledImport(tenant, (await importDocument(tenant, documentId)).body.id);
    expect(done).toMatchObject({ status: 'completed', outcome: 'not_invoice', invoice_id: null });
    expect(done.classification_reason).toMatch(/order/i);
  });

  it('tells polling clients when the import failed after storing the invoice, so they stop polling', async () => {
    const tenant = await createTenant();
    const upload = await ingestionUpload(
      tenant.ingestionToken,
      'base.xml',
      sample('peppol-bis3/peppol-base-example.xml'),
    );
    await settledIngestionInvoice(tenant.ingestionToken, upload.body.invoice_id);
    const invoiceImport = await testDb().invoiceImport.findFirstOrThrow({
      where: { invoiceId: upload.body.invoice_id },
    });
    // As if the import's match-and-check step had failed for good after the invoice was stored.
    await testDb().invoice.update({
      where: { id: upload.body.invoice_id },
      data: { alertCheckStatus: 'processing', alertCheckSkipReason: null },
    });
    const config = loadConfig({ ...process.env, ...inject('stackEnv') });
    const activities = createImportActivities({ db: testDb(), storage: createStorage(config) });
    await activities.failImport(invoiceImport.id, { code: 'import_failed', message: 'matching failed' });
    await activities.failImport(invoiceImport.id, { code: 'import_failed', message: 'matching failed' });

    const read = await call(`/v1/invoices/${upload.body.invoice_id}`, { token: tenant.ingestionToken });
    expect(read.body.processing.status).toBe('completed');
    expect(read.body.alerts.processing).toEqual({
      status: 'failed',
      skip_reason: null,
      failure: { code: 'import_failed', message: 'matching failed' },
    });
    expect(read.body.alerts.result).toBe('incomplete');
    expect(read.headers.get('retry-after')).toBeNull();
  });

  it('fails an unreadable file with a message, and a retry makes a new linked run', async () => {
    const tenant = await createTenant();
    const documentId = await uploadDocument(tenant, 'broken.xml', Buffer.from('<Invoice><cbc:ID>1</cbc:ID'));
    const done = await settledImport(tenant, (await importDocument(tenant, documentId)).body.id);
    expect(done.status).toBe('failed');
    expect(done.failure.message).toEqual(expect.any(String));
    const retry = await tenant.call(`/v1/workflow-runs/${done.workflow_run_id}/retry`, { method: 'POST' });
    expect(retry.status).toBe(202);
    expect(retry.body.retry_of_run_id).toBe(done.workflow_run_id);
    const retried = await eventually(
      () => tenant.call(`/v1/invoices/imports/${done.id}`),
      (r) => r.body.workflow_run_id === retry.body.id && r.body.status === 'failed',
    );
    expect(retried.body.failure.message).toEqual(expect.any(String));
  });

  it('fails an import for good when the file belongs to a deleted invoice, with the code on the import and its run', async () => {
    const tenant = await createTenant();
    const bytes = sample('peppol-bis3/peppol-vat-category-Z.xml');
    const first = await settledImport(
      tenant,
      (await importDocument(tenant, await uploadDocument(tenant, 'z.xml', bytes))).body.id,
    );
    expect((await tenant.call(`/v1/invoices/${first.invoice_id}`, { method: 'DELETE' })).status).toBe(204);

    const done = await settledImport(
      tenant,
      (await importDocument(tenant, await uploadDocument(tenant, 'z-again.xml', bytes))).body.id,
    );
    expect(done).toMatchObject({
      status: 'failed',
      outcome: null,
      invoice_id: null,
      failure: { code: 'primary_md5_locked_by_deleted_invoice' },
    });
    const run = await tenant.call(`/v1/workflow-runs/${done.workflow_run_id}`);
    expect(run.body).toMatchObject({ status: 'failed', progress: { total: 1, failed: 1 } });
    const items = await tenant.call(`/v1/workflow-runs/${done.workflow_run_id}/items`);
    expect(items.body.data).toEqual([
      expect.objectContaining({
        key: 'invoice',
        status: 'failed',
        failure: expect.objectContaining({ message: expect.stringMatching(/deleted invoice/) }),
      }),
    ]);
  });

  it('refuses imports of documents that are not uploaded, not invoices, or not found', async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const registration = await tenant.call('/v1/documents/upload', {
      method: 'POST',
      body: { file_name: 'x.pdf', mime_type: 'application/pdf', file_size: 100 },
    });
    expectError(await importDocument(tenant, registration.body.document_id), 400, 'validation_error');
    const csv = await uploadDocument(tenant, 'prices.csv', Buffer.from('a,b\n1,2\n'), 'text/csv');
    expectError(await importDocument(tenant, csv), 400, 'validation_error');
    expectError(await importDocument(tenant, crypto.randomUUID()), 404, 'not_found');
    const foreign = await uploadDocument(other, 'base.xml', sample('peppol-bis3/peppol-base-example.xml'));
    expectError(await importDocument(tenant, foreign), 404, 'not_found');
    expectError(await tenant.call(`/v1/documents/${foreign}`), 404, 'not_found');
    expect(await testDb().invoiceImport.count({ where: { organizationId: tenant.organizationId } })).toBe(0);
  });

  it('starts one import per Idempotency-Key', async () => {
    const tenant = await createTenant();
    const documentId = await uploadDocument(tenant, 'base.xml', sample('peppol-bis3/peppol-vat-category-S.xml'));
    const key = { 'Idempotency-Key': `import-${documentId}` };
    const first = await importDocument(tenant, documentId, key);
    const second = await importDocument(tenant, documentId, key);
    expect(second.body.id).toBe(first.body.id);
    expect(await testDb().invoiceImport.count({ where: { organizationId: tenant.organizationId } })).toBe(1);
  });

  it('answers invoice_processing_capacity_exhausted once the capacity is used', async () => {
    const tenant = await createTenant();
    await updateOrganizationSettings(testDb(), tenant.organizationId, { invoiceProcessingCapacity: 1 });
    const a = await uploadDocument(tenant, 'a.xml', sample('peppol-bis3/peppol-vat-category-E.xml'));
    const b = await uploadDocument(tenant, 'b.xml', sample('peppol-bis3/peppol-vat-category-O.xml'));
    expect((await importDocument(tenant, a)).status).toBe(202);
    const refused = await importDocument(tenant, b);
    expectError(refused, 429, 'invoice_processing_capacity_exhausted');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await testDb().invoiceImport.count({ where: { organizationId: tenant.organizationId } })).toBe(1);
  });
});
