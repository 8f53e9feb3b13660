// Hostile files through the real stack: each is parsed in the worker's parser pool
// (src/shared/isolated.ts), fails alone with its code, and the next ordinary import of the same
// kind still works (the pool and the worker survived it).
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/api.js';
import { importDocument, sample, settledImport, uploadDocument } from '../support/invoices.js';
import { createTenant, type Tenant } from '../support/tenants.js';
import { buildDocx, MIME, wordParagraphs } from '../unit/agreements/documents/extraction/fixtures.js';
import { handMadeXlsx, sheetRowXml } from '../unit/agreements/price-lists/fixtures.js';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function billionLaughs(): Buffer {
  const levels = Array.from(
    { length: 9 },
    (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level};`.repeat(10)}">`,
  ).join('\n');
  return Buffer.from(
    `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol0 "lol">\n${levels}\n]>\n<Invoice>&lol9;</Invoice>`,
  );
}

async function importInvoiceFile(tenant: Tenant, fileName: string, bytes: Buffer) {
  const documentId = await uploadDocument(tenant, fileName, bytes);
  const started = await importDocument(tenant, documentId);
  expect(started.status).toBe(202);
  return settledImport(tenant, started.body.id);
}

async function settledRun(tenant: Tenant, runId: string) {
  return (
    await eventually(
      () => tenant.call(`/v1/workflow-runs/${runId}`),
      (r) => !['queued', 'running'].includes(r.body.status),
      90_000,
    )
  ).body;
}

describe('hostile files fail alone, with their code, and the next import works', () => {
  it('XML invoices: entity expansion, deep nesting and millions of elements', async () => {
    const tenant = await createTenant();
    const hostile: [string, Buffer, string][] = [
      ['laughs.xml', billionLaughs(), 'xml_entities_rejected'],
      ['deep.xml', Buffer.from(`<Invoice>${'<a>'.repeat(10_000)}x${'</a>'.repeat(10_000)}</Invoice>`), 'xml_too_deep'],
      ['huge.xml', Buffer.from(`<Invoice>${'<a/>'.repeat(4_000_000)}</Invoice>`), 'xml_too_many_elements'],
    ];
    for (const [fileName, bytes, code] of hostile) {
      const done = await importInvoiceFile(tenant, fileName, bytes);
      expect(done, fileName).toMatchObject({ status: 'failed', failure: { code } });
      expect(done.failure.message).not.toMatch(/\/work\/|node_modules|\.ts:/);
    }
    const normal = await importInvoiceFile(tenant, 'base-example.xml', sample('peppol-bis3/peppol-base-example.xml'));
    expect(normal).toMatchObject({ status: 'completed', outcome: 'imported', failure: null });
  }, 240_000);

  it('XML invoices imported at once are all read (the pool runs them side by side)', async () => {
    const tenant = await createTenant();
    const template = sample('peppol-bis3/peppol-base-example.xml').toString('utf8');
    const files = Array.from({ length: 4 }, (_, index) =>
      Buffer.from(template.replace('<cbc:ID>Snippet1</cbc:ID>', `<cbc:ID>Parallel-${index}</cbc:ID>`)),
    );
    const done = await Promise.all(
      files.map((bytes, index) => importInvoiceFile(tenant, `parallel-${index}.xml`, bytes)),
    );
    expect(done.map((item) => item.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
  }, 240_000);

  it('price lists: an XLSX zip bomb fails before it inflates, and the next price list imports', async () => {
    const tenant = await createTenant();
    const agreementId = (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Bomb' } })).body
      .id as string;
    const bomb = handMadeXlsx(sheetRowXml(1, ['Item', 'Price']), [
      { name: 'xl/media/filler.bin', data: new Uint8Array(160 * 1024 * 1024) },
    ]);
    const bombId = await uploadDocument(tenant, 'prices.xlsx', Buffer.from(bomb), XLSX_MIME);
    const csvId = await uploadDocument(
      tenant,
      'prices.csv',
      Buffer.from('Artikkelnummer;Beskrivelse;Enhet;Pris\nP-A4;Kopipapir A4;pk;42,50\n', 'utf8'),
      'text/csv',
    );
    const settledImportOf = async (documentId: string) => {
      const started = await tenant.call(`/v1/agreements/${agreementId}/price-imports`, {
        method: 'POST',
        body: { entries: [{ document_id: documentId, default_currency: 'NOK' }] },
      });
      expect(started.status).toBe(202);
      const importId = started.body.data[0].id;
      return (
        await eventually(
          () => tenant.call(`/v1/agreements/${agreementId}/price-imports/${importId}`),
          (r) => ['completed', 'failed'].includes(r.body.status),
          90_000,
        )
      ).body;
    };
    const failed = await settledImportOf(bombId);
    expect(failed).toMatchObject({ status: 'failed', failure: { code: 'extraction_incomplete' } });
    expect(failed.failure.message).toMatch(/too large/);
    const normal = await settledImportOf(csvId);
    expect(normal).toMatchObject({ status: 'completed', rows: { added: 1 } });
  }, 240_000);

  it('agreement documents: a DOCX nested too deep and a DOCX zip bomb fail with their codes, and the next DOCX is read', async () => {
    const tenant = await createTenant();
    const agreementId = (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Hostile DOCX' } })).body
      .id as string;
    const deep = await buildDocx(`${'<w:p>'.repeat(2_000)}${'</w:p>'.repeat(2_000)}`);
    const bomb = await buildDocx(wordParagraphs([`Avtale ${' '.repeat(120 * 1024 * 1024)}slutt.`]));
    const normal = await buildDocx(
      wordParagraphs([
        'Rammeavtale om levering av kontorrekvisita mellom Kontorhuset AS og Kunden AS. Oppsigelse skal skje skriftlig.',
      ]),
    );
    const ids: string[] = [];
    for (const [name, bytes] of [
      ['deep.docx', deep],
      ['bomb.docx', bomb],
      ['vilkår.docx', normal],
    ] as const)
      ids.push(await uploadDocument(tenant, name, Buffer.from(bytes), MIME.docx));
    const codes: Record<string, string | null> = {};
    for (const documentId of ids) {
      const started = await tenant.call(`/v1/agreements/${agreementId}/document-imports`, {
        method: 'POST',
        body: { entries: [{ document_id: documentId }] },
      });
      expect(started.status).toBe(202);
      await settledRun(tenant, started.body.workflow_run_id);
      const list = (await tenant.call(`/v1/agreements/${agreementId}/documents`)).body.data as any[];
      const document = list.find((entry) => entry.document_id === documentId);
      codes[documentId] = document.status === 'completed' ? null : document.failure?.code;
    }
    expect(Object.values(codes)).toEqual(['unreadable', 'too_large', null]);
  }, 240_000);
});
