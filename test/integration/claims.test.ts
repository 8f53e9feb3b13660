import { describe, expect, inject, it } from 'vitest';
import { expectError } from '../support/api.js';
import { alertOf, alertOn, claimOf, claimSetup, createClaim, setStatus } from '../support/claims.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

const command = (tenant: Tenant, verb: string, body: object) =>
  tenant.call(`/v1/alerts/${verb}`, { method: 'POST', body });
const addAlerts = (tenant: Tenant, claimId: string, body: object) =>
  tenant.call(`/v1/claims/${claimId}/alerts`, { method: 'POST', body });
const removeAlerts = (tenant: Tenant, claimId: string, body: object) =>
  tenant.call(`/v1/claims/${claimId}/alerts/remove`, { method: 'POST', body });
const ids = (response: { body: { data: { id: string }[] } }) => response.body.data.map((c) => c.id);

describe('claims', () => {
  it('are created with a reference and their alerts claimed, read with an ETag, patched under If-Match, replayed by Idempotency-Key', async () => {
    const tenant = await createTenant();
    const { agreementId, supplierId, invoices } = await claimSetup(tenant, [{}, { currency: 'NOK' }]);
    const a = await alertOn(tenant, invoices[0]!.id, agreementId, { impact_amount: '10.00' });
    const b = await alertOn(tenant, invoices[0]!.id, agreementId, { impact_amount: '2.505' });
    const c = await alertOn(tenant, invoices[1]!.id, agreementId, { impact_amount: '100.00' });

    const created = await tenant.call('/v1/claims', {
      method: 'POST',
      body: {
        agreement_id: agreementId,
        title: 'Paper overcharges',
        alerts: { alert_ids: [a, b, c] },
        supplier_contact: { name: 'Åsa Müller', email: 'ar@supplier.test' },
        note: 'Please credit.',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const claim = created.body;
    expect(created.headers.get('location')).toBe(`/v1/claims/${claim.id}`);
    expect(claim).toMatchObject({
      agreement_id: agreementId,
      supplier_id: supplierId,
      reference: expect.stringMatching(/^CLM-\d{4}-\d{4}$/),
      title: 'Paper overcharges',
      status: 'pending',
      supplier_contact: { name: 'Åsa Müller', email: 'ar@supplier.test' },
      note: 'Please credit.',
      summary: {
        counts: { total: 3, pending: 0, claimed: 3, credited: 0, dismissed: 0 },
        claimed: [
          { currency_code: 'EUR', amount: '12.505' },
          { currency_code: 'NOK', amount: '100.00' },
        ],
        pending: [],
      },
      refund_summary: [],
      refunds: [],
      credit_notes: [],
      created_by: { user_id: tenant.userId, api_key_id: tenant.apiKeyId },
      completed_at: null,
      cancelled_at: null,
      // Absolute under APP_BASE_URL (the test API's own address), like an invoice's url.
      url: `${inject('apiUrl')}/app/claims/${claim.id}`,
    });
    for (const id of [a, b, c])
      expect(await alertOf(tenant, id)).toMatchObject({ status: 'claimed', claim_id: claim.id });

    // References count up in the organization.
    const second = await createClaim(tenant, { agreement_id: agreementId });
    const number = (reference: string) => Number(reference.split('-')[2]);
    expect(number(second.reference)).toBe(number(claim.reference) + 1);
    expect(second.summary.counts.total).toBe(0);

    const read = await tenant.call(`/v1/claims/${claim.id}`);
    expect(read.body).toEqual(claim);
    const etag = read.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect((await tenant.call(`/v1/claims/${claim.id}?fields=reference,summary.claimed`)).body).toEqual({
      id: claim.id,
      reference: claim.reference,
      summary: { claimed: claim.summary.claimed },
    });
    expectError(await tenant.call(`/v1/claims/${claim.id}?fields=nope`), 400, 'validation_error');

    expectError(
      await tenant.call(`/v1/claims/${claim.id}`, {
        method: 'PATCH',
        body: { title: 'x' },
        headers: { 'If-Match': '"stale"' },
      }),
      412,
      'precondition_failed',
    );
    const patched = await tenant.call(`/v1/claims/${claim.id}`, {
      method: 'PATCH',
      body: { title: 'Paper and toner', supplier_contact: null, note: null },
      headers: { 'If-Match': etag },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      title: 'Paper and toner',
      supplier_contact: null,
      note: null,
      status: 'pending',
    });
    expectError(
      await tenant.call(`/v1/claims/${claim.id}`, {
        method: 'PATCH',
        body: { title: 'y' },
        headers: { 'If-Match': etag },
      }),
      412,
      'precondition_failed',
    );
    // What a client reads, it can write back.
    const { title, supplier_contact, note, status } = patched.body;
    expect(
      (
        await tenant.call(`/v1/claims/${claim.id}`, {
          method: 'PATCH',
          body: { title, supplier_contact, note, status },
        })
      ).body,
    ).toEqual((await tenant.call(`/v1/claims/${claim.id}`)).body);

    const headers = { 'Idempotency-Key': `claim-${crypto.randomUUID()}` };
    const body = { agreement_id: agreementId, title: 'Once' };
    const first = await tenant.call('/v1/claims', { method: 'POST', body, headers });
    const again = await tenant.call('/v1/claims', { method: 'POST', body, headers });
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectError(
      await tenant.call('/v1/claims', { method: 'POST', body: { ...body, title: 'Twice' }, headers }),
      409,
      'idempotency_key_reused',
    );

    // Rejected requests change nothing.
    const before = await testDb().claim.count({ where: { organizationId: tenant.organizationId } });
    const unknownAgreement = await tenant.call('/v1/claims', {
      method: 'POST',
      body: { agreement_id: crypto.randomUUID(), title: 'T' },
    });
    expectError(unknownAgreement, 400, 'validation_error');
    expect(unknownAgreement.body.error.details[0].field).toBe('agreement_id');
    const unknownAlert = await tenant.call('/v1/claims', {
      method: 'POST',
      body: { agreement_id: agreementId, title: 'T', alerts: { alert_ids: [crypto.randomUUID()] } },
    });
    expectError(unknownAlert, 400, 'validation_error');
    expectError(
      await tenant.call('/v1/claims', { method: 'POST', body: { agreement_id: agreementId, title: 'T', alerts: {} } }),
      400,
      'validation_error',
    );
    expectError(
      await tenant.call('/v1/claims', {
        method: 'POST',
        body: { agreement_id: agreementId, title: 'T', alerts: { filter: { statuses: ['pending'] } } },
      }),
      400,
      'validation_error',
    );
    expectError(
      await tenant.call('/v1/claims', {
        method: 'POST',
        body: { agreement_id: agreementId, title: 'T', supplier_id: crypto.randomUUID() },
      }),
      400,
      'validation_error',
    );
    expectError(
      await tenant.call(`/v1/claims/${claim.id}`, { method: 'PATCH', body: { status: 'done' } }),
      400,
      'validation_error',
    );
    expect(await testDb().claim.count({ where: { organizationId: tenant.organizationId } })).toBe(before);
    expectError(await tenant.call(`/v1/claims/${crypto.randomUUID()}`), 404, 'not_found');
    expectError(await tenant.call('/v1/claims/not-a-uuid'), 400, 'validation_error');
  });

  it('lists with filters, search, sort and cursor paging', async () => {
    const tenant = await createTenant();
    const first = await claimSetup(tenant, [{}]);
    const second = await claimSetup(tenant, [{}]);
    const x = await createClaim(tenant, { agreement_id: first.agreementId, title: 'Freight charged' });
    const y = await createClaim(tenant, { agreement_id: first.agreementId, title: 'Paper price' });
    const z = await createClaim(tenant, { agreement_id: second.agreementId, title: 'Toner price' });
    await setStatus(tenant, y.id, 'in_progress');
    const list = (query: string) => tenant.call(`/v1/claims?${query}`);

    expect(ids(await list(''))).toEqual([z.id, y.id, x.id]);
    expect(ids(await list(`agreement_ids=${first.agreementId}`))).toEqual([y.id, x.id]);
    expect(ids(await list('statuses=in_progress,completed'))).toEqual([y.id]);
    expect(ids(await list(`supplier_ids=${second.supplierId}`))).toEqual([z.id]);
    expect(ids(await list(`supplier_ids=${second.supplierId}&supplier_operator=is_not`))).toEqual([y.id, x.id]);
    expect(ids(await list('search=PRICE'))).toEqual([z.id, y.id]);
    expect(ids(await list(`search=${x.reference.toLowerCase()}`))).toEqual([x.id]);
    expect(ids(await list(`created_from=${encodeURIComponent(y.created_at)}`))).toEqual([z.id, y.id]);
    expect(ids(await list(`created_before=${encodeURIComponent(y.created_at)}`))).toEqual([x.id]);
    const updatedY = (await claimOf(tenant, y.id)).updated_at;
    expect(ids(await list(`updated_from=${encodeURIComponent(updatedY)}`))).toContain(y.id);
    expect(ids(await list(`updated_before=${encodeURIComponent(updatedY)}`))).not.toContain(y.id);
    expect(ids(await list('sort=title&direction=asc'))).toEqual([x.id, y.id, z.id]);
    expect(ids(await list('sort=reference&direction=asc'))).toEqual([x.id, y.id, z.id]);

    const page1 = await list('limit=2');
    expect(ids(page1)).toEqual([z.id, y.id]);
    const page2 = await list(`limit=2&cursor=${page1.body.next_cursor}`);
    expect(ids(page2)).toEqual([x.id]);
    expect(page2.body.next_cursor).toBeNull();
    expectError(await list(`limit=2&statuses=pending&cursor=${page1.body.next_cursor}`), 400, 'validation_error');
    expectError(await list('statuses=open'), 400, 'validation_error');
    expectError(await list('limit=1001'), 400, 'validation_error');
  });

  it('takes alerts in and out: one claim per alert, refusals said per alert, moves only when asked, repeats change nothing', async () => {
    const tenant = await createTenant();
    const { agreementId, invoices } = await claimSetup(tenant, [{}]);
    const other = await claimSetup(tenant, [{}]);
    const invoiceId = invoices[0]!.id;
    const [a, b, dismissed, credited] = [
      await alertOn(tenant, invoiceId, agreementId, { impact_amount: '1.00' }),
      await alertOn(tenant, invoiceId, agreementId, { impact_amount: '2.00' }),
      await alertOn(tenant, invoiceId, agreementId),
      await alertOn(tenant, invoiceId, agreementId),
    ];
    const foreign = await alertOn(tenant, other.invoices[0]!.id, other.agreementId);
    await command(tenant, 'dismiss', { alert_ids: [dismissed] });
    await command(tenant, 'credit', { alert_ids: [credited] });
    const claim = await createClaim(tenant, { agreement_id: agreementId, alerts: { alert_ids: [a] } });

    const added = await addAlerts(tenant, claim.id, { alert_ids: [a, b] });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ added: [b], moved: [], removed: [], unchanged: [a], skipped: [] });
    expect(added.body.claim.summary.claimed).toEqual([{ currency_code: 'EUR', amount: '3.00' }]);
    expect((await addAlerts(tenant, claim.id, { alert_ids: [a, b] })).body).toMatchObject({
      added: [],
      unchanged: expect.arrayContaining([a, b]),
    });

    // Named alerts are all or nothing, with the reason per alert.
    const refused = await addAlerts(tenant, claim.id, { alert_ids: [dismissed, credited, foreign] });
    expectError(refused, 409, 'alerts_not_claimable');
    expect(refused.body.error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ alert_id: dismissed, reason: 'dismissed' }),
        expect.objectContaining({ alert_id: credited, reason: 'credited' }),
        expect.objectContaining({ alert_id: foreign, reason: 'other_agreement' }),
      ]),
    );
    expect(await alertOf(tenant, dismissed)).toMatchObject({ status: 'dismissed', claim_id: null });
    expect(await alertOf(tenant, credited)).toMatchObject({ status: 'credited', claim_id: null });
    expect(await alertOf(tenant, foreign)).toMatchObject({ status: 'pending', claim_id: null });
    const unknown = await addAlerts(tenant, claim.id, { alert_ids: [crypto.randomUUID()] });
    expectError(unknown, 400, 'validation_error');

    // A second claim: a claimed alert moves only with move_from_open_claims.
    const c = await alertOn(tenant, invoiceId, agreementId, { impact_amount: '4.00' });
    const second = await createClaim(tenant, {
      agreement_id: agreementId,
      alerts: { filter: { agreement_ids: [agreementId] } },
    });
    // The filter took the free pending alert and skipped the rest, saying why.
    expect(second.summary.counts).toMatchObject({ claimed: 1, total: 1 });
    expect(await alertOf(tenant, c)).toMatchObject({ status: 'claimed', claim_id: second.id });
    const notMoved = await addAlerts(tenant, second.id, { alert_ids: [a] });
    expectError(notMoved, 409, 'alerts_not_claimable');
    expect(notMoved.body.error.details).toEqual([expect.objectContaining({ alert_id: a, reason: 'in_other_claim' })]);
    const byFilter = await addAlerts(tenant, second.id, { filter: { claim_ids: [claim.id] } });
    expect(byFilter.body.skipped).toEqual(
      expect.arrayContaining([
        { id: a, reason: 'in_other_claim' },
        { id: b, reason: 'in_other_claim' },
      ]),
    );
    const moved = await addAlerts(tenant, second.id, { alert_ids: [a], move_from_open_claims: true });
    expect(moved.body).toMatchObject({ added: [], moved: [a] });
    expect(await alertOf(tenant, a)).toMatchObject({ status: 'claimed', claim_id: second.id });
    expect((await claimOf(tenant, claim.id)).summary.claimed).toEqual([{ currency_code: 'EUR', amount: '2.00' }]);

    // An alert in a claim changes only through the claim.
    expect((await command(tenant, 'dismiss', { alert_ids: [a] })).body.skipped).toEqual([
      { id: a, reason: 'in_claim' },
    ]);
    expectError(await tenant.call(`/v1/alerts/${a}`, { method: 'DELETE' }), 409, 'alert_in_claim');

    // Out: claimed -> pending; an alert the claim does not hold is unchanged.
    const removed = await removeAlerts(tenant, claim.id, { alert_ids: [a, b] });
    expect(removed.body).toMatchObject({ removed: [b], unchanged: [a] });
    expect(await alertOf(tenant, b)).toMatchObject({ status: 'pending', claim_id: null });
    expect(await alertOf(tenant, a)).toMatchObject({ status: 'claimed', claim_id: second.id });
    expect((await removeAlerts(tenant, claim.id, { alert_ids: [b] })).body).toMatchObject({
      removed: [],
      unchanged: [b],
    });
    expect((await removeAlerts(tenant, second.id, { filter: { claim_ids: [second.id] } })).body.removed.sort()).toEqual(
      [a, c].sort(),
    );
    expect((await claimOf(tenant, second.id)).summary.counts.total).toBe(0);
    expectError(await removeAlerts(tenant, second.id, { alert_ids: [crypto.randomUUID()] }), 400, 'validation_error');
  });

  it('follows the claim transition table: progress, complete (alerts frozen), reopen, cancel, revive, repeats', async () => {
    const tenant = await createTenant();
    const { agreementId, invoices } = await claimSetup(tenant, [{}]);
    const invoiceId = invoices[0]!.id;
    const [x, y, z] = [
      await alertOn(tenant, invoiceId, agreementId),
      await alertOn(tenant, invoiceId, agreementId),
      await alertOn(tenant, invoiceId, agreementId),
    ];
    const claim = await createClaim(tenant, { agreement_id: agreementId, alerts: { alert_ids: [x, y] } });

    expect((await setStatus(tenant, claim.id, 'pending')).body.status).toBe('pending');
    expect((await setStatus(tenant, claim.id, 'in_progress')).body.status).toBe('in_progress');
    expectError(await setStatus(tenant, claim.id, 'pending'), 409, 'invalid_transition');

    // Completed: the claim's alerts cannot change or be deleted through any alert endpoint.
    const completed = await setStatus(tenant, claim.id, 'completed');
    expect(completed.body).toMatchObject({ status: 'completed', completed_at: expect.any(String) });
    expect((await setStatus(tenant, claim.id, 'completed')).body.completed_at).toBe(completed.body.completed_at);
    for (const verb of ['dismiss', 'credit', 'uncredit', 'reopen', 'delete']) {
      expectError(await command(tenant, verb, { alert_ids: [x, z] }), 409, 'alert_in_completed_claim');
    }
    expect(await alertOf(tenant, z)).toMatchObject({ status: 'pending' });
    expect((await command(tenant, 'dismiss', { filter: { agreement_ids: [agreementId] } })).body).toEqual({
      updated: [z],
      unchanged: [],
      skipped: expect.arrayContaining([
        { id: x, reason: 'claim_completed' },
        { id: y, reason: 'claim_completed' },
      ]),
    });
    await command(tenant, 'reopen', { alert_ids: [z] });
    expectError(
      await tenant.call(`/v1/alerts/${x}`, { method: 'PATCH', body: { title: 'Changed' } }),
      409,
      'alert_in_completed_claim',
    );
    expectError(await tenant.call(`/v1/alerts/${x}`, { method: 'DELETE' }), 409, 'alert_in_completed_claim');
    expectError(
      await tenant.call('/v1/alert-topics', {
        method: 'POST',
        body: { agreement_id: agreementId, title: 'T', alert_ids: [x] },
      }),
      409,
      'alert_in_completed_claim',
    );
    expectError(await addAlerts(tenant, claim.id, { alert_ids: [z] }), 409, 'claim_completed');
    expectError(await removeAlerts(tenant, claim.id, { alert_ids: [x] }), 409, 'claim_completed');
    expectError(await tenant.call(`/v1/claims/${claim.id}`, { method: 'DELETE' }), 409, 'claim_completed');
    expect(await alertOf(tenant, x)).toMatchObject({ status: 'claimed', claim_id: claim.id, title: 'Overcharged' });

    // Reopen (completed -> in_progress): alerts changeable again.
    const reopened = await setStatus(tenant, claim.id, 'in_progress');
    expect(reopened.body).toMatchObject({ status: 'in_progress', completed_at: null });
    expect((await tenant.call(`/v1/alerts/${x}`, { method: 'PATCH', body: { title: 'Changed' } })).status).toBe(200);
    expect((await removeAlerts(tenant, claim.id, { alert_ids: [y] })).body.removed).toEqual([y]);
    await addAlerts(tenant, claim.id, { alert_ids: [y] });

    // Cancel: pending and claimed alerts become dismissed; credited ones stay credited.
    await testDb().alert.update({
      where: { id: y },
      data: { status: 'credited', creditedBy: 'user', creditedAt: new Date(), statusBeforeCredit: 'pending' },
    });
    const cancelled = await setStatus(tenant, claim.id, 'cancelled');
    expect(cancelled.body).toMatchObject({
      status: 'cancelled',
      cancelled_at: expect.any(String),
      summary: { counts: { claimed: 0, dismissed: 1, credited: 1 } },
    });
    expect(await alertOf(tenant, x)).toMatchObject({
      status: 'dismissed',
      claim_id: claim.id,
      dismissal: { category: 'claim_cancelled' },
    });
    expect(await alertOf(tenant, y)).toMatchObject({ status: 'credited', claim_id: claim.id });
    expect((await setStatus(tenant, claim.id, 'cancelled')).body.cancelled_at).toBe(cancelled.body.cancelled_at);
    expectError(await addAlerts(tenant, claim.id, { alert_ids: [z] }), 409, 'claim_cancelled');

    // Leaving cancelled claims the alerts the cancellation dismissed again.
    const revived = await setStatus(tenant, claim.id, 'in_progress');
    expect(revived.body).toMatchObject({
      status: 'in_progress',
      cancelled_at: null,
      summary: { counts: { claimed: 1, credited: 1 } },
    });
    expect(await alertOf(tenant, x)).toMatchObject({ status: 'claimed', dismissal: null });

    // A cancelled claim holds nothing back: reopening its dismissed alert frees it for another claim.
    await setStatus(tenant, claim.id, 'cancelled');
    expect((await command(tenant, 'reopen', { alert_ids: [x] })).body.updated).toEqual([x]);
    expect(await alertOf(tenant, x)).toMatchObject({ status: 'pending', claim_id: null });
    const next = await createClaim(tenant, { agreement_id: agreementId, alerts: { alert_ids: [x] } });
    expect(await alertOf(tenant, x)).toMatchObject({ status: 'claimed', claim_id: next.id });
    expect((await claimOf(tenant, claim.id)).summary.counts).toMatchObject({ total: 1, credited: 1 });
  });

  it('is deleted with its claimed alerts returned to pending or dismissed, as alert_outcome says', async () => {
    const tenant = await createTenant();
    const { agreementId, invoices } = await claimSetup(tenant, [{}]);
    const invoiceId = invoices[0]!.id;
    const [p, d] = [await alertOn(tenant, invoiceId, agreementId), await alertOn(tenant, invoiceId, agreementId)];
    const toPending = await createClaim(tenant, { agreement_id: agreementId, alerts: { alert_ids: [p] } });
    const toDismissed = await createClaim(tenant, { agreement_id: agreementId, alerts: { alert_ids: [d] } });
    await tenant.call(`/v1/claims/${toPending.id}/refunds`, {
      method: 'POST',
      body: { amount: '1.00', currency_code: 'EUR' },
    });

    expectError(
      await tenant.call(`/v1/claims/${toPending.id}`, { method: 'DELETE', headers: { 'If-Match': '"stale"' } }),
      412,
      'precondition_failed',
    );
    expectError(
      await tenant.call(`/v1/claims/${toPending.id}?alert_outcome=kept`, { method: 'DELETE' }),
      400,
      'validation_error',
    );
    expect(await alertOf(tenant, p)).toMatchObject({ status: 'claimed' });

    const etag = (await tenant.call(`/v1/claims/${toPending.id}`)).headers.get('etag')!;
    expect(
      (await tenant.call(`/v1/claims/${toPending.id}`, { method: 'DELETE', headers: { 'If-Match': etag } })).status,
    ).toBe(204);
    expect(await alertOf(tenant, p)).toMatchObject({ status: 'pending', claim_id: null, dismissal: null });
    expectError(await tenant.call(`/v1/claims/${toPending.id}`), 404, 'not_found');
    expectError(await tenant.call(`/v1/claims/${toPending.id}`, { method: 'DELETE' }), 404, 'not_found');
    expect(await testDb().claimRefund.count({ where: { claimId: toPending.id } })).toBe(0);

    expect(
      (await tenant.call(`/v1/claims/${toDismissed.id}?alert_outcome=dismissed`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect(await alertOf(tenant, d)).toMatchObject({
      status: 'dismissed',
      claim_id: null,
      dismissal: { category: 'claim_deleted' },
    });

    // An agreement with claims is not deleted with them.
    const kept = await createClaim(tenant, { agreement_id: agreementId });
    expectError(await tenant.call(`/v1/agreements/${agreementId}`, { method: 'DELETE' }), 409, 'agreement_has_claims');
    expect((await claimOf(tenant, kept.id)).id).toBe(kept.id);
  });
});
