import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { describe, expect, inject, it } from 'vitest';
import { invoiceOf, matchedAgreement, newSupplier, postAlert, refresh, type LineSpec } from '../support/alerts.js';
import { expectError } from '../support/api.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

// One supplier, one draft agreement, and invoices of that supplier matched to it.
async function pair(tenant: Tenant, invoices: { currency?: string; lines?: LineSpec[] }[] = [{}]) {
  const supplier = newSupplier();
  const created = [];
  for (const spec of invoices) created.push(await invoiceOf(tenant, supplier, spec));
  const supplierId = created[0]!.supplier.id;
  const agreementId = await matchedAgreement(tenant, [supplierId]);
  return { supplierId, agreementId, invoices: created };
}

// A claim holding these alerts, made over the API.
async function claimOf(tenant: Tenant, agreementId: string, alertIds: string[]): Promise<string> {
  const created = await tenant.call('/v1/claims', {
    method: 'POST',
    body: { agreement_id: agreementId, title: 'Claim', alerts: { alert_ids: alertIds } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

const ids = (response: { body: { data: { id: string }[] } }) => response.body.data.map((a) => a.id).sort();
const sorted = (values: string[]) => [...values].sort();
const command = (tenant: Tenant, verb: string, body: object) =>
  tenant.call(`/v1/alerts/${verb}`, { method: 'POST', body });

describe('alerts', () => {
  it('are created on matched invoices with their provenance, and a line impact calculated from expected', async () => {
    const tenant = await createTenant();
    const { agreementId, invoices } = await pair(tenant);
    const invoice = invoices[0]!;
    const lineId = invoice.line_items[0]!.id;

    const created = await tenant.call('/v1/alerts', {
      method: 'POST',
      body: {
        invoice_id: invoice.id,
        agreement_id: agreementId,
        title: 'Paper above the agreed price [1]',
        explanation: 'The agreement says 4.875 per unit.',
        invoice_item_id: lineId,
        expected: [
          { description: 'Paper', unit: 'EA', currency_code: 'EUR', price: { type: 'amount', amount: '4.875' } },
        ],
        citations: [
          {
            source_ref: 1,
            citation: { source: { source_type: 'agreement_prices', document_id: null }, quote: 'Paper 4.875' },
          },
        ],
        correction_type: 'modify_item',
      },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/alerts/${created.body.id}`);
    // (5.50 - 4.875) x 10 = 6.25
    expect(created.body).toMatchObject({
      status: 'pending',
      invoice_id: invoice.id,
      agreement_id: agreementId,
      supplier_id: invoice.supplier.id,
      impact_amount: '6.25',
      currency_code: 'EUR',
      confidence: { level: 'certain' },
      invoice_item_id: lineId,
      correction_type: 'modify_item',
      topic_id: null,
      claim_id: null,
      set_aside: false,
      provenance: {
        origin: 'api_key',
        user_id: tenant.userId,
        api_key_id: tenant.apiKeyId,
        check_id: null,
        checker: null,
      },
      dismissal: null,
      credit: null,
    });
    expect(created.body.citations[0].citation.quote).toBe('Paper 4.875');

    const base = { invoice_id: invoice.id, agreement_id: agreementId, title: 'T', explanation: 'E' };
    const wholeInvoice = await tenant.call('/v1/alerts', { method: 'POST', body: base });
    expectError(wholeInvoice, 400, 'validation_error');
    expect(wholeInvoice.body.error.details[0].field).toBe('impact_amount');
    const unknownAgreement = await tenant.call('/v1/alerts', {
      method: 'POST',
      body: { ...base, agreement_id: crypto.randomUUID(), impact_amount: '1' },
    });
    expect(unknownAgreement.body.error.details.map((d: any) => d.field)).toEqual(['agreement_id']);
    const otherAgreement = (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Unrelated' } })).body
      .id;
    const unmatched = await tenant.call('/v1/alerts', {
      method: 'POST',
      body: { ...base, agreement_id: otherAgreement, impact_amount: '1' },
    });
    expectError(unmatched, 400, 'validation_error');
    expect(unmatched.body.error.details[0].field).toBe('invoice_id');
    const foreignLine = await tenant.call('/v1/alerts', {
      method: 'POST',
      body: { ...base, impact_amount: '1', invoice_item_id: crypto.randomUUID() },
    });
    expect(foreignLine.body.error.details[0].field).toBe('invoice_item_id');
    const stranger = await createTenant();
    expect(
      (
        await stranger.call('/v1/alerts', { method: 'POST', body: { ...base, impact_amount: '1' } })
      ).body.error.details.map((d: any) => d.field),
    ).toEqual(['invoice_id', 'agreement_id']);
    expect(await testDb().alert.count({ where: { organizationId: tenant.organizationId } })).toBe(1);
  });

  it('replays a create with the same Idempotency-Key and refuses the key with another body', async () => {
    const tenant = await createTenant();
    const { agreementId, invoices } = await pair(tenant);
    const body = {
      invoice_id: invoices[0]!.id,
      agreement_id: agreementId,
      title: 'Freight charged',
      explanation: 'No freight agreed',
      impact_amount: '25.00',
    };
    const headers = { 'Idempotency-Key': `alert-${crypto.randomUUID()}` };
    const first = await tenant.call('/v1/alerts', { method: 'POST', body, headers });
    const again = await tenant.call('/v1/alerts', { method: 'POST', body, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectError(
      await tenant.call('/v1/alerts', { method: 'POST', body: { ...body, impact_amount: '26.00' }, headers }),
      409,
      'idempotency_key_reused',
    );
    expect(await testDb().alert.count({ where: { organizationId: tenant.organizationId } })).toBe(1);
  });

  it('is read with an ETag, changed by sent fields only under If-Match, and deleted unless in a claim', async () => {
    const tenant = await createTenant();
    const { agreementId, invoices } = await pair(tenant);
    const lineId = invoices[0]!.line_items[0]!.id;
    const alert = await postAlert(tenant, {
      invoice_id: invoices[0]!.id,
      agreement_id: agreementId,
      impact_amount: '3.00',
    });
    const read = await tenant.call(`/v1/alerts/${alert.id}`);
    const etag = read.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);

    const stale = await tenant.call(`/v1/alerts/${alert.id}`, {
      method: 'PATCH',
      body: { title: 'x' },
      headers: { 'If-Match': '"stale"' },
    });
    expectError(stale, 412, 'precondition_failed');
    const patched = await tenant.call(`/v1/alerts/${alert.id}`, {
      method: 'PATCH',
      body: { confidence: { level: 'likely' }, impact_amount: '4.10' },
      headers: { 'If-Match': etag },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      confidence: { level: 'likely' },
      impact_amount: '4.10',
      title: 'Overcharged',
      explanation: alert.explanation,
      status: 'pending',
    });
    expect((await tenant.call(`/v1/alerts/${alert.id}`)).headers.get('etag')).not.toBe(etag);
    expectError(
      await tenant.call(`/v1/alerts/${alert.id}`, {
        method: 'PATCH',
        body: { title: 'y' },
        headers: { 'If-Match': etag },
      }),
      412,
      'precondition_failed',
    );

    // A line and expected prices sent without an impact: calculated as on creation ((5.50 - 5.00) x 10).
    const moved = await tenant.call(`/v1/alerts/${alert.id}`, {
      method: 'PATCH',
      body: { invoice_item_id: lineId, expected: [{ price: { type: 'amount', amount: '5.00' } }] },
    });
    expect(moved.body).toMatchObject({ invoice_item_id: lineId, impact_amount: '5.00' });
    expectError(
      await tenant.call(`/v1/alerts/${alert.id}`, { method: 'PATCH', body: { topic_id: crypto.randomUUID() } }),
      400,
      'validation_error',
    );
    expectError(
      await tenant.call(`/v1/alerts/${alert.id}`, { method: 'PATCH', body: { status: 'dismissed' } }),
      400,
      'validation_error',
    );
    expect(await tenant.call(`/v1/alerts/${alert.id}?fields=status,provenance.origin`).then((r) => r.body)).toEqual({
      id: alert.id,
      status: 'pending',
      provenance: { origin: 'api_key' },
    });

    const claimed = await postAlert(tenant, { invoice_id: invoices[0]!.id, agreement_id: agreementId });
    await claimOf(tenant, agreementId, [claimed.id]);
    expectError(await tenant.call(`/v1/alerts/${claimed.id}`, { method: 'DELETE' }), 409, 'alert_in_claim');
    expectError(
      await tenant.call(`/v1/alerts/${alert.id}`, { method: 'DELETE', headers: { 'If-Match': etag } }),
      412,
      'precondition_failed',
    );
    expect((await tenant.call(`/v1/alerts/${alert.id}`, { method: 'DELETE' })).status).toBe(204);
    expectError(await tenant.call(`/v1/alerts/${alert.id}`), 404, 'not_found');
    expectError(await tenant.call(`/v1/alerts/${alert.id}`, { method: 'DELETE' }), 404, 'not_found');
  });

  it('follows the transition table: every command, repeats that change nothing, and skipped alerts', async () => {
    const tenant = await createTenant();
    const { agreementId, invoices } = await pair(tenant);
    const make = () => postAlert(tenant, { invoice_id: invoices[0]!.id, agreement_id: agreementId });
    const [a, b, c] = [await make(), await make(), await make()];
    const get = async (id: string) => (await tenant.call(`/v1/alerts/${id}`)).body;

    // dismiss: pending -> dismissed; the same reason again changes nothing; another reason replaces it.
    expect(
      (await command(tenant, 'dismiss', { alert_ids: [a.id], category: 'agreed_exception', note: 'Approved by phone' }))
        .body,
    ).toEqual({ updated: [a.id], unchanged: [], skipped: [] });
    const dismissed = await get(a.id);
    expect(dismissed).toMatchObject({
      status: 'dismissed',
      dismissal: { category: 'agreed_exception', note: 'Approved by phone', dismissed_at: expect.any(String) },
    });
    expect(
      (await command(tenant, 'dismiss', { alert_ids: [a.id], category: 'agreed_exception', note: 'Approved by phone' }))
        .body,
    ).toEqual({ updated: [], unchanged: [a.id], skipped: [] });
    expect((await command(tenant, 'dismiss', { alert_ids: [a.id], category: 'wrong_price' })).body.updated).toEqual([
      a.id,
    ]);
    expect((await get(a.id)).dismissal).toEqual({
      category: 'wrong_price',
      note: null,
      dismissed_at: dismissed.dismissal.dismissed_at,
    });

    // credit: pending -> credited (by the user); a dismissed alert is skipped; again changes nothing.
    expect((await command(tenant, 'credit', { alert_ids: [a.id, b.id] })).body).toEqual({
      updated: [b.id],
      unchanged: [],
      skipped: [{ id: a.id, reason: 'not_pending' }],
    });
    expect(await get(b.id)).toMatchObject({
      status: 'credited',
      credit: { credited_by: 'user', credited_at: expect.any(String) },
    });
    expect((await command(tenant, 'credit', { alert_ids: [b.id] })).body).toEqual({
      updated: [],
      unchanged: [b.id],
      skipped: [],
    });
    expect((await command(tenant, 'dismiss', { alert_ids: [b.id] })).body.skipped).toEqual([
      { id: b.id, reason: 'not_pending' },
    ]);

    // uncredit: credited -> the status before, the credit removed; again changes nothing; not credited is skipped.
    expect((await command(tenant, 'uncredit', { alert_ids: [b.id, a.id] })).body).toEqual({
      updated: [b.id],
      unchanged: [],
      skipped: [{ id: a.id, reason: 'not_credited' }],
    });
    expect(await get(b.id)).toMatchObject({ status: 'pending', credit: null });
    expect((await command(tenant, 'uncredit', { alert_ids: [b.id] })).body.unchanged).toEqual([b.id]);

    // reopen: dismissed -> pending (reason cleared); credited -> pending with the credit kept.
    expect((await command(tenant, 'reopen', { alert_ids: [a.id] })).body.updated).toEqual([a.id]);
    expect(await get(a.id)).toMatchObject({ status: 'pending', dismissal: null });
    expect((await command(tenant, 'reopen', { alert_ids: [a.id] })).body.unchanged).toEqual([a.id]);
    await command(tenant, 'credit', { alert_ids: [b.id] });
    expect((await command(tenant, 'reopen', { alert_ids: [b.id] })).body.updated).toEqual([b.id]);
    expect(await get(b.id)).toMatchObject({ status: 'pending', credit: { credited_by: 'user' } });

    // An alert in a claim changes only through the claim; a credit recorded by a claim is not the user's to undo.
    const claimId = await claimOf(tenant, c.agreement_id, [c.id]);
    for (const verb of ['dismiss', 'credit', 'uncredit', 'reopen']) {
      expect((await command(tenant, verb, { alert_ids: [c.id] })).body.skipped, verb).toEqual([
        { id: c.id, reason: 'in_claim' },
      ]);
    }
    expect((await command(tenant, 'delete', { alert_ids: [c.id] })).body).toEqual({
      deleted: [],
      unchanged: [],
      skipped: [{ id: c.id, reason: 'in_claim' }],
    });
    await tenant.call(`/v1/claims/${claimId}`, { method: 'DELETE' });
    await testDb().alert.update({
      where: { id: c.id },
      data: { claimId: null, status: 'credited', creditedBy: 'claim', creditedAt: new Date() },
    });
    expect((await command(tenant, 'uncredit', { alert_ids: [c.id] })).body.skipped).toEqual([
      { id: c.id, reason: 'credited_by_claim' },
    ]);
  });

  it('validates bulk requests whole: unknown ids, both or neither selection, filters that name nothing', async () => {
    const tenant = await createTenant();
    const stranger = await createTenant();
    const { agreementId, invoices } = await pair(tenant);
    const alert = await postAlert(tenant, { invoice_id: invoices[0]!.id, agreement_id: agreementId });
    const missing = crypto.randomUUID();
    const rejected = await command(tenant, 'dismiss', { alert_ids: [alert.id, missing] });
    expectError(rejected, 400, 'validation_error');
    expect(rejected.body.error.details).toEqual([{ field: 'alert_ids', message: `no alert ${missing}` }]);
    expect((await tenant.call(`/v1/alerts/${alert.id}`)).body.status).toBe('pending');
    expectError(await command(stranger, 'credit', { alert_ids: [alert.id] }), 400, 'validation_error');
    expectError(
      await command(tenant, 'credit', { alert_ids: [alert.id], filter: { agreement_ids: [agreementId] } }),
      400,
      'validation_error',
    );
    expectError(await command(tenant, 'credit', {}), 400, 'validation_error');
    expectError(await command(tenant, 'credit', { filter: { statuses: ['pending'] } }), 400, 'validation_error');
    expectError(await command(tenant, 'delete', { filter: { search: 'Over' } }), 400, 'validation_error');
    expectError(
      await command(tenant, 'credit', { filter: { agreement_ids: [agreementId], colour: 'red' } }),
      400,
      'validation_error',
    );
    // A filter of another organization's agreement finds nothing.
    expect((await command(stranger, 'credit', { filter: { agreement_ids: [agreementId] } })).body).toEqual({
      updated: [],
      unchanged: [],
      skipped: [],
    });
  });

  it('applies bulk commands by filter, and suggests instruction edits on dismissal unless told not to', async () => {
    const tenant = await createTenant();
    const { agreementId, invoices } = await pair(tenant, [{}, {}]);
    const [first, second] = invoices;
    const a = await postAlert(tenant, { invoice_id: first!.id, agreement_id: agreementId, title: 'Freight charged' });
    const b = await postAlert(tenant, { invoice_id: first!.id, agreement_id: agreementId, title: 'Paper overpriced' });
    const c = await postAlert(tenant, {
      invoice_id: second!.id,
      agreement_id: agreementId,
      title: 'Freight charged again',
    });

    const quiet = await command(tenant, 'dismiss', {
      filter: { invoice_ids: [first!.id], search: 'freight' },
      category: 'agreed_exception',
      suggest_instructions: false,
    });
    expect(quiet.body.updated).toEqual([a.id]);
    expect(await testDb().contextSuggestion.count({ where: { alertId: a.id } })).toBe(0);
    const suggested = await command(tenant, 'dismiss', {
      filter: { agreement_ids: [agreementId], statuses: ['pending'] },
      category: 'other',
      note: 'Freight is agreed separately',
    });
    expect(sorted(suggested.body.updated)).toEqual(sorted([b.id, c.id]));
    expect(await testDb().contextSuggestion.count({ where: { alertId: { in: [b.id, c.id] } } })).toBeGreaterThanOrEqual(
      1,
    );

    expect(
      sorted((await command(tenant, 'reopen', { filter: { agreement_ids: [agreementId] } })).body.updated),
    ).toEqual(sorted([a.id, b.id, c.id]));
    expect((await command(tenant, 'credit', { filter: { invoice_ids: [second!.id] } })).body.updated).toEqual([c.id]);
    const deleted = await command(tenant, 'delete', {
      filter: { agreement_ids: [agreementId], statuses: ['pending'] },
    });
    expect(sorted(deleted.body.deleted)).toEqual(sorted([a.id, b.id]));
    // Removing what is already gone changes nothing.
    expect((await command(tenant, 'delete', { alert_ids: [a.id, c.id] })).body).toEqual({
      deleted: [c.id],
      unchanged: [a.id],
      skipped: [],
    });
    expect((await tenant.call(`/v1/alerts?agreement_ids=${agreementId}`)).body.data).toEqual([]);
  });

  it('lists with every filter, sort and cursor paging', async () => {
    const tenant = await createTenant();
    const acme = await pair(tenant, [{}, { currency: 'NOK' }]);
    const other = await pair(tenant);
    const [eur, nok] = acme.invoices;
    const x = await postAlert(tenant, {
      invoice_id: eur!.id,
      agreement_id: acme.agreementId,
      title: 'Freight charged',
      impact_amount: '12.50',
    });
    const y = await postAlert(tenant, {
      invoice_id: nok!.id,
      agreement_id: acme.agreementId,
      title: 'Paper',
      explanation: 'An unagreed FREIGHT surcharge',
      impact_amount: '100.00',
    });
    const z = await postAlert(tenant, {
      invoice_id: other.invoices[0]!.id,
      agreement_id: other.agreementId,
      impact_amount: '-3.00',
    });
    const topic = (
      await tenant.call('/v1/alert-topics', {
        method: 'POST',
        body: { agreement_id: acme.agreementId, title: 'Freight', alert_ids: [x.id] },
      })
    ).body;
    const claimId = await claimOf(tenant, other.agreementId, [z.id]);
    await command(tenant, 'dismiss', { alert_ids: [y.id] });
    const list = (query: string) => tenant.call(`/v1/alerts?${query}`);

    expect(ids(await list(''))).toEqual(sorted([x.id, y.id, z.id]));
    expect(ids(await list(`invoice_ids=${eur!.id},${nok!.id}`))).toEqual(sorted([x.id, y.id]));
    expect(ids(await list(`agreement_ids=${other.agreementId}`))).toEqual([z.id]);
    expect(ids(await list(`supplier_ids=${acme.supplierId}`))).toEqual(sorted([x.id, y.id]));
    expect(ids(await list(`supplier_ids=${acme.supplierId}&supplier_operator=is_not`))).toEqual([z.id]);
    expect(ids(await list(`topic_ids=${topic.id}`))).toEqual([x.id]);
    expect(ids(await list('topic_ids=null'))).toEqual(sorted([y.id, z.id]));
    expect(ids(await list(`topic_ids=${topic.id},null&agreement_ids=${acme.agreementId}`))).toEqual(
      sorted([x.id, y.id]),
    );
    expect(ids(await list(`claim_ids=${claimId}`))).toEqual([z.id]);
    expect(ids(await list('has_claim=true'))).toEqual([z.id]);
    expect(ids(await list('has_claim=false&has_topic=false'))).toEqual([y.id]);
    expect(ids(await list('has_topic=true'))).toEqual([x.id]);
    expect(ids(await list('statuses=dismissed,claimed'))).toEqual(sorted([y.id, z.id]));
    expect(ids(await list('search=freight'))).toEqual(sorted([x.id, y.id]));
    expect(ids(await list(`created_from=${encodeURIComponent(z.created_at)}`))).toEqual([z.id]);
    expect(ids(await list(`created_before=${encodeURIComponent(y.created_at)}`))).toEqual([x.id]);
    expectError(await list('topic_ids=nothing'), 400, 'validation_error');
    expectError(await list('statuses=open'), 400, 'validation_error');
    expectError(await list('sort=title'), 400, 'validation_error');

    // Newest first by default; impact_amount sorts numerically.
    expect((await list('')).body.data.map((a: any) => a.id)).toEqual([z.id, y.id, x.id]);
    expect((await list('sort=impact_amount&direction=asc')).body.data.map((a: any) => a.impact_amount)).toEqual([
      '-3.00',
      '12.50',
      '100.00',
    ]);
    expect((await list('sort=impact_amount')).body.data.map((a: any) => a.id)).toEqual([y.id, x.id, z.id]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await list(
        `sort=impact_amount&direction=asc&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((a: any) => a.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([z.id, x.id, y.id]);
    const first = await list('limit=1');
    expectError(
      await list(`limit=1&statuses=pending&cursor=${encodeURIComponent(first.body.next_cursor)}`),
      400,
      'validation_error',
    );
    expect((await list('fields=status,topic_id&limit=1')).body.data[0]).toEqual({
      id: z.id,
      status: 'claimed',
      topic_id: null,
    });
  });

  it('totals per status and currency, groups and exports with the same filters', async () => {
    const tenant = await createTenant();
    const acme = await pair(tenant, [{}, { currency: 'NOK' }]);
    const other = await pair(tenant);
    const [eur, nok] = acme.invoices;
    const x = await postAlert(tenant, {
      invoice_id: eur!.id,
      agreement_id: acme.agreementId,
      title: 'Freight, "express"',
      impact_amount: '12.50',
    });
    const y = await postAlert(tenant, { invoice_id: nok!.id, agreement_id: acme.agreementId, impact_amount: '100.00' });
    const w = await postAlert(tenant, { invoice_id: nok!.id, agreement_id: acme.agreementId, impact_amount: '0.25' });
    const z = await postAlert(tenant, {
      invoice_id: other.invoices[0]!.id,
      agreement_id: other.agreementId,
      impact_amount: '7.10',
    });
    const topic = (
      await tenant.call('/v1/alert-topics', {
        method: 'POST',
        body: { agreement_id: acme.agreementId, title: 'Prices', alert_ids: [y.id, w.id] },
      })
    ).body;
    await command(tenant, 'dismiss', { alert_ids: [w.id], category: 'agreed_exception' });
    await command(tenant, 'credit', { alert_ids: [z.id] });

    const metrics = await tenant.call('/v1/alerts/metrics');
    expect(metrics.body).toEqual({
      counts: { total: 4, pending: 2, claimed: 0, credited: 1, dismissed: 1 },
      impact: [
        {
          currency_code: 'EUR',
          total: '19.60',
          pending: '12.50',
          claimed: '0.00',
          credited: '7.10',
          dismissed: '0.00',
        },
        {
          currency_code: 'NOK',
          total: '100.25',
          pending: '100.00',
          claimed: '0.00',
          credited: '0.00',
          dismissed: '0.25',
        },
      ],
    });
    // Filtered by statuses alone, the figures come from the totals kept by triggers: the same as counting the alerts.
    const counted = (query: string) => tenant.call(`/v1/alerts/metrics?${query}&created_from=2000-01-01T00:00:00Z`);
    expect((await counted('')).body).toEqual(metrics.body);
    expect((await tenant.call('/v1/alerts/metrics?statuses=pending,dismissed')).body).toEqual(
      (await counted('statuses=pending,dismissed')).body,
    );
    const narrowed = await tenant.call(`/v1/alerts/metrics?agreement_ids=${acme.agreementId}&statuses=pending`);
    expect(narrowed.body.counts).toEqual({ total: 2, pending: 2, claimed: 0, credited: 0, dismissed: 0 });

    const groups = async (query: string) => (await tenant.call(`/v1/alerts/groups?${query}`)).body.data;
    expect(await groups('group_by=agreement')).toEqual([
      {
        key: acme.agreementId,
        label: 'Supplies',
        count: 3,
        impact: [
          { currency_code: 'EUR', amount: '12.50' },
          { currency_code: 'NOK', amount: '100.25' },
        ],
      },
      { key: other.agreementId, label: 'Supplies', count: 1, impact: [{ currency_code: 'EUR', amount: '7.10' }] },
    ]);
    expect(await groups('group_by=topic')).toEqual([
      { key: null, label: null, count: 2, impact: [{ currency_code: 'EUR', amount: '19.60' }] },
      { key: topic.id, label: 'Prices', count: 2, impact: [{ currency_code: 'NOK', amount: '100.25' }] },
    ]);
    expect(await groups('group_by=status&statuses=pending,dismissed')).toEqual([
      {
        key: 'pending',
        label: 'pending',
        count: 2,
        impact: [
          { currency_code: 'EUR', amount: '12.50' },
          { currency_code: 'NOK', amount: '100.00' },
        ],
      },
      { key: 'dismissed', label: 'dismissed', count: 1, impact: [{ currency_code: 'NOK', amount: '0.25' }] },
    ]);
    const bySupplier = await groups('group_by=supplier');
    expect(bySupplier.map((g: any) => [g.key, g.count])).toEqual([
      [acme.supplierId, 3],
      [other.supplierId, 1],
    ]);
    expect(bySupplier[0].label).toMatch(/^Acme /);
    expect((await groups(`group_by=invoice&invoice_ids=${nok!.id}`)).map((g: any) => [g.key, g.count])).toEqual([
      [nok!.id, 2],
    ]);
    expect((await groups('group_by=topic&fields=count')).map((g: any) => Object.keys(g).sort())).toEqual([
      ['count', 'key'],
      ['count', 'key'],
    ]);
    // By the check that found them: these were all added by people (no checker).
    expect(await groups('group_by=checker')).toEqual([
      {
        key: null,
        label: null,
        count: 4,
        impact: [
          { currency_code: 'EUR', amount: '19.60' },
          { currency_code: 'NOK', amount: '100.25' },
        ],
      },
    ]);
    expectError(await tenant.call('/v1/alerts/groups?group_by=colour'), 400, 'validation_error');

    const csv = await tenant.call(
      `/v1/alerts/export?format=csv&agreement_ids=${acme.agreementId}&sort=impact_amount&direction=desc`,
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('alerts.csv');
    const rows = parse<Record<string, string>>(String(csv.body), { columns: true });
    expect(rows.map((r) => [r.id, r.impact_amount, r.currency_code, r.status, r.topic_id])).toEqual([
      [y.id, '100.00', 'NOK', 'pending', topic.id],
      [x.id, '12.50', 'EUR', 'pending', ''],
      [w.id, '0.25', 'NOK', 'dismissed', topic.id],
    ]);
    expect(rows[1]).toMatchObject({
      title: 'Freight, "express"',
      agreement_title: 'Supplies',
      origin: 'api_key',
      supplier_id: acme.supplierId,
    });
    expect(rows[2]).toMatchObject({ dismissal_category: 'agreed_exception', dismissed_at: expect.any(String) });

    const xlsx = await fetch(`${inject('apiUrl')}/v1/alerts/export?format=xlsx&statuses=credited`, {
      headers: { Authorization: `Bearer ${tenant.apiKey}`, 'X-Organization-Id': tenant.organizationId },
    });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    const sheet = workbook.getWorksheet('Alerts')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toContain('impact_amount');
    const values = (sheet.getRow(2).values as unknown[]).slice(1);
    const cell = (name: string) => values[header.indexOf(name)];
    expect(sheet.rowCount).toBe(2);
    expect([cell('id'), cell('status'), cell('impact_amount'), cell('currency_code'), cell('credited_by')]).toEqual([
      z.id,
      'credited',
      7.1,
      'EUR',
      'user',
    ]);
    expectError(await tenant.call('/v1/alerts/export?format=pdf'), 400, 'validation_error');
  });

  it('sets aside alerts whose match ended: out of lists, totals, groups, exports and bulk commands, back with the match', async () => {
    const tenant = await createTenant();
    const { agreementId, supplierId, invoices } = await pair(tenant);
    const alert = await postAlert(tenant, {
      invoice_id: invoices[0]!.id,
      agreement_id: agreementId,
      impact_amount: '9.00',
    });
    await command(tenant, 'dismiss', { alert_ids: [alert.id], category: 'agreed_exception' });
    const elsewhere = await invoiceOf(tenant, newSupplier('Other'));

    await tenant.call(`/v1/agreements/${agreementId}`, {
      method: 'PATCH',
      body: { supplier_ids: [elsewhere.supplier.id] },
    });
    await refresh(tenant, `/v1/agreements/${agreementId}/invoices/refresh`);
    expect((await tenant.call('/v1/alerts')).body.data).toEqual([]);
    expect((await tenant.call('/v1/alerts/metrics')).body).toEqual({
      counts: { total: 0, pending: 0, claimed: 0, credited: 0, dismissed: 0 },
      impact: [],
    });
    expect((await tenant.call('/v1/alerts/metrics?statuses=dismissed')).body.counts.total).toBe(0);
    expect((await tenant.call('/v1/alerts/groups?group_by=agreement')).body.data).toEqual([]);
    expect(
      String((await tenant.call('/v1/alerts/export')).body)
        .trim()
        .split('\n'),
    ).toHaveLength(1);
    const read = await tenant.call(`/v1/alerts/${alert.id}`);
    expect(read.body).toMatchObject({
      set_aside: true,
      status: 'dismissed',
      dismissal: { category: 'agreed_exception' },
    });
    expect((await command(tenant, 'reopen', { alert_ids: [alert.id] })).body).toEqual({
      updated: [],
      unchanged: [],
      skipped: [{ id: alert.id, reason: 'set_aside' }],
    });
    expect((await command(tenant, 'delete', { filter: { agreement_ids: [agreementId] } })).body).toEqual({
      deleted: [],
      unchanged: [],
      skipped: [],
    });

    // The match returns, and the alert with its decision.
    await tenant.call(`/v1/agreements/${agreementId}`, { method: 'PATCH', body: { supplier_ids: [supplierId] } });
    await refresh(tenant, `/v1/agreements/${agreementId}/invoices/refresh`);
    const back = await tenant.call('/v1/alerts');
    expect(back.body.data).toEqual([
      expect.objectContaining({
        id: alert.id,
        set_aside: false,
        status: 'dismissed',
        dismissal: expect.objectContaining({ category: 'agreed_exception' }),
      }),
    ]);
    expect((await tenant.call('/v1/alerts/metrics')).body.counts.dismissed).toBe(1);
  });

  it('needs the write level to change alerts', async () => {
    const tenant = await createTenant({ role: 'read' });
    expectError(await command(tenant, 'credit', { alert_ids: [crypto.randomUUID()] }), 403, 'insufficient_level');
    expect((await tenant.call('/v1/alerts')).status).toBe(200);
  });
});
