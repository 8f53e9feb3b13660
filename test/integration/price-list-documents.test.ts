import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { uploadDocument } from '../support/invoices.js';
import { createTenant, keyFor, type Tenant } from '../support/tenants.js';
import { call, eventually } from '../support/api.js';

// Price lists as suppliers send them, PDF and DOCX (test/fixtures/price-list-documents, generated
// by scripts/corpus/generate-price-list-documents.ts with their ground truth), imported over HTTP.

const DIR = path.resolve(import.meta.dirname, '../fixtures/price-list-documents');
const MIME: Record<string, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

interface Truth {
  file: string;
  defaultCurrency: string;
  items: {
    description: string;
    sellerItemId: string | null;
    unit: string | null;
    currencyCode: string;
    amount: string;
  }[];
}

const truthOf = (file: string) =>
  JSON.parse(readFileSync(path.join(DIR, file.replace(/\.(pdf|docx)$/u, '.json')), 'utf8')) as Truth;

async function importFile(tenant: Tenant, agreementId: string, file: string, defaultCurrency: string, waitMs = 60_000) {
  const documentId = await uploadDocument(
    tenant,
    file,
    readFileSync(path.join(DIR, file)),
    MIME[file.split('.').pop()!],
  );
  const started = await tenant.call(`/v1/agreements/${agreementId}/price-imports`, {
    method: 'POST',
    body: { entries: [{ document_id: documentId, default_currency: defaultCurrency }] },
  });
  expect(started.status).toBe(202);
  const importId = started.body.data[0].id as string;
  const done = await eventually(
    () => tenant.call(`/v1/agreements/${agreementId}/price-imports/${importId}`),
    (r) => ['completed', 'failed'].includes(r.body.status),
    waitMs,
  );
  return { documentId, priceImport: done.body };
}

async function newAgreement(tenant: Tenant, title: string): Promise<string> {
  return (await tenant.call('/v1/agreements', { method: 'POST', body: { title } })).body.id as string;
}

async function priceItems(tenant: Tenant, agreementId: string) {
  const items = await tenant.call(`/v1/agreements/${agreementId}/price-items?limit=1000&sort=created_at`);
  expect(items.status).toBe(200);
  return items.body.data.map((item: any) => ({
    description: item.description,
    sellerItemId: item.seller_item_id,
    unit: item.unit,
    currencyCode: item.currency_code,
    amount: item.price.amount,
  }));
}

const sortedItems = (items: Truth['items']) =>
  [...items].sort((a, b) => `${a.sellerItemId}|${a.amount}`.localeCompare(`${b.sellerItemId}|${b.amount}`));

