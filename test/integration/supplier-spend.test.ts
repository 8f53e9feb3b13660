import { describe, expect, it } from 'vitest';
import { Prisma } from '../../src/db/client.js';
import { expectError } from '../support/api.js';
import { invoiceOf, newSupplier } from '../support/alerts.js';
import { createTenant, testDb } from '../support/tenants.js';

// GET /v1/invoices/metrics/suppliers (docs/invoices.md): the metrics' spend split by supplier, each
// currency ranked on its own, the suppliers past `limit` summed, never a sum across currencies.

const line = (amount: string) => [{ description: 'Paper', quantity: '1', unit_price: amount, net_amount: amount }];

describe('spend by supplier', () => {
  it('ranks suppliers per currency, sums the rest, and counts credit notes and duplicates as the metrics do', async () => {
    const tenant = await createTenant();
    const [big, small, third] = [newSupplier('Big'), newSupplier('Small'), newSupplier('Third')];
    const first = await invoiceOf(tenant, big, { lines: line('300.00') });
    await invoiceOf(tenant, big, { lines: line('50.25') });
    await invoiceOf(tenant, small, { lines: line('100.00') });
    const credit = await invoiceOf(tenant, small, { lines: line('20.00') });
    const duplicate = await invoiceOf(tenant, third, { lines: line('999.00') });
    await invoiceOf(tenant, third, { lines: line('10.00') });
    await invoiceOf(tenant, small, { currency: 'SEK', lines: line('1000.00') });
    const db = testDb();
    // A credit note subtracts its absolute amount; a semantic duplicate is no spend.
    await db.invoice.update({
      where: { id: credit.id },
      data: { documentType: 'credit_note', taxInclusiveAmount: new Prisma.Decimal('-20.00') },
    });
    await db.invoice.update({ where: { id: duplicate.id }, data: { duplicateOfInvoiceId: first.id } });

    const answer = await tenant.call('/v1/invoices/metrics/suppliers?limit=2');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({
      currencies: [
        {
          currency_code: 'EUR',
          net: '440.25',
          supplier_count: 3,
          suppliers: [
            {
              supplier_id: first.supplier.id,
              name: big.name,
              invoiced: '350.25',
              credited: '0.00',
              net: '350.25',
              invoice_count: 2,
              credit_note_count: 0,
            },
            {
              supplier_id: credit.supplier.id,
              name: small.name,
              invoiced: '100.00',
              credited: '20.00',
              net: '80.00',
              invoice_count: 1,
              credit_note_count: 1,
            },
          ],
          other_suppliers: { supplier_count: 1, net: '10.00' },
        },
        {
          currency_code: 'SEK',
          net: '1000.00',
          supplier_count: 1,
          suppliers: [
            {
              supplier_id: credit.supplier.id,
              name: small.name,
              invoiced: '1000.00',
              credited: '0.00',
              net: '1000.00',
              invoice_count: 1,
              credit_note_count: 0,
            },
          ],
          other_suppliers: { supplier_count: 0, net: '0.00' },
        },
      ],
    });

    // The metrics' filters apply; a bad limit is refused; another organization sees nothing.
    const none = await tenant.call('/v1/invoices/metrics/suppliers?limit=2&issued_from=2099-01-01');
    expect(none.body).toEqual({ currencies: [] });
    expectError(await tenant.call('/v1/invoices/metrics/suppliers?limit=0'), 400, 'validation_error');
    expectError(await tenant.call('/v1/invoices/metrics/suppliers?limit=101'), 400, 'validation_error');
    expect((await (await createTenant()).call('/v1/invoices/metrics/suppliers')).body).toEqual({ currencies: [] });
  });

  it('keeps the unfiltered spend, read from the totals the invoice triggers keep, equal to a count of the invoices', async () => {
    const tenant = await createTenant();
    const [one, two] = [newSupplier('One'), newSupplier('Two')];
    const kept = async () => (await tenant.call('/v1/invoices/metrics/suppliers?limit=100')).body;
    // Every document type named: the same invoices, grouped from the invoices themselves.
    const counted = async () =>
      (await tenant.call('/v1/invoices/metrics/suppliers?limit=100&document_types=invoice,credit_note')).body;
    const a = await invoiceOf(tenant, one, { lines: line('120.00') });
    const b = await invoiceOf(tenant, one, { lines: line('80.00') });
    const c = await invoiceOf(tenant, two, { lines: line('45.50') });
    const d = await invoiceOf(tenant, two, { currency: 'NOK', lines: line('700.00') });
    const db = testDb();
    const changes = [
      // Moved to the other supplier, then to none known.
      () => db.invoice.update({ where: { id: a.id }, data: { supplierId: c.supplier.id } }),
      () => db.invoice.update({ where: { id: a.id }, data: { supplierId: null } }),
      // A new amount; a credit note; back to an invoice.
      () => db.invoice.update({ where: { id: b.id }, data: { taxInclusiveAmount: new Prisma.Decimal('99.99') } }),
      () =>
        db.invoice.update({
          where: { id: c.id },
          data: { documentType: 'credit_note', taxInclusiveAmount: new Prisma.Decimal('-45.50') },
        }),
      () => db.invoice.update({ where: { id: c.id }, data: { documentType: 'invoice' } }),
      // Failed, then processed again; deleted (no longer spend); one statement over several rows.
      () => db.invoice.update({ where: { id: d.id }, data: { processingStatus: 'failed' } }),
      () => db.invoice.update({ where: { id: d.id }, data: { processingStatus: 'completed' } }),
      () => db.invoice.update({ where: { id: b.id }, data: { deletedAt: new Date() } }),
      () => db.invoice.updateMany({ where: { id: { in: [c.id, d.id] } }, data: { currencyCode: 'SEK' } }),
    ];
    expect(await kept()).toEqual(await counted());
    for (const change of changes) {
      await change();
      expect(await kept()).toEqual(await counted());
    }
    expect((await kept()).currencies.map((currency: { currency_code: string }) => currency.currency_code)).toEqual([
      'EUR',
      'SEK',
    ]);
  });
});
