import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventually, expectError } from '../support/api.js';
import { createTenant, keyFor, testDb, type Tenant } from '../support/tenants.js';
import { insertAlert, paperAndTonerPair } from '../support/alerts.js';

const matchedInvoice = (tenant: Tenant, agreementId: string | null, supplierOrgNumber = '444555666') =>
  paperAndTonerPair(tenant, {
    supplier: { name: 'Topics Ltd', org_number: supplierOrgNumber },
    agreementId: agreementId ?? undefined,
    agreement: { title: 'Topics', instructions: 'x' },
  });

// Draft agreements, so no automatic check replaces the alerts. Alerts of the checks (checker, fingerprint) are inserted with the test database client for a real
// matched pair (no endpoint records them); the reconcile itself runs over HTTP on the real stack.

async function insertTopic(
  tenant: Tenant,
  agreementId: string,
  fields: { title: string; groupKey: string | null; isLocked?: boolean; description?: string },
) {
  const id = randomUUID();
  await testDb().alertTopic.create({
    data: {
      id,
      organizationId: tenant.organizationId,
      agreementId,
      title: fields.title,
      description: fields.description ?? null,
      groupKey: fields.groupKey,
      isLocked: fields.isLocked ?? false,
    },
  });
  return id;
}

async function reconcile(tenant: Tenant, agreementId: string, headers: Record<string, string> = {}) {
  const started = await tenant.call(`/v1/agreements/${agreementId}/alert-topics/reconcile`, {
    method: 'POST',
    headers,
  });
  expect(started.status).toBe(202);
  expect(started.headers.get('location')).toBe(`/v1/workflow-runs/${started.body.workflow_run_id}`);
  const run = await eventually(
    () => tenant.call(`/v1/workflow-runs/${started.body.workflow_run_id}`),
    (r) => !['queued', 'running'].includes(r.body.status),
    90_000,
  );
  expect(run.body).toMatchObject({
    status: 'completed',
    type: 'topic_reconcile',
    progress: { total: 1, completed: 1 },
  });
  const items = await tenant.call(`/v1/workflow-runs/${started.body.workflow_run_id}/items`);
  return { runId: started.body.workflow_run_id as string, result: items.body.data[0].result };
}

const topicsOf = (agreementId: string) =>
  testDb().alertTopic.findMany({ where: { agreementId }, orderBy: { createdAt: 'asc' } });
const topicOfAlert = async (id: string) => (await testDb().alert.findUniqueOrThrow({ where: { id } })).topicId;

