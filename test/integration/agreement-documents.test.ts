import { describe, expect, it } from 'vitest';
import { eventually, expectError } from '../support/api.js';
import { uploadDocument } from '../support/invoices.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';
import { buildDocx, MIME, wordParagraphs } from '../unit/agreements/documents/extraction/fixtures.js';

const TERMS = [
  'Rammeavtale om levering av kontorrekvisita mellom Kontorhuset AS og Kunden AS.',
  'Partene er enige om at leverandøren leverer varer i henhold til vilkårene i denne avtalen. Oppsigelse skal skje skriftlig med tre måneders varsel.',
  'Mislighold av avtalen gir kunden rett til å heve avtalen. Avtalen reguleres av norsk rett.',
];
const PRICE_LIST = [
  'Artikkelnummer;Beskrivelse;Enhet;Pris',
  'P-A4;Kopipapir A4;pk;42,50',
  'T-1;Toner sort;stk;615,00',
  'S-2;Stiftemaskin;stk;129,00',
].join('\n');

async function agreementOf(tenant: Tenant, title = 'Kontorrekvisita'): Promise<string> {
  return (await tenant.call('/v1/agreements', { method: 'POST', body: { title } })).body.id;
}

async function settledRun(tenant: Tenant, runId: string) {
  return (
    await eventually(
      () => tenant.call(`/v1/workflow-runs/${runId}`),
      (r) => !['queued', 'running'].includes(r.body.status),
      60_000,
    )
  ).body;
}

async function importDocuments(
  tenant: Tenant,
  agreementId: string,
  documentIds: string[],
  headers: Record<string, string> = {},
) {
  return tenant.call(`/v1/agreements/${agreementId}/document-imports`, {
    method: 'POST',
    body: { entries: documentIds.map((id) => ({ document_id: id })) },
    headers,
  });
}

