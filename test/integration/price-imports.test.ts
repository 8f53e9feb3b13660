import { describe, expect, it } from 'vitest';
import { eventually, expectError } from '../support/api.js';
import { uploadDocument } from '../support/invoices.js';
import { createTenant, type Tenant } from '../support/tenants.js';

const PRICE_LIST = [
  'Prisliste 2026;;;',
  'Leverandør: Kontorhuset AS;;;',
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

async function settled(tenant: Tenant, agreementId: string, importId: string) {
  return (
    await eventually(
      () => tenant.call(`/v1/agreements/${agreementId}/price-imports/${importId}`),
      (r) => ['completed', 'failed'].includes(r.body.status),
    )
  ).body;
}

describe('price imports', () => {
  it('reads a price list below its title rows into price items, each row with its outcome', async () => {
    const tenant = await createTenant();
    const { agreementId, documentId } = await setup(tenant);
    const started = await tenant.call(`/v1/agreements/${agreementId}/price-imports`, {
      method: 'POST',
      body: { entries: [{ document_id: documentId, default_currency: 'NOK' }] },
    });
    expect(started.status).toBe(202);
    expect(started.body.data[0]).toMatchObject({ reused: false, document_id: documentId, mode: 'add' });
    const done = await settled(tenant, agreementId, started.body.data[0].id);
    expect(done).toMatchObject({
      status: 'completed',
      rows: { found: 4, added: 2, skipped: 1, rejected: 1 },
      failure: null,
    });

    const items = await tenant.call(`/v1/agreements/${agreementId}/price-items`);
    expect(
      items.body.data.map((i: any) => [
        i.seller_item_id,
        i.description,
        i.unit,
        i.currency_code,
        i.price.amount,
        i.source_document_id,
      ]),
    ).toEqual([
      ['P-A4', 'Kopipapir A4', 'pk', 'NOK', '42.5', documentId],
      ['T-1', 'Toner sort', 'stk', 'NOK', '615', documentId],
    ]);
    const download = await tenant.call(`/v1/agreements/${agreementId}/price-imports/${done.id}/download`);
    const lines = String(download.body).trim().split('\n');
    expect(lines[0]).toBe('sheet,row,outcome,reason,price_item_id,cells');
    expect(lines.slice(1).map((l) => l.split(',').slice(1, 3))).toEqual([
      ['5', 'added'],
      ['6', 'added'],
      ['7', 'rejected'],
      ['8', 'skipped'],
    ]);
    expect(lines[3]).toContain('abc');
  });

  it('returns the existing import, marked reused, for the same file with the same settings', async () => {
    const tenant = await createTenant();
    const { agreementId, documentId } = await setup(tenant);
    const first = await tenant.call(`/v1/agreements/${agreementId}/price-imports`, {
      method: 'POST',
      body: { entries: [{ document_id: documentId, default_currency: 'NOK' }] },
    });
    await settled(tenant, agreementId, first.body.data[0].id);
    const again = await tenant.call(`/v1/agreements/${agreementId}/price-imports`, {
      method: 'POST',
      body: { entries: [{ document_id: documentId, default_currency: 'NOK' }] },
    });
    // Nothing new started: 200 (not 202), no new run, and Location at the reused import, which
    // names its own (completed) run.
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      workflow_run_id: null,
      data: [
        { id: first.body.data[0].id, reused: true, status: 'completed', workflow_run_id: first.body.workflow_run_id },
      ],
    });
    expect(again.headers.get('location')).toBe(`/v1/agreements/${agreementId}/price-imports/${first.body.data[0].id}`);
    expect((await tenant.call(again.headers.get('location')!)).body).toMatchObject({
      id: first.body.data[0].id,
      status: 'completed',
    });
    // The import read takes fields.
    expect((await tenant.call(`${again.headers.get('location')}?fields=status,rows.added`)).body).toEqual({
      id: first.body.data[0].id,
      status: 'completed',
      rows: { added: 2 },
    });
    const otherSettings = await tenant.call(`/v1/agreements/${agreementId}/price-imports`, {
      method: 'POST',
      body: { entries: [{ document_id: documentId, default_currency: 'NOK', mode: 'replace_document' }] },
    });
    expect(otherSettings.body.data[0].reused).toBe(false);
    const replaced = await settled(tenant, agreementId, otherSettings.body.data[0].id);
    expect(replaced.rows).toMatchObject({ added: 2, skipped: 1 });
    expect((await tenant.call(`/v1/agreements/${agreementId}/price-items`)).body.data).toHaveLength(2);
  });

  it('fails with extraction_incomplete, adding nothing, when the list cannot be read completely', async () => {
    const tenant = await createTenant();
    const { agreementId, documentId } = await setup(tenant, 'just some text\nwithout any header\n');
    const started = await tenant.call(`/v1/agreements/${agreementId}/price-imports`, {
      method: 'POST',
      body: { entries: [{ document_id: documentId, default_currency: 'EUR' }] },
    });
    const done = await settled(tenant, agreementId, started.body.data[0].id);
    expect(done).toMatchObject({ status: 'failed', failure: { code: 'extraction_incomplete' } });
    expect((await tenant.call(`/v1/agreements/${agreementId}/price-items`)).body.data).toEqual([]);
    expectError(
      await tenant.call(`/v1/agreements/${agreementId}/price-imports`, {
        method: 'POST',
        body: { entries: [{ document_id: documentId, default_currency: 'euro' }] },
      }),
      400,
      'validation_error',
    );
    // Three capitals that are no currency: refused at the door, not a failed import later.
    expectError(
      await tenant.call(`/v1/agreements/${agreementId}/price-imports`, {
        method: 'POST',
        body: { entries: [{ document_id: documentId, default_currency: 'QQQ' }] },
      }),
      400,
      'validation_error',
    );
  });
});
