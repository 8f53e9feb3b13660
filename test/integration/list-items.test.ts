import { describe, expect, it } from 'vitest';
import { invoiceOf, matchedAgreement, newSupplier, postAlert } from '../support/alerts.js';
import { createTenant } from '../support/tenants.js';

// A list page reads its records' extras in statements of its own, apart from the single read (an
// invoice page's lines come with its names and counts as JSON, an alert page's matches and an
// agreement page's links through the pg pool, src/db/client.ts poolReader). Whatever the path, a
// list item is the record as read alone, field for field.
describe('a list item', () => {
  it('is the invoice, the alert and the agreement as read alone', async () => {
    const tenant = await createTenant();
    const supplier = newSupplier('Listed');
    const invoice = await invoiceOf(tenant, supplier, {
      lines: [
        {
          line_number: '1',
          description: 'Paper, 1/3 pallet',
          seller_item_id: 'P-1',
          quantity: '3.125',
          unit_price: '0.333333',
          net_amount: '1.0400',
          vat_rate: '0.25',
          period_start: '2026-01-01',
          period_end: '2026-01-31',
        },
        { description: 'Freight', quantity: '1', unit_price: '12000000.5', net_amount: '12000000.50' },
        { description: 'Sample', quantity: '2', unit_price: '0', net_amount: '0' },
      ] as never,
    });
    const agreementId = await matchedAgreement(tenant, [invoice.supplier.id], 'Listed supplies');
    const tag = await tenant.call('/v1/agreements/tags', {
      method: 'POST',
      body: { name: `tag ${invoice.id.slice(0, 6)}` },
    });
    expect(tag.status, JSON.stringify(tag.body)).toBe(201);
    const patched = await tenant.call(`/v1/agreements/${agreementId}`, {
      method: 'PATCH',
      body: {
        tag_ids: [tag.body.id],
        expiration_date: '2027-06-30',
        renewal: { auto_renews: true, period_months: 12, notice_days: 90 },
      },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const alert = await postAlert(tenant, {
      invoice_id: invoice.id,
      agreement_id: agreementId,
      impact_amount: '-0.0417',
    });

    const listed = async (path: string, id: string) => {
      const page = await tenant.call(path);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      const item = (page.body.data as { id: string; line_items?: { quantity: string; period: unknown }[] }[]).find(
        (row) => row.id === id,
      );
      expect(item, `${path} lists ${id}`).toBeDefined();
      return item;
    };
    const alone = async (path: string) => {
      const read = await tenant.call(path);
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      return read.body;
    };
    const listedInvoice = await listed('/v1/invoices', invoice.id);
    expect(listedInvoice).toEqual(await alone(`/v1/invoices/${invoice.id}`));
    expect(listedInvoice!.line_items!.map((line) => [line.quantity, line.period])).toEqual([
      ['3.125', { start: '2026-01-01', end: '2026-01-31' }],
      ['1', null],
      ['2', null],
    ]);
    expect(await listed('/v1/alerts', alert.id)).toEqual(await alone(`/v1/alerts/${alert.id}`));
    const listedAgreement = await listed('/v1/agreements', agreementId);
    expect(listedAgreement).toEqual(await alone(`/v1/agreements/${agreementId}`));
    expect(listedAgreement).toMatchObject({
      tag_ids: [tag.body.id],
      renewal_action: { kind: 'cancel_by', deadline: '2027-04-01' },
    });
  });
});
