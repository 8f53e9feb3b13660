import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import {
  insertAlert,
  invoiceOf,
  matchedAgreement,
  newSupplier,
  paperAndTonerPair,
  postAlert,
} from '../support/alerts.js';
import { call, eventually, expectError } from '../support/api.js';
import { uploadDocument } from '../support/invoices.js';
import { performCheck } from '../../src/checks/perform.js';
import { createTenant, keyFor, testDb, type Tenant } from '../support/tenants.js';
import { createApiKey } from '../../src/admin/service.js';
import { alertOn, claimSetup, createClaim } from '../support/claims.js';

// Every change of money-relevant state leaves an activity entry naming who made it, written in
// the change's own transaction (docs/audit.md); a rejected change leaves none.

async function entriesOf(tenant: Tenant, entityId: string) {
  return testDb().activityEntry.findMany({
    where: { organizationId: tenant.organizationId, entityId },
    orderBy: [{ createdAt: 'asc' }, { action: 'asc' }],
  });
}

async function allEntries(tenant: Tenant) {
  return testDb().activityEntry.count({ where: { organizationId: tenant.organizationId } });
}

function byKeyOf(tenant: Tenant, apiKeyId = tenant.apiKeyId) {
  return { actorType: 'api_key', actorUserId: tenant.userId, actorApiKeyId: apiKeyId, actorRunId: null };
}

async function alertSetup(tenant: Tenant) {
  const supplier = newSupplier();
  const invoice = await invoiceOf(tenant, supplier);
  const agreementId = await matchedAgreement(tenant, [invoice.supplier.id]);
  return { invoice, agreementId };
}

