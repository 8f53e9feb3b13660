import { describe, expect, it } from 'vitest';
import { createIngestionToken, updateOrganizationSettings } from '../../src/admin/service.js';
import { EHF_SAMPLES, FACTUR_X_SAMPLES, FINVOICE_SAMPLES, PEPPOL_SAMPLES } from '../fixtures/sample-expectations.js';
import { call, expectError } from '../support/api.js';
import { ingestionUpload, sample, settledIngestionInvoice } from '../support/invoices.js';
import { createTenant, testDb } from '../support/tenants.js';

const allSamples = [...PEPPOL_SAMPLES, ...EHF_SAMPLES, ...FINVOICE_SAMPLES, ...FACTUR_X_SAMPLES];

describe('Ingestion API uploads', () => {
  it('imports every sample e-invoice with the values of its README', async () => {
    const tenant = await createTenant();
    const uploads = [];
    for (const expected of allSamples) {
      const response = await ingestionUpload(
        tenant.ingestionToken,
        expected.file.split('/').pop()!,
        sample(expected.file),
      );
      expect(response.status, `${expected.file}: ${JSON.stringify(response.body)}`).toBe(201);
      expect(response.headers.get('location')).toBe(`/v1/invoices/${response.body.invoice_id}`);
      uploads.push({ expected, invoiceId: response.body.invoice_id as string });
    }
    for (const { expected, invoiceId } of uploads) {
      const settled = await settledIngestionInvoice(tenant.ingestionToken, invoiceId);
      expect(settled.body.processing, expected.file).toMatchObject({
        status: 'completed',
        classification: expected.documentType,
        failure: null,
      });
      expect(settled.headers.get('retry-after')).toBeNull();
      const invoice = (await tenant.call(`/v1/invoices/${invoiceId}`)).body;
      expect(
        {
          number: invoice.invoice_number,
          type: invoice.document_type,
          date: invoice.issue_date,
          currency: invoice.amounts.currency_code,
          supplier: invoice.supplier.invoiced_as.name,
          lines: invoice.line_items.length,
        },
        expected.file,
      ).toEqual({
        number: expected.number,
        type: expected.documentType,
        date: expected.issueDate,
        currency: expected.currency,
        supplier: expected.supplier,
        lines: expected.lines,
      });
      expect(Number(invoice.amounts.including_vat), expected.file).toBe(Number(expected.taxInclusive));
      if (expected.payable !== null)
        expect(Number(invoice.amounts.payable), expected.file).toBe(Number(expected.payable));
    }
  });

  it('answers a repeated file with 409 and the existing invoice; a deleted original locks it until removed for good', async () => {
    const tenant = await createTenant();
    const bytes = sample('peppol-bis3/peppol-vat-category-Z.xml');
    const first = await ingestionUpload(tenant.ingestionToken, 'z.xml', bytes);
    expect(first.status).toBe(201);
    const repeat = await ingestionUpload(tenant.ingestionToken, 'z.xml', bytes);
    expectError(repeat, 409, 'conflict');
    expect(repeat.body.existing_invoice_id).toBe(first.body.invoice_id);

    await settledIngestionInvoice(tenant.ingestionToken, first.body.invoice_id);
    expect((await tenant.call(`/v1/invoices/${first.body.invoice_id}`, { method: 'DELETE' })).status).toBe(204);
    expectError(await tenant.call(`/v1/invoices/${first.body.invoice_id}`), 404, 'not_found');
    const locked = await ingestionUpload(tenant.ingestionToken, 'z.xml', bytes);
    expectError(locked, 409, 'primary_md5_locked_by_deleted_invoice');
    expect(locked.body.existing_invoice_id).toBe(first.body.invoice_id);

    expect(
      (await tenant.call(`/v1/invoices/${first.body.invoice_id}?permanent=true`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect((await ingestionUpload(tenant.ingestionToken, 'z.xml', bytes)).status).toBe(201);
  });

  it('records an upload with its documents, import and run together, also under a processing capacity', async () => {
    const tenant = await createTenant();
    await updateOrganizationSettings(testDb(), tenant.organizationId, { invoiceProcessingCapacity: 5 });
    const upload = await ingestionUpload(
      tenant.ingestionToken,
      'base.xml',
      sample('peppol-bis3/peppol-base-example.xml'),
    );
    expect(upload.status).toBe(201);
    expect((await settledIngestionInvoice(tenant.ingestionToken, upload.body.invoice_id)).body.processing.status).toBe(
      'completed',
    );
    const invoiceImport = await testDb().invoiceImport.findFirstOrThrow({
      where: { invoiceId: upload.body.invoice_id },
    });
    const run = await tenant.call(`/v1/workflow-runs/${invoiceImport.workflowRunId}`);
    expect(run.body).toMatchObject({
      type: 'import',
      status: 'completed',
      owner: { type: 'invoice_import', id: invoiceImport.id },
    });
    expect(await testDb().document.count({ where: { organizationId: tenant.organizationId } })).toBe(1);
  });

  it('keeps a semantic duplicate (another file, same invoice) but does not count it as spend', async () => {
    const tenant = await createTenant();
    const original = sample('peppol-bis3/peppol-vat-category-E.xml');
    const resent = Buffer.concat([original, Buffer.from('\n<!-- sent again -->\n')]);
    const a = await ingestionUpload(tenant.ingestionToken, 'e.xml', original);
    await settledIngestionInvoice(tenant.ingestionToken, a.body.invoice_id);
    const b = await ingestionUpload(tenant.ingestionToken, 'e-again.xml', resent);
    expect(b.status).toBe(201);
    const settled = await settledIngestionInvoice(tenant.ingestionToken, b.body.invoice_id);
    expect(settled.body.duplicate_of_invoice_id).toBe(a.body.invoice_id);
    const metrics = await tenant.call('/v1/invoices/metrics');
    expect(metrics.body.counts).toMatchObject({ total: 2, duplicates: 1 });
    expect(metrics.body.spend).toEqual([
      {
        currency_code: 'GBP',
        invoiced: '1200.00',
        credited: '0.00',
        net: '1200.00',
        invoice_count: 1,
        credit_note_count: 0,
      },
    ]);
  });

  it('shows a file that is no invoice as failed processing classified not_invoice', async () => {
    const tenant = await createTenant();
    const upload = await ingestionUpload(
      tenant.ingestionToken,
      'manual.pdf',
      sample('pdf-not-invoice/mustang-ZugferdDev.en.pdf'),
    );
    expect(upload.status).toBe(201);
    const settled = await settledIngestionInvoice(tenant.ingestionToken, upload.body.invoice_id);
    expect(settled.body.processing, JSON.stringify(settled.body.processing)).toMatchObject({
      status: 'failed',
      classification: 'not_invoice',
      failure: { code: 'not_invoice' },
    });
    expect(settled.body.alerts.processing.status).toBe('skipped');
  });

  it('answers in the Ingestion shape with Retry-After while processing, and lists with its own paging', async () => {
    const tenant = await createTenant();
    const upload = await ingestionUpload(
      tenant.ingestionToken,
      'base.xml',
      sample('peppol-bis3/peppol-base-example.xml'),
    );
    expect(upload.body).toMatchObject({
      invoice_id: expect.any(String),
      duplicate_of_invoice_id: null,
      processing: { status: expect.stringMatching(/pending|processing|completed/) },
      alerts: { processing: { status: expect.any(String), skip_reason: null }, count: 0 },
      invoice_url: expect.stringContaining(upload.body.invoice_id),
      created_at: expect.any(String),
    });
    const settled = await settledIngestionInvoice(tenant.ingestionToken, upload.body.invoice_id);
    expect(settled.body.invoice_number).toBe('Snippet1');
    expect(settled.body.alerts.processing.status).toBe('skipped');

    for (const file of ['peppol-bis3/peppol-vat-category-S.xml', 'peppol-bis3/peppol-vat-category-O.xml']) {
      expect((await ingestionUpload(tenant.ingestionToken, 'x.xml', sample(file))).status).toBe(201);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await call(`/v1/invoices?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
        token: tenant.ingestionToken,
      });
      expect(page.status).toBe(200);
      expect(page.body.data).toBeUndefined();
      seen.push(...page.body.invoices.map((i: any) => i.invoice_id));
      cursor = page.body.next_cursor;
      if (cursor) expect(cursor.length).toBeLessThanOrEqual(512);
    } while (cursor);
    expect(seen).toHaveLength(3);
    expect(seen[2]).toBe(upload.body.invoice_id);

    const firstPage = await call('/v1/invoices?limit=1', { token: tenant.ingestionToken });
    expectError(
      await call(`/v1/invoices?limit=1&direction=asc&cursor=${encodeURIComponent(firstPage.body.next_cursor)}`, {
        token: tenant.ingestionToken,
      }),
      400,
      'validation_error',
    );
    expectError(await call('/v1/invoices?limit=101', { token: tenant.ingestionToken }), 400, 'validation_error');
    expectError(await call('/v1/invoices?limit=0', { token: tenant.ingestionToken }), 400, 'validation_error');
    // The same path with an API key serves the Organization shape.
    const orgList = await tenant.call('/v1/invoices?limit=1');
    expect(orgList.body.data[0]).toMatchObject({ id: expect.any(String), amounts: expect.any(Object) });
  });

  it('holds tokens to their scopes and organization', async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const readOnly = (
      await createIngestionToken(testDb(), { organizationId: tenant.organizationId, scopes: ['invoices:read'] })
    ).token;
    expectError(
      await ingestionUpload(readOnly, 'a.xml', sample('peppol-bis3/peppol-base-example.xml')),
      403,
      'insufficient_scope',
    );
    const upload = await ingestionUpload(other.ingestionToken, 'a.xml', sample('peppol-bis3/peppol-base-example.xml'));
    expectError(
      await call(`/v1/invoices/${upload.body.invoice_id}`, { token: tenant.ingestionToken }),
      404,
      'not_found',
    );
    expectError(await call(`/v1/invoices/${upload.body.invoice_id}`, { token: readOnly }), 404, 'not_found');
  });

  it('refuses uploads without exactly one primary file', async () => {
    const tenant = await createTenant();
    const form = new FormData();
    form.append('other', new Blob([Buffer.from('x')]), 'x.xml');
    const { inject } = await import('vitest');
    const response = await fetch(`${inject('apiUrl')}/v1/invoices/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tenant.ingestionToken}` },
      body: form,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('validation_error');
    expect(await testDb().invoice.count({ where: { organizationId: tenant.organizationId } })).toBe(0);
  });
});
