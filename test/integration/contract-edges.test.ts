import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import type { MemberActor } from '../../src/auth/actor.js';
import { poolReader, Prisma, type RawReader } from '../../src/db/client.js';
import type { AppDeps } from '../../src/deps.js';
import { CursorCodec } from '../../src/http/pagination.js';
import { listInvoices, invoiceListQuery } from '../../src/invoices/list.js';
import { call, expectError } from '../support/api.js';
import { alertOn, claimSetup, createClaim, setStatus } from '../support/claims.js';
import { invoiceOf, matchedAgreement, newSupplier } from '../support/alerts.js';
import {
  importDocument,
  ingestionUpload,
  sample,
  settledImport,
  settledIngestionInvoice,
  uploadDocument,
} from '../support/invoices.js';
import { smallPeppolInvoice } from '../support/large-invoice.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

// The contract's edges (issue 25): every read takes `fields`, every list pages the same way,
// If-Match and Idempotency-Key where the spec offers them, PATCH replaces objects, attachments of
// any type, the timeline's sort, a topic's deletion next to completed claims, and invoice list
// pages that read lines only when shown and hold a bounded number of them.

const keysOf = (record: object) => Object.keys(record).sort();

// Every page of a list, following next_cursor.
async function allPages(tenant: Tenant, path: string): Promise<{ pages: any[][]; items: any[] }> {
  const pages: any[][] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page: { status: number; body: any } = await tenant.call(
      `${path}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body).toHaveProperty('next_cursor');
    pages.push(page.body.data);
    cursor = page.body.next_cursor;
  } while (cursor && pages.length < 20);
  return { pages, items: pages.flat() };
}

describe('fields on every read', () => {
  it('selects fields of documents, import polls, metrics, providers and search, and refuses unknown ones', async () => {
    const tenant = await createTenant();
    const bytes = sample('peppol-bis3/peppol-base-example.xml');
    const documentId = await uploadDocument(tenant, 'invoice.xml', bytes);
    expect((await tenant.call(`/v1/documents/${documentId}?fields=file_name,uploaded`)).body).toEqual({
      id: documentId,
      file_name: 'invoice.xml',
      uploaded: true,
    });
    const refused = await tenant.call(`/v1/documents/${documentId}?fields=colour`);
    expectError(refused, 400, 'validation_error');
    expect(refused.body.error.details.valid_fields).toContain('file_name');

    const started = await importDocument(tenant, documentId);
    expect(started.status).toBe(202);
    const poll = await tenant.call(`/v1/invoices/imports/${started.body.id}?fields=status`);
    expect(poll.status).toBe(200);
    expect(keysOf(poll.body)).toEqual(['id', 'status']);
    const imported = await settledImport(tenant, started.body.id);
    const invoice = (await tenant.call(`/v1/invoices/${imported.invoice_id}`)).body;

    const invoiceMetrics = await tenant.call('/v1/invoices/metrics?fields=counts.total');
    expect(invoiceMetrics.body).toEqual({ counts: { total: 1 } });
    expect((await tenant.call('/v1/alerts/metrics?fields=counts')).body).toEqual({
      counts: expect.objectContaining({ total: 0 }),
    });
    expect(keysOf((await tenant.call('/v1/claims/metrics?fields=refund_summary')).body)).toEqual(['refund_summary']);
    expectError(await tenant.call('/v1/invoices/metrics?fields=spend.nothing'), 400, 'validation_error');

    const providers = await tenant.call('/v1/integration-providers?fields=name');
    expect(providers.body.data.length).toBeGreaterThan(0);
    for (const provider of providers.body.data) expect(keysOf(provider)).toEqual(['id', 'name']);

    const found = await tenant.call(
      `/v1/search?query=${encodeURIComponent(invoice.invoice_number)}&types=invoice&fields=type`,
    );
    expect(found.body).toEqual({ data: [{ id: invoice.id, type: 'invoice' }], next_cursor: null });

    // Files have no fields: a download's parameters stay its own.
    expectError(await tenant.call('/v1/alerts/export?format=csv&fields=id'), 400, 'validation_error');
  });

  it('selects over the Ingestion shape for ingestion tokens, its invoice_id always returned', async () => {
    const tenant = await createTenant();
    const number = `ING-${randomUUID().slice(0, 8)}`;
    const upload = await ingestionUpload(tenant.ingestionToken, 'invoice.xml', smallPeppolInvoice(number));
    expect(upload.status).toBe(201);
    const invoiceId = upload.body.invoice_id;
    await settledIngestionInvoice(tenant.ingestionToken, invoiceId);

    const one = await call(`/v1/invoices/${invoiceId}?fields=processing.status,invoice_number`, {
      token: tenant.ingestionToken,
    });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body).toEqual({ invoice_id: invoiceId, invoice_number: number, processing: { status: 'completed' } });
    const list = await call('/v1/invoices?fields=alerts.count', { token: tenant.ingestionToken });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body).toEqual({ invoices: [{ invoice_id: invoiceId, alerts: { count: 0 } }], next_cursor: null });
    // The Organization shape's fields are not the Ingestion shape's.
    expectError(
      await call(`/v1/invoices/${invoiceId}?fields=line_items`, { token: tenant.ingestionToken }),
      400,
      'validation_error',
    );
    // An Organization key selects over the Organization shape.
    expect((await tenant.call(`/v1/invoices/${invoiceId}?fields=invoice_number`)).body).toEqual({
      id: invoiceId,
      invoice_number: number,
    });
  });
});

describe('every list pages the same way', () => {
  it("pages alert groups, search results and a claim's files with limit and next_cursor", async () => {
    const tenant = await createTenant();
    const prefix = `PAGED-${randomUUID().slice(0, 6)}`;
    const { agreementId, invoices } = await claimSetup(tenant, [
      { number: `${prefix}-1` },
      { number: `${prefix}-2` },
      { number: `${prefix}-3` },
    ]);
    // 1, 2 and 3 alerts: groups by invoice come most alerts first.
    const alertIds: string[] = [];
    for (const [index, invoice] of invoices.entries()) {
      for (let n = 0; n <= index; n++)
        alertIds.push(await alertOn(tenant, invoice.id, agreementId, { title: `Overcharge ${n}` }));
    }

    const groups = await allPages(tenant, `/v1/alerts/groups?group_by=invoice&agreement_ids=${agreementId}&limit=2`);
    expect(groups.pages.map((page) => page.length)).toEqual([2, 1]);
    expect(groups.items.map((group) => [group.key, group.count])).toEqual([
      [invoices[2]!.id, 3],
      [invoices[1]!.id, 2],
      [invoices[0]!.id, 1],
    ]);
    const fewestFirst = await allPages(
      tenant,
      `/v1/alerts/groups?group_by=invoice&agreement_ids=${agreementId}&limit=2&direction=asc&fields=count`,
    );
    expect(fewestFirst.items).toEqual([
      { key: invoices[0]!.id, count: 1 },
      { key: invoices[1]!.id, count: 2 },
      { key: invoices[2]!.id, count: 3 },
    ]);
    // The cursor is bound to the grouping and filters.
    const first = await tenant.call(`/v1/alerts/groups?group_by=invoice&agreement_ids=${agreementId}&limit=1`);
    expectError(
      await tenant.call(
        `/v1/alerts/groups?group_by=status&agreement_ids=${agreementId}&limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      ),
      400,
      'validation_error',
    );
    expectError(await tenant.call(`/v1/alerts/groups?limit=1001`), 400, 'validation_error');

    const searched = await allPages(tenant, `/v1/search?query=${prefix}&types=invoice&limit=2`);
    expect(searched.pages.map((page) => page.length)).toEqual([2, 1]);
    expect(searched.items.map((result) => result.id).sort()).toEqual(invoices.map((invoice) => invoice.id).sort());
    expectError(
      await tenant.call(`/v1/search?query=${prefix}&limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`),
      400,
      'validation_error',
    );

    const claim = await createClaim(tenant, { agreement_id: agreementId, alerts: { alert_ids: alertIds } });
    const documents = await tenant.call(`/v1/claims/${claim.id}/documents?limit=1`);
    // Invoices created as data have no files: an empty list still pages.
    expect(documents.body).toEqual({ data: [], next_cursor: null });
  });

  it("pages a claim's files in the letter's order", async () => {
    const tenant = await createTenant();
    const uploaded: { id: string; number: string }[] = [];
    for (const day of ['2026-01-02', '2026-01-03']) {
      const number = `FILES-${randomUUID().slice(0, 8)}`;
      const upload = await ingestionUpload(tenant.ingestionToken, `${number}.xml`, smallPeppolInvoice(number, day), [
        { name: `${number}-note.txt`, bytes: Buffer.from(`note of ${number}`) },
      ]);
      expect(upload.status, JSON.stringify(upload.body)).toBe(201);
      await settledIngestionInvoice(tenant.ingestionToken, upload.body.invoice_id);
      uploaded.push({ id: upload.body.invoice_id, number });
    }
    const supplierId = (await tenant.call(`/v1/invoices/${uploaded[0]!.id}`)).body.supplier.id;
    const agreementId = await matchedAgreement(tenant, [supplierId]);
    const alertIds = [
      await alertOn(tenant, uploaded[0]!.id, agreementId),
      await alertOn(tenant, uploaded[1]!.id, agreementId),
    ];
    const claim = await createClaim(tenant, { agreement_id: agreementId, alerts: { alert_ids: alertIds } });

    const whole = await tenant.call(`/v1/claims/${claim.id}/documents`);
    expect(whole.body.data.map((d: any) => [d.invoice_id, d.role])).toEqual([
      [uploaded[0]!.id, 'invoice'],
      [uploaded[0]!.id, 'invoice_attachment'],
      [uploaded[1]!.id, 'invoice'],
      [uploaded[1]!.id, 'invoice_attachment'],
    ]);
    const paged = await allPages(tenant, `/v1/claims/${claim.id}/documents?limit=3&fields=role`);
    expect(paged.pages.map((page) => page.length)).toEqual([3, 1]);
    expect(paged.items).toEqual(whole.body.data.map((d: any) => ({ document_id: d.document_id, role: d.role })));
    expectError(await tenant.call(`/v1/claims/${claim.id}/documents?direction=desc`), 400, 'validation_error');
  });
});

