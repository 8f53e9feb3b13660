import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { alertWhereOf } from '../../src/alerts/filters.js';
import { filterOf, listQuery } from '../../src/alerts/schemas.js';
import { insertAlert, invoiceOf, matchedAgreement, newSupplier, postAlert } from '../support/alerts.js';
import { createTenant, testDb } from '../support/tenants.js';

// The alert list reads its page in one SQL statement (alertFilterSql); the totals, groups, exports
// and bulk selections filter with Prisma (alertWhere). For every filter the two keep the same
// alerts, so a list and its totals never disagree.
describe('the alert filters', () => {
  it('select the same alerts in the list page and in the Prisma filter', async () => {
    const tenant = await createTenant();
    const [a, b] = [newSupplier('Filter A'), newSupplier('Filter B')];
    const numberOfA = `KPT-${randomUUID().slice(0, 6)}`;
    const firstOfA = await invoiceOf(tenant, a, { number: numberOfA });
    const secondOfA = await invoiceOf(tenant, a);
    const ofB = await invoiceOf(tenant, b);
    const agreementA = await matchedAgreement(tenant, [firstOfA.supplier.id], 'A supplies');
    const agreementB = await matchedAgreement(tenant, [ofB.supplier.id], 'B supplies');
    const topic = randomUUID();
    await testDb().alertTopic.create({
      data: { id: topic, organizationId: tenant.organizationId, agreementId: agreementA, title: 'Paper prices' },
    });

    const post = async (invoiceId: string, agreementId: string, title: string, impact: string) =>
      (await postAlert(tenant, { invoice_id: invoiceId, agreement_id: agreementId, title, impact_amount: impact }))
        .id as string;
    const wildcard = await post(firstOfA.id, agreementA, 'Price 50% above the agreed', '25.00');
    const underscore = await post(firstOfA.id, agreementA, 'Freight_fee not agreed', '-3.50');
    const onB = await post(ofB.id, agreementB, 'Freight fee not agreed', '12.00');
    await post(secondOfA.id, agreementA, 'Set aside with its invoice', '7.00');
    await insertAlert(
      tenant,
      { invoiceId: firstOfA.id, agreementId: agreementA },
      { checker: null, lineId: null, title: 'Topic alert', topicId: topic },
    );
    const dismissed = await tenant.call('/v1/alerts/dismiss', {
      method: 'POST',
      body: { alert_ids: [onB, underscore], category: 'agreed_exception' },
    });
    expect(dismissed.status, JSON.stringify(dismissed.body)).toBe(200);
    expect((await tenant.call(`/v1/invoices/${secondOfA.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(wildcard).toBeDefined();

    const queries = [
      '',
      'statuses=dismissed',
      'statuses=pending,credited',
      `invoice_ids=${firstOfA.id}`,
      `agreement_ids=${agreementB}`,
      `supplier_ids=${firstOfA.supplier.id}`,
      `supplier_ids=${firstOfA.supplier.id}&supplier_operator=is_not`,
      `topic_ids=${topic}`,
      'topic_ids=null',
      `topic_ids=${topic},null`,
      `claim_ids=${randomUUID()}`,
      'has_topic=true',
      'has_topic=false',
      'has_claim=false',
      'has_claim=true',
      `agreement_ids=${agreementB}&topic_ids=${topic}&join_operator=or`,
      `agreement_ids=${agreementA}&topic_ids=${topic}`,
      'search=50%25',
      'search=FREIGHT_',
      'search=agreed',
      // Search also matches the invoice's number and its supplier's name.
      `search=${numberOfA.slice(0, 7).toLowerCase()}`,
      `search=${encodeURIComponent(b.name.toUpperCase())}`,
      `created_from=${new Date(Date.now() - 3_600_000).toISOString()}&created_before=${new Date(Date.now() + 60_000).toISOString()}`,
      'created_before=2020-01-01T00:00:00Z',
    ];
    for (const query of queries) {
      const page = await tenant.call(`/v1/alerts?limit=1000&${query}`);
      expect(page.status, `${query}: ${JSON.stringify(page.body)}`).toBe(200);
      const listed = (page.body.data as { id: string }[]).map((alert) => alert.id).sort();
      const filter = filterOf(listQuery.parse(Object.fromEntries(new URLSearchParams(query))));
      const prisma = (
        await testDb().alert.findMany({
          where: await alertWhereOf(testDb(), tenant.organizationId, filter),
          select: { id: true },
        })
      )
        .map((alert) => alert.id)
        .sort();
      expect(listed, query || 'no filter').toEqual(prisma);
    }
    // The filters above are not all empty or all full.
    expect((await tenant.call('/v1/alerts?limit=1000')).body.data).toHaveLength(4);
    expect(
      (await tenant.call('/v1/alerts?search=FREIGHT_')).body.data.map((alert: { id: string }) => alert.id),
    ).toEqual([underscore]);
    const ids = async (query: string) =>
      ((await tenant.call(`/v1/alerts?statuses=pending,dismissed&${query}`)).body.data as { id: string }[])
        .map((alert) => alert.id)
        .sort();
    expect(await ids(`search=${encodeURIComponent(b.name.toLowerCase())}`)).toEqual([onB]);
    // The invoice's three visible alerts (two posted, the topic alert), none of the other invoices'.
    const byNumber = await ids(`search=${numberOfA}`);
    expect(byNumber).toHaveLength(3);
    expect(byNumber).toEqual(expect.arrayContaining([wildcard, underscore]));
    const metrics = await tenant.call(
      `/v1/alerts/metrics?statuses=pending,dismissed&search=${encodeURIComponent(b.name)}`,
    );
    expect(metrics.body.counts.total, JSON.stringify(metrics.body)).toBe(1);
  });
});