describe('alert topic reconcile', () => {
  it('sorts uncategorized alerts by checker and item, keeps locked and user topics, removes its own empty topics', async () => {
    const tenant = await createTenant();
    const pair = await matchedInvoice(tenant, null);
    const [paper, toner] = pair.lines.map((line) => line.id);
    const locked = await insertTopic(tenant, pair.agreementId, {
      title: 'Toner: ask Anna',
      description: 'mine',
      groupKey: 'check:quantity_mismatch|item:toner',
      isLocked: true,
    });
    const userTopic = await insertTopic(tenant, pair.agreementId, { title: 'Call the supplier', groupKey: null });
    const staleTopic = await insertTopic(tenant, pair.agreementId, { title: 'Old', groupKey: 'check:gone' });
    const paperAlerts = [
      await insertAlert(tenant, pair, { checker: 'price_mismatch', lineId: paper! }),
      await insertAlert(tenant, pair, {
        checker: 'price_mismatch',
        lineId: paper!,
        impact: '2.50',
        status: 'dismissed',
      }),
    ];
    const wholeInvoice = await insertAlert(tenant, pair, { checker: 'totals_mismatch', lineId: null });
    const tonerAlert = await insertAlert(tenant, pair, { checker: 'quantity_mismatch', lineId: toner! });
    const inUserTopic = await insertAlert(tenant, pair, {
      checker: 'price_mismatch',
      lineId: paper!,
      topicId: userTopic,
    });
    // A set-aside alert: its invoice no longer matches the agreement.
    const other = await matchedInvoice(tenant, pair.agreementId);
    const setAside = await insertAlert(tenant, other, { checker: 'price_mismatch', lineId: other.lines[0]!.id });
    await testDb().invoiceAgreementMatch.update({
      where: { invoiceId_agreementId: { invoiceId: other.invoiceId, agreementId: pair.agreementId } },
      data: { active: false, endedAt: new Date() },
    });

    const { result } = await reconcile(tenant, pair.agreementId);
    expect(result).toEqual({ topics_created: 2, topics_rewritten: 0, topics_removed: 1, alerts_sorted: 4 });

    const topics = await topicsOf(pair.agreementId);
    expect(topics.map((t) => t.id)).not.toContain(staleTopic);
    const paperTopic = topics.find((t) => t.groupKey === 'check:price_mismatch|item:1001')!;
    expect(paperTopic).toMatchObject({
      title: 'Price mismatch: Copy paper A4 (item 1001)',
      description: '2 alerts on 1 invoice, 1 open; open impact 10.00 EUR.',
      isLocked: false,
    });
    expect(topics.find((t) => t.groupKey === 'check:totals_mismatch')).toMatchObject({
      title: 'Totals mismatch (whole invoice)',
    });
    for (const id of paperAlerts) expect(await topicOfAlert(id)).toBe(paperTopic.id);
    expect(await topicOfAlert(wholeInvoice)).toBe(topics.find((t) => t.groupKey === 'check:totals_mismatch')!.id);
    // The locked topic took the alert of its key and kept its text; the user's topic kept its alert.
    expect(await topicOfAlert(tonerAlert)).toBe(locked);
    expect(topics.find((t) => t.id === locked)).toMatchObject({ title: 'Toner: ask Anna', description: 'mine' });
    expect(await topicOfAlert(inUserTopic)).toBe(userTopic);
    expect(topics.find((t) => t.id === userTopic)).toMatchObject({ title: 'Call the supplier', description: null });
    expect(await topicOfAlert(setAside)).toBeNull();

    // Seen over the API: the alert carries its topic.
    expect((await tenant.call(`/v1/alerts/${paperAlerts[0]}`)).body.topic_id).toBe(paperTopic.id);
  });

  it('changes nothing the second time, rewrites only unlocked topics of its own, and replays an Idempotency-Key', async () => {
    const tenant = await createTenant();
    const pair = await matchedInvoice(tenant, null, '777888999');
    await insertAlert(tenant, pair, { checker: 'price_mismatch', lineId: pair.lines[0]!.id });
    const first = await reconcile(tenant, pair.agreementId, { 'Idempotency-Key': 'reconcile-1' });
    const after = await topicsOf(pair.agreementId);
    expect(after).toHaveLength(1);

    const repeat = await tenant.call(`/v1/agreements/${pair.agreementId}/alert-topics/reconcile`, {
      method: 'POST',
      headers: { 'Idempotency-Key': 'reconcile-1' },
    });
    expect(repeat.body.workflow_run_id).toBe(first.runId);
    const second = await reconcile(tenant, pair.agreementId);
    expect(second.runId).not.toBe(first.runId);
    expect(second.result).toEqual({ topics_created: 0, topics_rewritten: 0, topics_removed: 0, alerts_sorted: 0 });
    expect(await topicsOf(pair.agreementId)).toEqual(after);

    // A new alert of the same key joins and the topic's text follows; once locked, the text stays.
    await insertAlert(tenant, pair, { checker: 'price_mismatch', lineId: pair.lines[0]!.id, impact: '5.00' });
    expect((await reconcile(tenant, pair.agreementId)).result).toEqual({
      topics_created: 0,
      topics_rewritten: 1,
      topics_removed: 0,
      alerts_sorted: 1,
    });
    expect((await topicsOf(pair.agreementId))[0]!.description).toBe(
      '2 alerts on 1 invoice, 2 open; open impact 15.00 EUR.',
    );
    await testDb().alertTopic.update({
      where: { id: after[0]!.id },
      data: { isLocked: true, title: 'Paper (locked)' },
    });
    await insertAlert(tenant, pair, { checker: 'price_mismatch', lineId: pair.lines[0]!.id });
    expect((await reconcile(tenant, pair.agreementId)).result).toEqual({
      topics_created: 0,
      topics_rewritten: 0,
      topics_removed: 0,
      alerts_sorted: 1,
    });
    expect((await topicsOf(pair.agreementId))[0]).toMatchObject({
      title: 'Paper (locked)',
      description: '2 alerts on 1 invoice, 2 open; open impact 15.00 EUR.',
    });
  });

  it('needs the write level and an agreement of the organization', async () => {
    const tenant = await createTenant();
    const agreement = (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Empty' } })).body;
    expectError(
      await tenant.call(`/v1/agreements/${agreement.id}/alert-topics/reconcile`, {
        method: 'POST',
        token: await keyFor(tenant, 'read'),
      }),
      403,
      'insufficient_level',
    );
    expectError(
      await tenant.call(`/v1/agreements/${randomUUID()}/alert-topics/reconcile`, { method: 'POST' }),
      404,
      'not_found',
    );
    const { result } = await reconcile(tenant, agreement.id);
    expect(result).toEqual({ topics_created: 0, topics_rewritten: 0, topics_removed: 0, alerts_sorted: 0 });
  });
});
