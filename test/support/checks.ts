import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { eventually } from './api.js';
import { ingestionUpload, sample, settledIngestionInvoice } from './invoices.js';
import type { Tenant } from './tenants.js';

// Checks need real matched pairs: these build them over the API, as a user would.

// The base Peppol example bills 7 DAY of "item name" at 400.00 EUR (and -3 of "item name 2" at
// 500.00). With a seller item id the first line matches a price item exactly.
export function peppolInvoice(number = `CHK-${randomUUID().slice(0, 8)}`, issueDate = '2017-11-13'): Buffer {
  return Buffer.from(
    sample('peppol-bis3/peppol-base-example.xml')
      .toString('utf8')
      .replace('<cbc:ID>Snippet1</cbc:ID>', `<cbc:ID>${number}</cbc:ID>`)
      .replace('<cbc:IssueDate>2017-11-13</cbc:IssueDate>', `<cbc:IssueDate>${issueDate}</cbc:IssueDate>`)
      .replace(
        '<cbc:Name>item name</cbc:Name>',
        '<cbc:Name>item name</cbc:Name><cac:SellersItemIdentification><cbc:ID>SKU-1</cbc:ID></cac:SellersItemIdentification>',
      ),
  );
}

// Uploads through the Ingestion API, waits until the invoice settles, answers its Organization shape.
export async function uploadedInvoice(tenant: Tenant, bytes = peppolInvoice()) {
  const upload = await ingestionUpload(tenant.ingestionToken, 'invoice.xml', bytes);
  expect(upload.status).toBe(201);
  await settledIngestionInvoice(tenant.ingestionToken, upload.body.invoice_id);
  return (await tenant.call(`/v1/invoices/${upload.body.invoice_id}`)).body;
}

// An agreement, with the price of SKU-1 ("item name", per DAY, EUR) when `price` is given.
export async function agreementWithPrice(tenant: Tenant, body: Record<string, unknown>, price?: string) {
  const created = await tenant.call('/v1/agreements', { method: 'POST', body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  let priceItemId: string | null = null;
  if (price) {
    const items = await tenant.call(`/v1/agreements/${created.body.id}/price-items`, {
      method: 'POST',
      body: {
        entries: [
          {
            description: 'item name',
            seller_item_id: 'SKU-1',
            unit: 'DAY',
            currency_code: 'EUR',
            price: { type: 'amount', amount: price },
          },
        ],
      },
    });
    expect(items.status).toBe(201);
    priceItemId = items.body.data[0].id;
  }
  return { id: created.body.id as string, priceItemId };
}

export async function settledRun(tenant: Tenant, runId: string) {
  const run = await eventually(
    () => tenant.call(`/v1/workflow-runs/${runId}`),
    (r) => !['queued', 'running'].includes(r.body.status),
    60_000,
  );
  return run.body;
}

// Re-matches the organization's invoices to agreements and waits for the run.
export async function rematch(tenant: Tenant, agreementId: string) {
  const started = await tenant.call(`/v1/agreements/${agreementId}/invoices/refresh`, { method: 'POST' });
  expect(started.status).toBe(202);
  expect((await settledRun(tenant, started.body.workflow_run_id)).status).toBe('completed');
}