describe('price lists from PDF and DOCX documents', () => {
  it('turns a three-page PDF price list into price items, every value exact', async () => {
    const tenant = await createTenant();
    const agreementId = await newAgreement(tenant, 'Befestigungstechnik');
    const truth = truthOf('de-fasteners-multipage.pdf');
    const { priceImport } = await importFile(tenant, agreementId, truth.file, truth.defaultCurrency);
    expect(priceImport).toMatchObject({
      status: 'completed',
      failure: null,
      needs_review: false,
      rows: { found: 70, added: 70, skipped: 0, rejected: 0 },
    });
    expect(sortedItems(await priceItems(tenant, agreementId))).toEqual(sortedItems(truth.items));
  });

  it('turns a DOCX price list (a table among paragraphs, quantity tiers in a cell) into price items', async () => {
    const tenant = await createTenant();
    const agreementId = await newAgreement(tenant, 'Kantoorartikelen');
    const truth = truthOf('nl-office-supplies.docx');
    const { priceImport } = await importFile(tenant, agreementId, truth.file, truth.defaultCurrency);
    expect(priceImport).toMatchObject({ status: 'completed', failure: null, rows: { found: 5, added: 5 } });
    expect(sortedItems(await priceItems(tenant, agreementId))).toEqual(sortedItems(truth.items));
    const download = String(
      (await tenant.call(`/v1/agreements/${agreementId}/price-imports/${priceImport.id}/download`)).body,
    );
    expect(download).toContain('quantity tier');
  });

  it('fails a PDF with a row it cannot read as extraction_incomplete, adds nothing, and shows the row in the download', async () => {
    const tenant = await createTenant();
    const agreementId = await newAgreement(tenant, 'Toimistotarvikkeet');
    const { priceImport } = await importFile(tenant, agreementId, 'fi-unreadable-row.pdf', 'EUR');
    expect(priceImport).toMatchObject({
      status: 'failed',
      needs_review: true,
      failure: { code: 'extraction_incomplete' },
    });
    expect(priceImport.failure.message).toMatch(/^1 row could not be read fully: page 1 row 2 \(/u);
    expect(await priceItems(tenant, agreementId)).toEqual([]);
    const download = String(
      (await tenant.call(`/v1/agreements/${agreementId}/price-imports/${priceImport.id}/download`)).body,
    );
    const lines = download.trim().split('\n');
    expect(lines[0]).toBe('sheet,row,outcome,reason,price_item_id,cells');
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 3))).toEqual([
      ['page 1', '1', 'not_added'],
      ['page 1', '2', 'rejected'],
      ['page 1', '3', 'not_added'],
    ]);
    expect(lines[2]).toContain('89,9O');
    expect(lines[2]).toContain('FI-11');
  });

  it('turns a scanned PDF price list (no text layer) into price items, read by OCR', async () => {
    const tenant = await createTenant();
    const agreementId = await newAgreement(tenant, 'Office supplies (scanned appendix)');
    const truth = truthOf('scan-en-office-supplies.pdf');
    // OCR takes seconds a page, more on a loaded machine: wait longer than for a text layer.
    const { priceImport } = await importFile(tenant, agreementId, truth.file, truth.defaultCurrency, 200_000);
    expect(priceImport, JSON.stringify(priceImport.failure)).toMatchObject({
      status: 'completed',
      failure: null,
      rows: { found: truth.items.length, added: truth.items.length, rejected: 0 },
    });
    // Numbers, codes, units and the currency named in the header are exact; OCR may drop a space
    // inside a description ("80g" for "80 g"), so descriptions are compared without spaces.
    const unspaced = (items: Truth['items']) =>
      sortedItems(items).map((item) => ({ ...item, description: item.description.replace(/\s+/gu, '') }));
    expect(unspaced(await priceItems(tenant, agreementId))).toEqual(unspaced(truth.items));
  }, 240_000);

  it("lists an agreement's price imports, and with needs_review those a person should look at", async () => {
    const tenant = await createTenant();
    const agreementId = await newAgreement(tenant, 'Review queue');
    const good = (await importFile(tenant, agreementId, 'no-furniture.pdf', 'EUR')).priceImport;
    const bad = (await importFile(tenant, agreementId, 'fi-unreadable-row.pdf', 'EUR')).priceImport;
    const all = await tenant.call(`/v1/agreements/${agreementId}/price-imports`);
    expect(all.status).toBe(200);
    expect(all.body.data.map((i: any) => i.id)).toEqual([bad.id, good.id]);
    expect(
      (await tenant.call(`/v1/agreements/${agreementId}/price-imports?needs_review=true`)).body.data.map(
        (i: any) => i.id,
      ),
    ).toEqual([bad.id]);
    expect(
      (await tenant.call(`/v1/agreements/${agreementId}/price-imports?needs_review=false`)).body.data.map(
        (i: any) => i.id,
      ),
    ).toEqual([good.id]);
    const paged = await tenant.call(`/v1/agreements/${agreementId}/price-imports?limit=1`);
    expect(paged.body.data).toHaveLength(1);
    const next = await tenant.call(
      `/v1/agreements/${agreementId}/price-imports?limit=1&cursor=${paged.body.next_cursor}`,
    );
    expect(next.body).toMatchObject({ data: [{ id: good.id }], next_cursor: null });
    expect((await tenant.call(`/v1/agreements/${agreementId}/price-imports?needs_review=maybe`)).status).toBe(400);
    // Another organization sees neither the agreement nor its imports.
    const other = await createTenant();
    expect((await other.call(`/v1/agreements/${agreementId}/price-imports`)).status).toBe(404);
    // A person confirms they looked at it: it leaves the queue, its rows and figures unchanged,
    // and the agreement's timeline says who. A Read key may not; another organization finds nothing.
    const confirm = `/v1/agreements/${agreementId}/price-imports/${bad.id}/confirm-review`;
    const readKey = await keyFor(tenant, 'read');
    const refused = await call(confirm, { method: 'POST', token: readKey, organizationId: tenant.organizationId });
    expect(refused.status).toBe(403);
    expect((await other.call(confirm, { method: 'POST' })).status).toBe(404);
    const confirmed = await tenant.call(confirm, { method: 'POST' });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toEqual({ ...bad, needs_review: false });
    expect((await tenant.call(`/v1/agreements/${agreementId}/price-imports?needs_review=true`)).body.data).toEqual([]);
    const again = await tenant.call(confirm, { method: 'POST' });
    expect(again.body).toEqual(confirmed.body);
    const timeline = await tenant.call(`/v1/activity?entity_type=agreement&entity_id=${agreementId}`);
    const entries = timeline.body.data.filter((entry: any) => entry.action === 'price_import_review_confirmed');
    expect(entries).toHaveLength(1);
    expect(entries[0].changes.price_import_id.after).toBe(bad.id);
    // An import that needed no review stays as it is.
    const untouched = await tenant.call(`/v1/agreements/${agreementId}/price-imports/${good.id}/confirm-review`, {
      method: 'POST',
    });
    expect(untouched.body).toEqual(good);
  });
});