describe('agreement document imports', () => {
  it('classifies and indexes each file in one run; a file that cannot be read fails alone; readiness waits for processing', async () => {
    const tenant = await createTenant();
    const agreementId = await agreementOf(tenant);
    const docx = await uploadDocument(
      tenant,
      'leveransevilkår.docx',
      Buffer.from(await buildDocx(wordParagraphs(TERMS))),
      MIME.docx,
    );
    const csv = await uploadDocument(tenant, 'artikler.csv', Buffer.from(PRICE_LIST, 'utf8'), MIME.csv);
    const broken = await uploadDocument(tenant, 'kontrakt.pdf', Buffer.from('this is not a PDF at all'), MIME.pdf);

    const started = await importDocuments(tenant, agreementId, [docx, csv, broken]);
    expect(started.status).toBe(202);
    expect(started.headers.get('location')).toBe(`/v1/workflow-runs/${started.body.workflow_run_id}`);
    expect(started.body.data.map((d: any) => [d.document_id, d.status, d.reused, d.classification])).toEqual([
      [docx, 'queued', false, null],
      [csv, 'queued', false, null],
      [broken, 'queued', false, null],
    ]);
    const processing = (await tenant.call(`/v1/agreements/${agreementId}`)).body;
    expect(processing.readiness.missing).toContain('documents_processing');

    const run = await settledRun(tenant, started.body.workflow_run_id);
    expect(run).toMatchObject({ status: 'completed_with_errors', progress: { total: 3, completed: 2, failed: 1 } });
    const items = (await tenant.call(`/v1/workflow-runs/${run.id}/items`)).body.data;
    expect(items.find((i: any) => i.status === 'failed').failure.message).toMatch(/PDF/);

    const list = (await tenant.call(`/v1/agreements/${agreementId}/documents`)).body;
    const byId = Object.fromEntries(list.data.map((d: any) => [d.document_id, d]));
    expect(byId[docx]).toMatchObject({
      status: 'completed',
      classification: 'terms',
      classified_by: 'automatic',
      file_name: 'leveransevilkår.docx',
      failure: null,
    });
    expect(byId[docx].classification_reason).toMatch(/contract words/);
    expect(byId[docx].search_index).toMatchObject({ status: 'completed', partial: false });
    expect(byId[docx].search_index.passage_count).toBeGreaterThan(0);
    expect(byId[csv]).toMatchObject({
      status: 'completed',
      classification: 'price_list',
      classification_confidence: 'high',
    });
    expect(byId[broken]).toMatchObject({ status: 'failed', failure: { code: 'unreadable' } });
    expect(byId[broken].search_index).toMatchObject({ status: 'failed', passage_count: 0 });

    const ready = (await tenant.call(`/v1/agreements/${agreementId}`)).body;
    expect(ready.readiness.missing).not.toContain('documents_processing');
    // A terms document that was read gives checks usable terms.
    expect(ready.readiness.missing).not.toContain('usable_terms');
    const filtered = (await tenant.call(`/v1/agreements/${agreementId}/documents?classifications=price_list`)).body
      .data;
    expect(filtered.map((d: any) => d.document_id)).toEqual([csv]);
  });

  it("lets the user change a classification, which outdates the agreement's checks; a later import keeps it", async () => {
    const tenant = await createTenant();
    const agreementId = await agreementOf(tenant);
    const csv = await uploadDocument(tenant, 'artikler.csv', Buffer.from(PRICE_LIST, 'utf8'), MIME.csv);
    const started = await importDocuments(tenant, agreementId, [csv]);
    await settledRun(tenant, started.body.workflow_run_id);
    const before = await testDb().agreement.findUniqueOrThrow({ where: { id: agreementId } });

    const read = await tenant.call(`/v1/agreements/${agreementId}/documents/${csv}`);
    expect(read.body).toMatchObject({ classification: 'price_list', classified_by: 'automatic' });
    expectError(
      await tenant.call(`/v1/agreements/${agreementId}/documents/${csv}`, {
        method: 'PATCH',
        body: { classification: 'terms' },
        headers: { 'If-Match': '"stale"' },
      }),
      412,
      'precondition_failed',
    );
    const patched = await tenant.call(`/v1/agreements/${agreementId}/documents/${csv}`, {
      method: 'PATCH',
      body: { classification: 'terms' },
      headers: { 'If-Match': read.headers.get('etag')! },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ classification: 'terms', classified_by: 'user', classification_reason: null });
    const after = await testDb().agreement.findUniqueOrThrow({ where: { id: agreementId } });
    expect(after.termsChangedAt.getTime()).toBeGreaterThan(before.termsChangedAt.getTime());

    // Setting the classification it already has changes nothing.
    const again = await tenant.call(`/v1/agreements/${agreementId}/documents/${csv}`, {
      method: 'PATCH',
      body: { classification: 'terms' },
    });
    expect(again.body.updated_at).toBe(patched.body.updated_at);
    expect((await testDb().agreement.findUniqueOrThrow({ where: { id: agreementId } })).termsChangedAt).toEqual(
      after.termsChangedAt,
    );

    expectError(
      await tenant.call(`/v1/agreements/${agreementId}/documents/${csv}`, {
        method: 'PATCH',
        body: { classification: 'invoice' },
      }),
      400,
      'validation_error',
    );
    const unrelated = await uploadDocument(tenant, 'other.txt', Buffer.from('text'), MIME.text);
    expectError(
      await tenant.call(`/v1/agreements/${agreementId}/documents/${unrelated}`, {
        method: 'PATCH',
        body: { classification: 'terms' },
      }),
      404,
      'not_found',
    );

    // The same document imported into another agreement is classified there on its own.
    const otherAgreement = await agreementOf(tenant, 'Other');
    const elsewhere = await importDocuments(tenant, otherAgreement, [csv]);
    await settledRun(tenant, elsewhere.body.workflow_run_id);
    expect((await tenant.call(`/v1/agreements/${otherAgreement}/documents/${csv}`)).body).toMatchObject({
      classification: 'price_list',
      classified_by: 'automatic',
    });
    expect((await tenant.call(`/v1/agreements/${agreementId}/documents/${csv}`)).body).toMatchObject({
      classification: 'terms',
      classified_by: 'user',
    });
  });

  it('admits a document once: an Idempotency-Key replays the response, and a repeated import reuses the document', async () => {
    const tenant = await createTenant();
    const agreementId = await agreementOf(tenant);
    const text = await uploadDocument(tenant, 'vilkår.txt', Buffer.from(TERMS.join('\n\n'), 'utf8'), MIME.text);
    const headers = { 'Idempotency-Key': 'import-terms-1' };
    const first = await importDocuments(tenant, agreementId, [text], headers);
    const replay = await importDocuments(tenant, agreementId, [text], headers);
    expect(first.status).toBe(202);
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual(first.body);
    await settledRun(tenant, first.body.workflow_run_id);

    const repeated = await importDocuments(tenant, agreementId, [text]);
    expect(repeated.status).toBe(200);
    expect(repeated.body).toMatchObject({
      workflow_run_id: null,
      data: [{ document_id: text, reused: true, status: 'completed', workflow_run_id: first.body.workflow_run_id }],
    });
    expect(await testDb().agreementDocument.count({ where: { agreementId } })).toBe(1);
    expect(
      await testDb().workflowRun.count({ where: { organizationId: tenant.organizationId, type: 'document_import' } }),
    ).toBe(1);
    expectError(
      await tenant.call(`/v1/agreements/${agreementId}/document-imports`, {
        method: 'POST',
        body: { entries: [{ document_id: text }, { document_id: text }] },
        headers,
      }),
      409,
      'idempotency_key_reused',
    );
  });

  it('imports a failed document again in a new run', async () => {
    const tenant = await createTenant();
    const agreementId = await agreementOf(tenant);
    const empty = await uploadDocument(tenant, 'tom.txt', Buffer.from('   \n  '), MIME.text);
    const first = await importDocuments(tenant, agreementId, [empty]);
    expect((await settledRun(tenant, first.body.workflow_run_id)).status).toBe('failed');
    const again = await importDocuments(tenant, agreementId, [empty]);
    expect(again.status).toBe(202);
    expect(again.body.data[0]).toMatchObject({ reused: false, status: 'queued', failure: null });
    expect(again.body.workflow_run_id).not.toBe(first.body.workflow_run_id);
    await settledRun(tenant, again.body.workflow_run_id);
    expect((await tenant.call(`/v1/agreements/${agreementId}/documents/${empty}`)).body).toMatchObject({
      status: 'failed',
      failure: { code: 'no_text' },
    });
  });

  it('names the entries that cannot be imported and admits nothing', async () => {
    const tenant = await createTenant();
    const stranger = await createTenant();
    const agreementId = await agreementOf(tenant);
    const good = await uploadDocument(tenant, 'vilkår.txt', Buffer.from(TERMS.join('\n\n'), 'utf8'), MIME.text);
    const foreign = await uploadDocument(stranger, 'theirs.txt', Buffer.from('their terms'), MIME.text);
    const registered = (
      await tenant.call('/v1/documents/upload', {
        method: 'POST',
        body: { file_name: 'later.txt', mime_type: 'text/plain', file_size: 10 },
      })
    ).body.document_id;
    const response = await importDocuments(tenant, agreementId, [
      good,
      foreign,
      registered,
      '00000000-0000-4000-8000-000000000000',
    ]);
    expectError(response, 400, 'validation_error');
    expect(response.body.error.details.map((d: any) => d.field)).toEqual([
      'entries.1.document_id',
      'entries.2.document_id',
      'entries.3.document_id',
    ]);
    expect(await testDb().agreementDocument.count({ where: { agreementId } })).toBe(0);
    expectError(await importDocuments(tenant, agreementId, []), 400, 'validation_error');
    // Another organization's agreement does not exist for this key.
    expectError(await importDocuments(stranger, agreementId, [foreign]), 404, 'not_found');
    expectError(await stranger.call(`/v1/agreements/${agreementId}/documents`), 404, 'not_found');
  });
});
