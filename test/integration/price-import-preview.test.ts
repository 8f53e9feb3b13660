import { describe, expect, it } from 'vitest';
import { expectError } from '../support/api.js';
import { uploadDocument } from '../support/invoices.js';
import { createTenant, keyFor, testDb, type Tenant } from '../support/tenants.js';

// POST /v1/agreements/{id}/price-imports/preview: the rows an import would find, with their
// would-be outcomes, and nothing saved.

const PRICE_LIST = [
  'Prisliste 2026;;;',
  ';;;',
  'Artikkelnummer;Beskrivelse;Enhet;Pris',
  'P-A4;Kopipapir A4;pk;42,50',
  'T-1;Toner sort;stk;615,00',
  'X-9;Stiftemaskin;stk;abc',
  'P-A4;Kopipapir A4;pk;42,50',
].join('\n');

async function setup(tenant: Tenant, csv = PRICE_LIST) {
  const agreementId = (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Kontorrekvisita' } })).body
    .id as string;
  const documentId = await uploadDocument(tenant, 'prisliste.csv', Buffer.from(csv, 'utf8'), 'text/csv');
  return { agreementId, documentId };
}

const preview = (tenant: Tenant, agreementId: string, entries: unknown) =>
  tenant.call(`/v1/agreements/${agreementId}/price-imports/preview`, { method: 'POST', body: { entries } });

describe('price import preview', () => {
  it('lists every row with its would-be outcome and saves nothing', async () => {
    const tenant = await createTenant();
    const { agreementId, documentId } = await setup(tenant);
    // One item already on the agreement: the same toner row would be skipped.
    const created = await tenant.call(`/v1/agreements/${agreementId}/price-items`, {
      method: 'POST',
      body: {
        entries: [
          {
            description: 'Toner sort',
            seller_item_id: 'T-1',
            unit: 'stk',
            currency_code: 'NOK',
            price: { type: 'amount', amount: '615.00' },
          },
        ],
      },
    });
    expect(created.status).toBe(201);
    const answer = await preview(tenant, agreementId, [{ document_id: documentId, default_currency: 'NOK' }]);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      document_id: documentId,
      default_currency: 'NOK',
      mode: 'add',
      complete: true,
      failure: null,
      rows: { found: 4, added: 1, skipped: 2, rejected: 1, not_added: 0 },
      truncated: false,
    });
    expect(answer.body.sheets[0]).toMatchObject({
      header_row: 3,
      columns: { price: 'Pris', description: 'Beskrivelse' },
    });
    expect(answer.body.data.map((r: any) => [r.row, r.outcome])).toEqual([
      [4, 'added'],
      [5, 'skipped'],
      [6, 'rejected'],
      [7, 'skipped'],
    ]);
    expect(answer.body.data[0].item).toEqual({
      description: 'Kopipapir A4',
      seller_item_id: 'P-A4',
      unit: 'pk',
      currency_code: 'NOK',
      price: { type: 'amount', amount: '42.5' },
      valid_from: null,
      valid_until: null,
    });
    expect(answer.body.data[2]).toMatchObject({ item: null, cells: { Pris: 'abc' } });
    expect(answer.body.data[1].reason).toBe('the same price item is already on the agreement');
    expect(answer.body.data[3].reason).toBe('the same price item is earlier in this list');
    expect(answer.body.data[2].reason).toContain('abc');
    // replace_all compares with nothing: the agreement's toner would go, the file's would be added.
    const replacing = await preview(tenant, agreementId, [
      { document_id: documentId, default_currency: 'NOK', mode: 'replace_all' },
    ]);
    expect(replacing.body.rows).toMatchObject({ added: 2, skipped: 1, rejected: 1 });

    // Nothing saved: the one item entered, no import, no import rows, no run.
    const items = await tenant.call(`/v1/agreements/${agreementId}/price-items`);
    expect(items.body.data).toHaveLength(1);
    expect((await tenant.call(`/v1/agreements/${agreementId}/price-imports`)).body.data).toEqual([]);
    const db = testDb();
    expect(await db.priceImport.count({ where: { agreementId } })).toBe(0);
    expect(await db.workflowRun.count({ where: { organizationId: tenant.organizationId, type: 'price_import' } })).toBe(
      0,
    );
  });

  it('says the import would add nothing when the list cannot be read completely', async () => {
    const tenant = await createTenant();
    const { agreementId, documentId } = await setup(tenant, 'just some text\nwithout any header\n');
    const answer = await preview(tenant, agreementId, [{ document_id: documentId, default_currency: 'EUR' }]);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      complete: false,
      failure: { code: 'no_header_row' },
      rows: { found: 0, added: 0 },
      data: [],
    });
  });

  it("refuses a wrong entry in the spec's error body, and another organization's agreement is 404", async () => {
    const tenant = await createTenant();
    const { agreementId, documentId } = await setup(tenant);
    const badCurrency = await preview(tenant, agreementId, [{ document_id: documentId, default_currency: 'XYZ' }]);
    expectError(badCurrency, 400, 'validation_error');
    expect(badCurrency.body.error.details.map((d: any) => d.field)).toContain('entries.0.default_currency');
    expectError(await preview(tenant, agreementId, []), 400, 'validation_error');
    expectError(
      await preview(tenant, agreementId, [
        { document_id: documentId, default_currency: 'NOK' },
        { document_id: documentId, default_currency: 'EUR' },
      ]),
      400,
      'validation_error',
    );
    const unknownDocument = await preview(tenant, agreementId, [
      { document_id: '00000000-0000-4000-8000-000000000000', default_currency: 'NOK' },
    ]);
    expect(unknownDocument.status).toBe(404);
    expect(unknownDocument.body.error.request_id).toEqual(expect.any(String));

    const other = await createTenant();
    const theirs = await setup(other);
    // Their agreement is not found, and neither is their document on our agreement.
    const foreignAgreement = await preview(tenant, theirs.agreementId, [
      { document_id: documentId, default_currency: 'NOK' },
    ]);
    expect(foreignAgreement.status).toBe(404);
    expect(foreignAgreement.body.error).toMatchObject({ request_id: expect.any(String), message: expect.any(String) });
    const foreignDocument = await preview(tenant, agreementId, [
      { document_id: theirs.documentId, default_currency: 'NOK' },
    ]);
    expect(foreignDocument.status).toBe(404);

    // A Read key may not preview an import it could not start.
    const readKey = await keyFor(tenant, 'read');
    expectError(
      await tenant.call(`/v1/agreements/${agreementId}/price-imports/preview`, {
        method: 'POST',
        token: readKey,
        body: { entries: [{ document_id: documentId, default_currency: 'NOK' }] },
      }),
      403,
      'insufficient_level',
    );
  });
});
