// Learning from one correction, over the real stack (docs/invoice-parsing.md, "Learning from a
// correction"): a supplier whose PDF layout the generic reading gets wrong is corrected once, and
// its next invoice is read right without review; another organization, and a supplier that prints
// no org number, VAT id or IBAN, learn nothing.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ingestionUpload, settledIngestionInvoice } from '../support/invoices.js';
import { createTenant, type Tenant } from '../support/tenants.js';
import { totalsOf, unusualPdfInvoice, type UnusualInvoice } from '../support/unusual-pdf-invoices.js';

function firstInvoice(ids: { orgNumber: string | null; iban: string | null }): UnusualInvoice {
  return {
    supplier: `Fjordmontasje ${randomUUID().slice(0, 6)} AS`,
    ...ids,
    ledgerKey: `LK-${randomUUID().slice(0, 6)}`,
    issueDate: '2025-03-14',
    settlementDay: '2025-04-13',
    lines: [
      { description: 'Mounting work', quantity: '3', unitPrice: '850.00' },
      { description: 'Brackets', quantity: '12', unitPrice: '45.50' },
    ],
  };
}

function secondInvoice(first: UnusualInvoice): UnusualInvoice {
  return {
    ...first,
    ledgerKey: `LK-${randomUUID().slice(0, 6)}`,
    issueDate: '2025-05-02',
    settlementDay: '2025-06-01',
    lines: [
      { description: 'Inspection', quantity: '2', unitPrice: '1200.00' },
      { description: 'Cable ties', quantity: '40', unitPrice: '3.25' },
      { description: 'Mounting work', quantity: '1', unitPrice: '850.00' },
    ],
  };
}

async function uploaded(tenant: Tenant, invoice: UnusualInvoice) {
  const upload = await ingestionUpload(tenant.ingestionToken, 'invoice.pdf', await unusualPdfInvoice(invoice));
  expect(upload.status, JSON.stringify(upload.body)).toBe(201);
  await settledIngestionInvoice(tenant.ingestionToken, upload.body.invoice_id);
  return (await tenant.call(`/v1/invoices/${upload.body.invoice_id}`)).body;
}

async function corrected(tenant: Tenant, invoiceId: string, invoice: UnusualInvoice) {
  const patched = await tenant.call(`/v1/invoices/${invoiceId}`, {
    method: 'PATCH',
    body: { invoice_number: invoice.ledgerKey, due_date: invoice.settlementDay },
  });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  expect(patched.body.extraction.needs_review).toBe(false);
}

const IDS = { orgNumber: '987 654 321', iban: 'NO93 8601 1117 947' };

describe('a correction teaches the layout', () => {
  it("reads the supplier's second invoice right without review after its first was corrected", async () => {
    const tenant = await createTenant();
    const first = firstInvoice(IDS);
    const one = await uploaded(tenant, first);
    // The generic reading: the number and the due date sit behind labels no dictionary knows.
    expect(one.invoice_number).toBeNull();
    expect(one.due_date).toBeNull();
    expect(one.extraction).toMatchObject({ method: 'pdf_text', needs_review: true, layout_memory: null });
    await corrected(tenant, one.id, first);

    const second = secondInvoice(first);
    const two = await uploaded(tenant, second);
    const totals = totalsOf(second);
    expect(two).toMatchObject({
      invoice_number: second.ledgerKey,
      issue_date: second.issueDate,
      due_date: second.settlementDay,
      amounts: { excluding_vat: totals.net, vat: totals.vat, including_vat: totals.gross },
      extraction: { method: 'pdf_text', needs_review: false, review_reasons: [] },
    });
    expect(two.extraction.layout_memory.fields).toEqual(expect.arrayContaining(['invoiceNumber', 'dueDate']));
    expect(two.line_items).toHaveLength(3);
    expect(two.extraction.confidence.fields.invoiceNumber).toBeGreaterThanOrEqual(0.9);

    // Another organization receiving the same supplier's invoice does not use this one's lesson.
    const other = await createTenant();
    const elsewhere = await uploaded(other, secondInvoice(first));
    expect(elsewhere.invoice_number).toBeNull();
    expect(elsewhere.extraction).toMatchObject({ needs_review: true, layout_memory: null });
  });

  it('learns nothing for a supplier that prints no org number, VAT id or IBAN', async () => {
    const tenant = await createTenant();
    const first = firstInvoice({ orgNumber: null, iban: null });
    const one = await uploaded(tenant, first);
    expect(one.extraction.needs_review).toBe(true);
    await corrected(tenant, one.id, first);

    const two = await uploaded(tenant, secondInvoice(first));
    expect(two.invoice_number).toBeNull();
    expect(two.extraction).toMatchObject({ needs_review: true, layout_memory: null });
  });
});