describe('If-Match on comments and team members', () => {
  it('refuses a stale ETag with 412 and changes nothing', async () => {
    const tenant = await createTenant();
    const invoice = await invoiceOf(tenant, newSupplier());
    const comment = await tenant.call('/v1/comments', {
      method: 'POST',
      body: { entity_type: 'invoice', entity_id: invoice.id, body: 'First words' },
    });
    expect(comment.status).toBe(201);
    const read = await tenant.call(`/v1/comments/${comment.body.id}`);
    const etag = read.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);

    expectError(
      await tenant.call(`/v1/comments/${comment.body.id}`, {
        method: 'PATCH',
        body: { body: 'Lost update' },
        headers: { 'If-Match': '"stale"' },
      }),
      412,
      'precondition_failed',
    );
    expect((await tenant.call(`/v1/comments/${comment.body.id}`)).body.body).toBe('First words');
    const edited = await tenant.call(`/v1/comments/${comment.body.id}`, {
      method: 'PATCH',
      body: { body: 'Second words' },
      headers: { 'If-Match': etag },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.headers.get('etag')).not.toBe(etag);
    // The ETag read before the edit no longer deletes it.
    expectError(
      await tenant.call(`/v1/comments/${comment.body.id}`, { method: 'DELETE', headers: { 'If-Match': etag } }),
      412,
      'precondition_failed',
    );
    expect((await tenant.call(`/v1/comments/${comment.body.id}`)).status).toBe(200);
    expect(
      (
        await tenant.call(`/v1/comments/${comment.body.id}`, {
          method: 'DELETE',
          headers: { 'If-Match': edited.headers.get('etag')! },
        })
      ).status,
    ).toBe(204);

    const team = await tenant.call('/v1/teams', {
      method: 'POST',
      body: { name: 'Buyers', user_ids: [], filter: null },
    });
    expect(team.status).toBe(201);
    const teamEtag = (await tenant.call(`/v1/teams/${team.body.id}`)).headers.get('etag')!;
    expectError(
      await tenant.call(`/v1/teams/${team.body.id}/members`, {
        method: 'POST',
        body: { user_ids: [tenant.userId] },
        headers: { 'If-Match': '"stale"' },
      }),
      412,
      'precondition_failed',
    );
    expect((await tenant.call(`/v1/teams/${team.body.id}`)).body.user_ids).toEqual([]);
    const added = await tenant.call(`/v1/teams/${team.body.id}/members`, {
      method: 'POST',
      body: { user_ids: [tenant.userId] },
      headers: { 'If-Match': teamEtag },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.user_ids).toEqual([tenant.userId]);
    expectError(
      await tenant.call(`/v1/teams/${team.body.id}/members/${tenant.userId}`, {
        method: 'DELETE',
        headers: { 'If-Match': teamEtag },
      }),
      412,
      'precondition_failed',
    );
    expect((await tenant.call(`/v1/teams/${team.body.id}`)).body.user_ids).toEqual([tenant.userId]);
    const removed = await tenant.call(`/v1/teams/${team.body.id}/members/${tenant.userId}`, {
      method: 'DELETE',
      headers: { 'If-Match': added.headers.get('etag')! },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.user_ids).toEqual([]);
  });
});

describe('Idempotency-Key on document registration and tag creation', () => {
  it('replays the first answer for the same key and body, and refuses another body', async () => {
    const tenant = await createTenant();
    const headers = { 'Idempotency-Key': `register-${randomUUID()}` };
    const registration = { file_name: 'terms.pdf', mime_type: 'application/pdf', file_size: 1234 };
    const first = await tenant.call('/v1/documents/upload', { method: 'POST', body: registration, headers });
    const again = await tenant.call('/v1/documents/upload', { method: 'POST', body: registration, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.document_id).toBe(first.body.document_id);
    expectError(
      await tenant.call('/v1/documents/upload', { method: 'POST', body: { ...registration, file_size: 99 }, headers }),
      409,
      'idempotency_key_reused',
    );
    expect(await testDb().document.count({ where: { organizationId: tenant.organizationId } })).toBe(1);

    const tagHeaders = { 'Idempotency-Key': `tag-${randomUUID()}` };
    const tag = await tenant.call('/v1/agreements/tags', {
      method: 'POST',
      body: { name: 'Facilities' },
      headers: tagHeaders,
    });
    const tagAgain = await tenant.call('/v1/agreements/tags', {
      method: 'POST',
      body: { name: 'Facilities' },
      headers: tagHeaders,
    });
    expect(tag.status).toBe(201);
    // Without the key the repeat would be 409 (names are unique); with it, the first answer.
    expect(tagAgain.status).toBe(201);
    expect(tagAgain.body).toEqual(tag.body);
    expectError(
      await tenant.call('/v1/agreements/tags', { method: 'POST', body: { name: 'Canteen' }, headers: tagHeaders }),
      409,
      'idempotency_key_reused',
    );
    expect((await tenant.call('/v1/agreements/tags')).body.data.map((t: any) => t.name)).toEqual(['Facilities']);
  });
});

describe('agreement PATCH, document types, the timeline and topics', () => {
  it('replaces renewal as a whole object', async () => {
    const tenant = await createTenant();
    const created = await tenant.call('/v1/agreements', {
      method: 'POST',
      body: {
        title: 'Cleaning',
        expiration_date: '2026-12-31',
        renewal: { auto_renews: true, period_months: 12, notice_days: 90 },
      },
    });
    expect(created.body.renewal).toEqual({ auto_renews: true, period_months: 12, notice_days: 90 });
    const patched = await tenant.call(`/v1/agreements/${created.body.id}`, {
      method: 'PATCH',
      body: { renewal: { period_months: 6 } },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.renewal).toEqual({ auto_renews: false, period_months: 6, notice_days: null });
    // Sending back what was read changes nothing.
    const repeated = await tenant.call(`/v1/agreements/${created.body.id}`, {
      method: 'PATCH',
      body: { renewal: patched.body.renewal },
    });
    expect(repeated.body.updated_at).toBe(patched.body.updated_at);
  });

  it('registers attachments of any media type, and refuses what is not a media type', async () => {
    const tenant = await createTenant();
    for (const mimeType of [
      'application/x-msdownload',
      'video/mp4',
      'application/vnd.ms-outlook',
      'Message/RFC822; charset=utf-8',
    ]) {
      const registered = await tenant.call('/v1/documents/upload', {
        method: 'POST',
        body: { file_name: 'attachment', mime_type: mimeType, file_size: 10 },
      });
      expect(registered.status, `${mimeType}: ${JSON.stringify(registered.body)}`).toBe(201);
      expect((await tenant.call(`/v1/documents/${registered.body.document_id}`)).body.mime_type).toBe(
        mimeType.toLowerCase().split(';')[0],
      );
    }
    for (const mimeType of ['pdf', 'text/', '/plain', 'text/plain/extra', 'text/pl ain', '']) {
      expectError(
        await tenant.call('/v1/documents/upload', {
          method: 'POST',
          body: { file_name: 'x', mime_type: mimeType, file_size: 10 },
        }),
        400,
        'validation_error',
      );
    }
  });

  it('sorts the timeline by direction and pages it', async () => {
    const tenant = await createTenant();
    const invoice = await invoiceOf(tenant, newSupplier());
    const ids: string[] = [];
    for (const body of ['one', 'two', 'three']) {
      ids.push(
        (
          await tenant.call('/v1/comments', {
            method: 'POST',
            body: { entity_type: 'invoice', entity_id: invoice.id, body },
          })
        ).body.id,
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const timeline = `/v1/activity?entity_type=invoice&entity_id=${invoice.id}&entry_type=comment`;
    expect((await allPages(tenant, timeline)).items.map((entry) => entry.id)).toEqual([...ids].reverse());
    const oldestFirst = await allPages(tenant, `${timeline}&sort=created_at&direction=asc&limit=2`);
    expect(oldestFirst.pages.map((page) => page.map((entry) => entry.id))).toEqual([[ids[0], ids[1]], [ids[2]]]);
  });

  it('keeps alerts of a completed claim in their topic: the topic is not deleted until the claim reopens', async () => {
    const tenant = await createTenant();
    const { agreementId, invoices } = await claimSetup(tenant, [{}]);
    const claimed = await alertOn(tenant, invoices[0]!.id, agreementId, { title: 'Claimed overcharge' });
    const loose = await alertOn(tenant, invoices[0]!.id, agreementId, { title: 'Loose overcharge' });
    const topics = async () =>
      (await tenant.call(`/v1/alert-topics?agreement_ids=${agreementId}&include_empty=true`)).body.data.map(
        (t: any) => t.id,
      );
    const topic = await tenant.call('/v1/alert-topics', {
      method: 'POST',
      body: { agreement_id: agreementId, title: 'Prices', alert_ids: [claimed, loose] },
    });
    expect(topic.status, JSON.stringify(topic.body)).toBe(201);
    const claim = await createClaim(tenant, { agreement_id: agreementId, alerts: { alert_ids: [claimed] } });
    expect((await setStatus(tenant, claim.id, 'completed')).status).toBe(200);
    const before = (await tenant.call(`/v1/alerts/${claimed}`)).body;

    const refused = await tenant.call(`/v1/alert-topics/${topic.body.id}`, { method: 'DELETE' });
    expectError(refused, 409, 'alert_in_completed_claim');
    expect(refused.body.error.details).toEqual([expect.objectContaining({ alert_id: claimed, claim_id: claim.id })]);
    expect((await tenant.call(`/v1/alerts/${claimed}`)).body).toEqual(before);
    expect((await tenant.call(`/v1/alerts/${loose}`)).body.topic_id).toBe(topic.body.id);
    expect(await topics()).toEqual([topic.body.id]);

    expect((await setStatus(tenant, claim.id, 'in_progress')).status).toBe(200);
    expect((await tenant.call(`/v1/alert-topics/${topic.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await tenant.call(`/v1/alerts/${claimed}`)).body.topic_id).toBeNull();
    expect(await topics()).toEqual([]);
  });
});

// listInvoices in this process with a reader that records each statement, over the stack's
// database: which statements a list page runs.
function recordingDeps(pool: pg.Pool, statements: string[]): AppDeps {
  const reader = poolReader(pool);
  const recording: RawReader = {
    $queryRaw: (query, ...values) => {
      statements.push(query instanceof Prisma.Sql ? query.text : Prisma.sql(query, ...values).text);
      return reader.$queryRaw(query, ...values);
    },
  };
  return {
    reader: recording,
    db: testDb(),
    cursors: new CursorCodec(randomUUID()),
    config: { APP_BASE_URL: 'http://app.test' },
  } as unknown as AppDeps;
}

const actorOf = (tenant: Tenant): MemberActor => ({
  kind: 'member',
  organizationId: tenant.organizationId,
  userId: tenant.userId,
  apiKeyId: tenant.apiKeyId,
  level: 'admin',
  keyLevel: 'admin',
  role: 'admin',
});

// Lines of an invoice sent as data: `count` lines of 1.00.
const linesOf = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    description: `Item ${i}`,
    quantity: '1',
    unit_price: '1.00',
    net_amount: '1.00',
  }));

describe('invoice list pages and their lines', () => {
  it('reads no line for fields=id,invoice_number, and bounds a page by its lines', async () => {
    const tenant = await createTenant();
    const supplier = newSupplier();
    // Two invoices of 6,000 lines: together over a page's 10,000 lines.
    const older = await invoiceOf(tenant, supplier, { lines: linesOf(6_000) });
    const newer = await invoiceOf(tenant, supplier, { lines: linesOf(6_000) });

    const statements: string[] = [];
    const pool = new pg.Pool({ connectionString: inject('stackEnv').DATABASE_URL!, max: 2 });
    const deps = recordingDeps(pool, statements);
    const readsLines = () => statements.some((text) => text.includes('invoice_lines l,'));
    const narrow = await listInvoices(deps, actorOf(tenant), invoiceListQuery.parse({ fields: 'id,invoice_number' }));
    expect((narrow.data ?? []).map((invoice) => invoice.id)).toEqual([newer.id, older.id]);
    expect(statements.length).toBeGreaterThan(0);
    expect(readsLines()).toBe(false);
    expect(statements.some((text) => text.includes('invoice_lines'))).toBe(false);

    statements.length = 0;
    const whole = await listInvoices(deps, actorOf(tenant), invoiceListQuery.parse({}));
    expect(readsLines()).toBe(true);
    expect((whole.data ?? []).map((invoice) => [invoice.id, invoice.line_items.length])).toEqual([[newer.id, 6_000]]);
    await pool.end();

    // Over HTTP: the narrow page holds both invoices without lines; the whole one is cut after the
    // first invoice (its lines fill the page) and the cursor continues with the second.
    const narrowPage = await tenant.call('/v1/invoices?fields=id,invoice_number');
    expect(narrowPage.body).toEqual({
      data: [
        { id: newer.id, invoice_number: expect.any(String) },
        { id: older.id, invoice_number: expect.any(String) },
      ],
      next_cursor: null,
    });
    const first = await tenant.call('/v1/invoices?limit=50');
    expect(first.body.data.map((invoice: any) => invoice.id)).toEqual([newer.id]);
    expect(first.body.data[0].line_items).toHaveLength(6_000);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await tenant.call(`/v1/invoices?limit=50&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.body.data.map((invoice: any) => [invoice.id, invoice.line_items.length])).toEqual([
      [older.id, 6_000],
    ]);
    expect(second.body.next_cursor).toBeNull();
    const linesOnly = await tenant.call('/v1/invoices?fields=line_items');
    expect(linesOnly.body.data).toHaveLength(1);
  }, 120_000);
});