describe('activity entries', () => {
  it('record alert creation, edits and every command with the key and user that made them', async () => {
    const tenant = await createTenant();
    const { invoice, agreementId } = await alertSetup(tenant);
    const alert = await postAlert(tenant, { invoice_id: invoice.id, agreement_id: agreementId });

    let entries = await entriesOf(tenant, alert.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ entityType: 'alert', action: 'created', ...byKeyOf(tenant) });
    expect(entries[0]!.changes).toMatchObject({
      status: { before: null, after: 'pending' },
      impact_amount: { before: null, after: '10.00' },
    });

    // Another key of the same user is recorded as that key.
    const writeKey = await createApiKey(testDb(), {
      organizationId: tenant.organizationId,
      userId: tenant.userId,
      level: 'write',
    });
    const patched = await call(`/v1/alerts/${alert.id}`, {
      method: 'PATCH',
      token: writeKey.key,
      organizationId: tenant.organizationId,
      body: { impact_amount: '12.50' },
    });
    expect(patched.status).toBe(200);
    // Sending the same value again changes nothing and records nothing.
    expect(
      (await tenant.call(`/v1/alerts/${alert.id}`, { method: 'PATCH', body: { impact_amount: '12.50' } })).status,
    ).toBe(200);
    entries = await entriesOf(tenant, alert.id);
    expect(entries).toHaveLength(2);
    expect(entries[1]).toMatchObject({
      action: 'updated',
      ...byKeyOf(tenant, writeKey.id),
      changes: { impact_amount: { before: '10.00', after: '12.50' } },
    });

    for (const [verb, action, status] of [
      ['dismiss', 'dismissed', 'dismissed'],
      ['reopen', 'reopened', 'pending'],
      ['credit', 'credited', 'credited'],
      ['uncredit', 'uncredited', 'pending'],
    ] as const) {
      const before = (await tenant.call(`/v1/alerts/${alert.id}`)).body.status;
      const response = await tenant.call(`/v1/alerts/${verb}`, {
        method: 'POST',
        body: {
          alert_ids: [alert.id],
          ...(verb === 'dismiss' ? { category: 'agreed', suggest_instructions: false } : {}),
        },
      });
      expect(response.body.updated, verb).toEqual([alert.id]);
      const last = (await entriesOf(tenant, alert.id)).at(-1)!;
      expect(last, verb).toMatchObject({ action, ...byKeyOf(tenant) });
      expect((last.changes as Record<string, { before: unknown; after: unknown }>).status).toEqual({
        before,
        after: status,
      });
    }
    // A repeated command changes nothing and records nothing.
    const count = (await entriesOf(tenant, alert.id)).length;
    await tenant.call('/v1/alerts/reopen', { method: 'POST', body: { alert_ids: [alert.id] } });
    expect(await entriesOf(tenant, alert.id)).toHaveLength(count);

    expect((await tenant.call(`/v1/alerts/${alert.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await entriesOf(tenant, alert.id)).at(-1)).toMatchObject({
      action: 'deleted',
      ...byKeyOf(tenant),
      changes: { title: { before: 'Overcharged', after: null } },
    });

    const second = await postAlert(tenant, { invoice_id: invoice.id, agreement_id: agreementId });
    expect(
      (await tenant.call('/v1/alerts/delete', { method: 'POST', body: { alert_ids: [second.id] } })).body.deleted,
    ).toEqual([second.id]);
    expect((await entriesOf(tenant, second.id)).map((e) => e.action)).toEqual(['created', 'deleted']);
  });

  it('record topic changes and alerts moved between topics; an emptied topic removed with its last alert', async () => {
    const tenant = await createTenant();
    const { invoice, agreementId } = await alertSetup(tenant);
    const alert = await postAlert(tenant, { invoice_id: invoice.id, agreement_id: agreementId });
    const topic = (
      await tenant.call('/v1/alert-topics', {
        method: 'POST',
        body: { agreement_id: agreementId, title: 'Prices', alert_ids: [alert.id] },
      })
    ).body;
    expect((await entriesOf(tenant, topic.id)).map((e) => [e.action, e.changes])).toEqual([
      [
        'created',
        {
          agreement_id: { before: null, after: agreementId },
          title: { before: null, after: 'Prices' },
          is_locked: { before: null, after: false },
        },
      ],
    ]);
    expect((await entriesOf(tenant, alert.id)).at(-1)).toMatchObject({
      action: 'topic_changed',
      changes: { topic_id: { before: null, after: topic.id } },
    });

    await tenant.call(`/v1/alert-topics/${topic.id}`, {
      method: 'PATCH',
      body: { title: 'Unit prices', is_locked: false },
    });
    expect((await entriesOf(tenant, topic.id)).at(-1)).toMatchObject({
      action: 'updated',
      ...byKeyOf(tenant),
      changes: { title: { before: 'Prices', after: 'Unit prices' } },
    });

    await tenant.call(`/v1/alerts/${alert.id}`, { method: 'DELETE' });
    expect(await testDb().alertTopic.findUnique({ where: { id: topic.id } })).toBeNull();
    expect((await entriesOf(tenant, topic.id)).at(-1)).toMatchObject({ action: 'deleted', ...byKeyOf(tenant) });
  });

  it('record price item additions, edits and removals (by ids and by search)', async () => {
    const tenant = await createTenant();
    const agreement = (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Prices' } })).body;
    const created = await tenant.call(`/v1/agreements/${agreement.id}/price-items`, {
      method: 'POST',
      body: {
        entries: [
          { description: 'Paper', price: { type: 'amount', amount: '4.50' } },
          { description: 'Toner', price: { type: 'amount', amount: '80' } },
        ],
      },
    });
    expect(created.status).toBe(201);
    const [paper, toner] = created.body.data;
    expect((await entriesOf(tenant, paper.id))[0]).toMatchObject({
      entityType: 'price_item',
      action: 'created',
      ...byKeyOf(tenant),
      changes: { price: { before: null, after: paper.price } },
    });

    await tenant.call(`/v1/agreements/${agreement.id}/price-items`, {
      method: 'PATCH',
      body: {
        entries: [
          { id: paper.id, price: { type: 'amount', amount: '4.75' } },
          { id: toner.id, description: 'Toner' },
        ],
      },
    });
    const repriced = (await tenant.call(`/v1/agreements/${agreement.id}/price-items?search=paper`)).body.data[0];
    expect((await entriesOf(tenant, paper.id)).at(-1)).toMatchObject({
      action: 'updated',
      changes: { price: { before: paper.price, after: repriced.price } },
    });
    expect(repriced.price).not.toEqual(paper.price);
    // The toner entry repeated what it was: nothing recorded.
    expect(await entriesOf(tenant, toner.id)).toHaveLength(1);

    expect(
      (
        await tenant.call(`/v1/agreements/${agreement.id}/price-items/delete`, {
          method: 'POST',
          body: { search: 'toner' },
        })
      ).body,
    ).toEqual({ deleted: 1 });
    expect(
      (
        await tenant.call(`/v1/agreements/${agreement.id}/price-items/delete`, {
          method: 'POST',
          body: { ids: [paper.id] },
        })
      ).body,
    ).toEqual({ deleted: 1 });
    for (const item of [paper, toner])
      expect((await entriesOf(tenant, item.id)).at(-1)).toMatchObject({ action: 'deleted', ...byKeyOf(tenant) });
  });

  it('record agreement terms and instructions, and invoice amounts and lines', async () => {
    const tenant = await createTenant();
    const agreement = (
      await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Terms', instructions: 'Net 30' } })
    ).body;
    await tenant.call(`/v1/agreements/${agreement.id}`, {
      method: 'PATCH',
      body: { instructions: 'Net 45', title: 'Terms' },
    });
    const agreementEntries = await entriesOf(tenant, agreement.id);
    expect(agreementEntries.map((e) => e.action)).toEqual(['created', 'updated']);
    expect(agreementEntries[1]).toMatchObject({
      entityType: 'agreement',
      ...byKeyOf(tenant),
      changes: { instructions: { before: 'Net 30', after: 'Net 45' } },
    });
    expect(Object.keys(agreementEntries[1]!.changes as object)).toEqual(['instructions']);

    const invoice = await invoiceOf(tenant, newSupplier());
    const patched = await tenant.call(`/v1/invoices/${invoice.id}`, {
      method: 'PATCH',
      body: {
        line_items: [{ description: 'Paper', quantity: '10', unit_price: '5.00', net_amount: '50.00' }],
        amounts: { excluding_vat: '50.00', including_vat: '50.00' },
      },
    });
    expect(patched.status).toBe(200);
    // Its creation over the API came first (as the key); then the patch.
    expect((await entriesOf(tenant, invoice.id))[0]).toMatchObject({
      entityType: 'invoice',
      action: 'created',
      ...byKeyOf(tenant),
    });
    const entry = (await entriesOf(tenant, invoice.id)).find((e) => e.action === 'updated');
    expect(entry).toMatchObject({ entityType: 'invoice', action: 'updated', ...byKeyOf(tenant) });
    const changes = entry!.changes as Record<string, { before: any; after: any }>;
    expect(changes.amounts!.before.including_vat).toBe('55.00');
    expect(changes.amounts!.after.including_vat).toBe('50.00');
    expect(changes.line_items!.before[0].unit_price).toBe((invoice as any).line_items[0].unit_price);
    expect(changes.line_items!.after[0].unit_price).toBe(patched.body.line_items[0].unit_price);

    // Deletions keep what the record was.
    expect((await tenant.call(`/v1/invoices/${invoice.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await entriesOf(tenant, invoice.id)).at(-1)).toMatchObject({
      action: 'deleted',
      ...byKeyOf(tenant),
      changes: { amounts: { after: null } },
    });
    expect((await tenant.call(`/v1/agreements/${agreement.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await entriesOf(tenant, agreement.id)).at(-1)).toMatchObject({
      action: 'deleted',
      ...byKeyOf(tenant),
      changes: { instructions: { before: 'Net 45', after: null } },
    });
  });

  it('are not written for a change that is rejected', async () => {
    const tenant = await createTenant();
    const { invoice, agreementId } = await alertSetup(tenant);
    const alert = await postAlert(tenant, { invoice_id: invoice.id, agreement_id: agreementId });
    const before = await allEntries(tenant);

    expectError(
      await tenant.call('/v1/alerts/dismiss', {
        method: 'POST',
        body: { alert_ids: [alert.id, '00000000-0000-4000-8000-000000000000'] },
      }),
      400,
      'validation_error',
    );
    expectError(
      await tenant.call(`/v1/alerts/${alert.id}`, {
        method: 'PATCH',
        body: { topic_id: '00000000-0000-4000-8000-000000000000' },
      }),
      400,
      'validation_error',
    );
    expectError(
      await tenant.call(`/v1/agreements/${agreementId}`, {
        method: 'PATCH',
        body: { instructions: 'x', supplier_ids: ['00000000-0000-4000-8000-000000000000'] },
      }),
      400,
      'validation_error',
    );
    expectError(
      await tenant.call(`/v1/agreements/${agreementId}/price-items`, {
        method: 'PATCH',
        body: { entries: [{ id: '00000000-0000-4000-8000-000000000000', description: 'x' }] },
      }),
      400,
      'validation_error',
    );
    const readOnly = await keyFor(tenant, 'read');
    expectError(
      await call('/v1/alerts/credit', {
        method: 'POST',
        token: readOnly,
        organizationId: tenant.organizationId,
        body: { alert_ids: [alert.id] },
      }),
      403,
      'insufficient_level',
    );

    expect(await allEntries(tenant)).toBe(before);
    expect((await tenant.call(`/v1/alerts/${alert.id}`)).body.status).toBe('pending');
  });

  it("record the system's changes with the run that made them: checks, price imports, topic reconciles", async () => {
    const tenant = await createTenant();
    const supplier = newSupplier();
    const pair = await paperAndTonerPair(tenant, {
      supplier,
      agreement: { title: 'Supplies', instructions: 'Net 30' },
    });
    await tenant.call(`/v1/agreements/${pair.agreementId}/price-items`, {
      method: 'POST',
      body: {
        entries: [{ description: 'Copy paper A4', seller_item_id: '1001', price: { type: 'amount', amount: '10.00' } }],
      },
    });
    const userAlert = await postAlert(tenant, { invoice_id: pair.invoiceId, agreement_id: pair.agreementId });

    // A check (here its activity's work, called directly) replaces the user's alert with its own.
    const checkRun = randomUUID();
    const outcome = await performCheck(testDb(), tenant.organizationId, checkRun, pair.invoiceId, pair.agreementId);
    expect(outcome.status).toBe('completed');
    const system = { actorType: 'system', actorUserId: null, actorApiKeyId: null };
    expect((await entriesOf(tenant, userAlert.id)).at(-1)).toMatchObject({
      action: 'deleted',
      ...system,
      actorRunId: checkRun,
    });
    const checkAlerts = await testDb().alert.findMany({
      where: { invoiceId: pair.invoiceId, agreementId: pair.agreementId },
    });
    expect(checkAlerts.length).toBeGreaterThan(0);
    for (const alert of checkAlerts)
      expect(await entriesOf(tenant, alert.id)).toMatchObject([{ action: 'created', ...system, actorRunId: checkRun }]);
    // The same findings again change nothing and record nothing.
    await performCheck(testDb(), tenant.organizationId, randomUUID(), pair.invoiceId, pair.agreementId);
    for (const alert of checkAlerts) expect(await entriesOf(tenant, alert.id)).toHaveLength(1);

    // A topic reconcile sorts them into a topic it makes.
    const extra = await insertAlert(tenant, pair, { checker: 'price_mismatch', lineId: pair.lines[0]!.id });
    const reconcile = await tenant.call(`/v1/agreements/${pair.agreementId}/alert-topics/reconcile`, {
      method: 'POST',
    });
    const reconcileRun = reconcile.body.workflow_run_id as string;
    await eventually(
      () => tenant.call(`/v1/workflow-runs/${reconcileRun}`),
      (r) => r.body.status === 'completed',
      90_000,
    );
    const topicId = (await testDb().alert.findUniqueOrThrow({ where: { id: extra } })).topicId!;
    expect(await entriesOf(tenant, topicId)).toMatchObject([
      { entityType: 'topic', action: 'created', ...system, actorRunId: reconcileRun },
    ]);
    expect((await entriesOf(tenant, extra)).at(-1)).toMatchObject({
      action: 'topic_changed',
      ...system,
      actorRunId: reconcileRun,
      changes: { topic_id: { before: null, after: topicId } },
    });

    // A price import adds items as the import's run; replace_all removes the earlier ones the same way.
    const csv = ['Artikkelnummer;Beskrivelse;Enhet;Pris', 'P-A4;Kopipapir A4;pk;42,50'].join('\n');
    const documentId = await uploadDocument(tenant, 'prisliste.csv', Buffer.from(csv, 'utf8'), 'text/csv');
    const before = await testDb().priceItem.findMany({ where: { agreementId: pair.agreementId } });
    const started = await tenant.call(`/v1/agreements/${pair.agreementId}/price-imports`, {
      method: 'POST',
      body: { entries: [{ document_id: documentId, default_currency: 'NOK', mode: 'replace_all' }] },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const importRun = started.body.data[0].workflow_run_id as string;
    await eventually(
      () => tenant.call(`/v1/workflow-runs/${importRun}`),
      (r) => r.body.status === 'completed',
      90_000,
    );
    for (const item of before)
      expect((await entriesOf(tenant, item.id)).at(-1)).toMatchObject({
        action: 'deleted',
        ...system,
        actorRunId: importRun,
      });
    const [added] = await testDb().priceItem.findMany({ where: { agreementId: pair.agreementId } });
    expect(await entriesOf(tenant, added!.id)).toMatchObject([
      {
        entityType: 'price_item',
        action: 'created',
        ...system,
        actorRunId: importRun,
        changes: { description: { before: null, after: 'Kopipapir A4' } },
      },
    ]);
  });
  it('record every claim change: creation, fields, status transitions, alerts in and out (on the claim and each alert), refunds, deletion', async () => {
    const tenant = await createTenant();
    const { agreementId, invoices } = await claimSetup(tenant, [{}, {}]);
    const [first, second] = [
      await alertOn(tenant, invoices[0]!.id, agreementId),
      await alertOn(tenant, invoices[1]!.id, agreementId),
    ];
    const claim = await createClaim(tenant, { agreement_id: agreementId, alerts: { alert_ids: [first] } });
    const actions = async (id: string) => (await entriesOf(tenant, id)).map((e) => e.action);

    let entries = await entriesOf(tenant, claim.id);
    expect(entries.map((e) => e.action)).toEqual(['alerts_added', 'created']);
    expect(entries.find((e) => e.action === 'created')).toMatchObject({
      entityType: 'claim',
      ...byKeyOf(tenant),
      changes: { title: { before: null, after: 'Overcharges Q1' }, status: { before: null, after: 'pending' } },
    });
    expect(entries.find((e) => e.action === 'alerts_added')!.changes).toEqual({
      alert_ids: { before: null, after: [first] },
    });
    expect((await entriesOf(tenant, first)).at(-1)).toMatchObject({
      action: 'claim_added',
      changes: { status: { before: 'pending', after: 'claimed' }, claim_id: { before: null, after: claim.id } },
    });

    // A field change; the same value again records nothing.
    for (let i = 0; i < 2; i++)
      expect((await tenant.call(`/v1/claims/${claim.id}`, { method: 'PATCH', body: { title: 'Q1' } })).status).toBe(
        200,
      );
    expect((await entriesOf(tenant, claim.id)).at(-1)).toMatchObject({
      action: 'updated',
      changes: { title: { before: 'Overcharges Q1', after: 'Q1' } },
    });
    expect(await actions(claim.id)).toHaveLength(3);

    await tenant.call(`/v1/claims/${claim.id}/alerts`, { method: 'POST', body: { alert_ids: [second] } });
    await tenant.call(`/v1/claims/${claim.id}/alerts/remove`, { method: 'POST', body: { alert_ids: [second] } });
    expect((await entriesOf(tenant, claim.id)).slice(-2).map((e) => [e.action, e.changes])).toEqual([
      ['alerts_added', { alert_ids: { before: null, after: [second] } }],
      ['alerts_removed', { alert_ids: { before: [second], after: null } }],
    ]);
    expect(await actions(second)).toEqual(['created', 'claim_added', 'claim_removed']);

    // Cancelling dismisses the claimed alert: the claim's transition and the alert's dismissal.
    await tenant.call(`/v1/claims/${claim.id}`, { method: 'PATCH', body: { status: 'cancelled' } });
    expect((await entriesOf(tenant, claim.id)).at(-1)).toMatchObject({
      action: 'status_changed',
      changes: { status: { before: 'pending', after: 'cancelled' } },
    });
    expect((await entriesOf(tenant, first)).at(-1)).toMatchObject({
      action: 'dismissed',
      changes: { status: { before: 'claimed', after: 'dismissed' } },
    });
    await tenant.call(`/v1/claims/${claim.id}`, { method: 'PATCH', body: { status: 'in_progress' } });
    expect((await entriesOf(tenant, first)).at(-1)).toMatchObject({
      action: 'claimed',
      changes: { status: { before: 'dismissed', after: 'claimed' } },
    });

    const refunded = await tenant.call(`/v1/claims/${claim.id}/refunds`, {
      method: 'POST',
      body: { amount: '10.00', currency_code: 'EUR', date: '2026-02-01' },
    });
    const refundId = refunded.body.refunds[0].id;
    await tenant.call(`/v1/claims/${claim.id}/refunds/${refundId}`, { method: 'PATCH', body: { amount: '12.00' } });
    await tenant.call(`/v1/claims/${claim.id}/refunds/${refundId}`, { method: 'DELETE' });
    entries = (await entriesOf(tenant, claim.id)).filter((e) => e.action.startsWith('refund_'));
    expect(entries.map((e) => e.action)).toEqual(['refund_added', 'refund_corrected', 'refund_deleted']);
    expect(entries[1]!.changes).toMatchObject({
      refund: { before: { id: refundId, amount: '10.00' }, after: { id: refundId, amount: '12.00' } },
    });
    expect(entries[2]!.changes).toMatchObject({ refund: { before: { amount: '12.00' }, after: null } });

    // A rejected change records nothing; deleting records the claim's last state and frees its alert.
    const count = await allEntries(tenant);
    expectError(
      await tenant.call(`/v1/claims/${claim.id}`, { method: 'PATCH', body: { status: 'pending' } }),
      409,
      'invalid_transition',
    );
    expect(await allEntries(tenant)).toBe(count);
    expect((await tenant.call(`/v1/claims/${claim.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await entriesOf(tenant, claim.id)).at(-1)).toMatchObject({
      action: 'deleted',
      ...byKeyOf(tenant),
      changes: { title: { before: 'Q1', after: null } },
    });
    expect((await entriesOf(tenant, first)).at(-1)).toMatchObject({
      action: 'claim_removed',
      changes: { status: { before: 'claimed', after: 'pending' }, claim_id: { before: claim.id, after: null } },
    });
  });
});
