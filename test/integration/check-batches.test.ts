import { describe, expect, it } from 'vitest';
import { loadBatchPriorCharges, loadCheck } from '../../src/checks/input.js';
import { agreementWithPrice, peppolInvoice, uploadedInvoice } from '../support/checks.js';
import { createTenant, testDb } from '../support/tenants.js';

// A check run reads the earlier charges of a batch's invoices once per supplier and narrows them
// per invoice (docs/check-runs.md): each invoice must get exactly what its check would read alone.
describe('check batches', () => {
  it("read each invoice's earlier charges as its check would read them alone", async () => {
    const tenant = await createTenant();
    // Within two weeks of each other, weeks apart, and more than 400 days later: the windows differ.
    const invoices: { id: string; supplier: { id: string } }[] = [];
    for (const issueDate of ['2017-11-13', '2017-11-20', '2017-12-30', '2019-06-01']) {
      invoices.push(await uploadedInvoice(tenant, peppolInvoice(undefined, issueDate)));
    }
    expect(new Set(invoices.map((invoice) => invoice.supplier.id)).size).toBe(1);
    const [first, second, , last] = invoices as [(typeof invoices)[number], (typeof invoices)[number], unknown, (typeof invoices)[number]];
    const agreement = await agreementWithPrice(tenant, { title: 'Earlier charges', supplier_ids: [first.supplier.id] });

    const db = testDb();
    const batch = await loadBatchPriorCharges(db, tenant.organizationId, invoices.map((invoice) => invoice.id));
    let compared = 0;
    for (const invoice of invoices) {
      const alone = (await loadCheck(db, tenant.organizationId, invoice.id, agreement.id))!.input.priorCharges;
      expect(batch.get(invoice.id)).toEqual(alone);
      expect(alone.every((charge) => charge.invoiceId !== invoice.id)).toBe(true);
      compared += alone.length;
    }
    // The first two are within the duplicate window of each other: each reads the other's lines.
    expect(batch.get(first.id)!.some((charge) => charge.invoiceId === second.id)).toBe(true);
    // Nothing is read across more than 400 days.
    expect(batch.get(last.id)!.some((charge) => charge.invoiceId === first.id)).toBe(false);
    expect(compared).toBeGreaterThan(0);
  });
});
