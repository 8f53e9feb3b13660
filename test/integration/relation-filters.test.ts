import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { invoiceOf, matchedAgreement, newSupplier, postAlert } from '../support/alerts.js';
import { createTenant } from '../support/tenants.js';

// join_operator=and|or combines a list's relation filters; the invoice metrics take
// agreement_ids; alert groups default to agreements; check selections filter agreements by
// booleans.

const idsOf = (response: { body: { data: { id: string }[] } }) => response.body.data.map((r) => r.id).sort();
const sorted = (values: string[]) => [...values].sort();

describe('relation filters', () => {
  it('combine with join_operator on invoices, their metrics, agreements and alerts', async () => {
    const tenant = await createTenant();
    const one = await invoiceOf(tenant, newSupplier('One'));
    const two = await invoiceOf(tenant, newSupplier('Two'));
    await invoiceOf(tenant, newSupplier('Three'));
    const onTwo = await matchedAgreement(tenant, [two.supplier.id], 'On two');
    const onOne = await matchedAgreement(tenant, [one.supplier.id], 'On one');
    const tag = (
      await tenant.call('/v1/agreements/tags', { method: 'POST', body: { name: `Tag ${randomUUID().slice(0, 6)}` } })
    ).body;
    const tagged = (
      await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Tagged', tag_ids: [tag.id] } })
    ).body;

    const invoices = (query: string) => tenant.call(`/v1/invoices?${query}`).then(idsOf);
    expect(await invoices(`supplier_ids=${one.supplier.id}&agreement_ids=${onTwo}`)).toEqual([]);
    expect(await invoices(`supplier_ids=${one.supplier.id}&agreement_ids=${onTwo}&join_operator=and`)).toEqual([]);
    expect(await invoices(`supplier_ids=${one.supplier.id}&agreement_ids=${onTwo}&join_operator=or`)).toEqual(
      sorted([one.id, two.id]),
    );
    // The other filters still narrow an or.
    expect(
      await invoices(
        `supplier_ids=${one.supplier.id}&agreement_ids=${onTwo}&join_operator=or&search=${encodeURIComponent((two as any).invoice_number)}`,
      ),
    ).toEqual([two.id]);
    expect((await tenant.call('/v1/invoices?join_operator=xor')).status).toBe(400);

    const metrics = (query: string) => tenant.call(`/v1/invoices/metrics?${query}`).then((r) => r.body.counts.total);
    expect(await metrics(`agreement_ids=${onTwo}`)).toBe(1);
    expect(await metrics(`agreement_ids=${onTwo},${onOne}`)).toBe(2);
    expect(await metrics(`agreement_ids=${onTwo}&supplier_ids=${one.supplier.id}`)).toBe(0);
    expect(await metrics(`agreement_ids=${onTwo}&supplier_ids=${one.supplier.id}&join_operator=or`)).toBe(2);

    const agreements = (query: string) => tenant.call(`/v1/agreements?${query}`).then(idsOf);
    expect(await agreements(`supplier_ids=${two.supplier.id}&tag_ids=${tag.id}`)).toEqual([]);
    expect(await agreements(`supplier_ids=${two.supplier.id}&tag_ids=${tag.id}&join_operator=or`)).toEqual(
      sorted([onTwo, tagged.id]),
    );

    const onPairTwo = await postAlert(tenant, { invoice_id: two.id, agreement_id: onTwo });
    const onPairOne = await postAlert(tenant, { invoice_id: one.id, agreement_id: onOne });
    const alerts = (query: string) => tenant.call(`/v1/alerts?${query}`).then(idsOf);
    expect(await alerts(`agreement_ids=${onTwo}&supplier_ids=${one.supplier.id}`)).toEqual([]);
    expect(await alerts(`agreement_ids=${onTwo}&supplier_ids=${one.supplier.id}&join_operator=or`)).toEqual(
      sorted([onPairTwo.id, onPairOne.id]),
    );
    const groups = await tenant.call(
      `/v1/alerts/metrics?agreement_ids=${onTwo}&invoice_ids=${one.id}&join_operator=or`,
    );
    expect(groups.body.counts.total).toBe(2);

    // Without group_by, alert groups are by agreement.
    const byDefault = await tenant.call('/v1/alerts/groups');
    expect(byDefault.status).toBe(200);
    expect(byDefault.body.data.map((g: { key: string }) => g.key).sort()).toEqual(sorted([onTwo, onOne]));
    expect(byDefault.body).toEqual((await tenant.call('/v1/alerts/groups?group_by=agreement')).body);
  });

  it('narrow check selection agreement filters with booleans', async () => {
    const tenant = await createTenant();
    const prefix = `Bool ${randomUUID().slice(0, 6)}`;
    const withPrices = (await tenant.call('/v1/agreements', { method: 'POST', body: { title: `${prefix} prices` } }))
      .body.id as string;
    await tenant.call(`/v1/agreements/${withPrices}/price-items`, {
      method: 'POST',
      body: { entries: [{ description: 'Paper', price: { type: 'amount', amount: '1.00' } }] },
    });
    const withInstructions = (
      await tenant.call('/v1/agreements', {
        method: 'POST',
        body: { title: `${prefix} words`, instructions: 'Net 30' },
      })
    ).body.id as string;

    // Drafts are never checked: each one the filter keeps is one agreement_not_active exclusion.
    const kept = async (filter: object) => {
      const response = await tenant.call('/v1/check-selections/preview', {
        method: 'POST',
        body: { scope: { agreement_filter: { search: prefix, ...filter } } },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const exclusion = response.body.exclusions.find((e: { reason: string }) => e.reason === 'agreement_not_active');
      return sorted((exclusion?.examples ?? []).map((e: { agreement_id: string }) => e.agreement_id));
    };
    expect(await kept({})).toEqual(sorted([withPrices, withInstructions]));
    expect(await kept({ has_price_items: true })).toEqual([withPrices]);
    expect(await kept({ has_price_items: false })).toEqual([withInstructions]);
    expect(await kept({ has_instructions: true })).toEqual([withInstructions]);
    expect(await kept({ has_instructions: false, has_price_items: false })).toEqual([]);
    expect(await kept({ has_documents: true })).toEqual([]);
    expect(await kept({ has_pending_alerts: false })).toEqual(sorted([withPrices, withInstructions]));
    const bad = await tenant.call('/v1/check-selections/preview', {
      method: 'POST',
      body: { scope: { agreement_filter: { has_price_items: 'yes' } } },
    });
    expect(bad.status).toBe(400);
  });
});
