import { describe, expect, it } from 'vitest';
import { eventually, expectError } from '../support/api.js';
import { uploadDocument } from '../support/invoices.js';
import { createTenant, type Tenant } from '../support/tenants.js';
import { buildPdf } from '../unit/invoices/parsing/pdf-builder.js';
import { buildDocx, MIME, wordParagraphs } from '../unit/agreements/documents/extraction/fixtures.js';

// The test stack caps the index at 40 passages a document (DOCUMENT_INDEX_MAX_PASSAGES).
const INDEX_CAP = 40;

const TERMS = [
  'RAMMEAVTALE OM KONTORREKVISITA',
  'Avtalen gjelder fra 1. januar 2026. ÅRLIG PRISJUSTERING skjer etter konsumprisindeksen, og leverandøren varsler prisendringer skriftlig.',
  'Oppsigelse: Avtalen kan sies opp med tre måneders varsel. Oppsigelse skal være skriftlig. Ved oppsigelse gjelder bestillinger som er gjort.',
  'Leverandøren svarer for forsinkelse.\nDagbot utgjør 0,5 % av ordreverdien per påbegynte dag.',
];

async function settledRun(tenant: Tenant, runId: string) {
  return (
    await eventually(
      () => tenant.call(`/v1/workflow-runs/${runId}`),
      (r) => !['queued', 'running'].includes(r.body.status),
      60_000,
    )
  ).body;
}

async function importedAgreement(tenant: Tenant, files: { name: string; bytes: Uint8Array; mime: string }[]) {
  const agreementId = (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Kontorrekvisita' } })).body
    .id as string;
  const documentIds: string[] = [];
  for (const file of files)
    documentIds.push(await uploadDocument(tenant, file.name, Buffer.from(file.bytes), file.mime));
  const started = await tenant.call(`/v1/agreements/${agreementId}/document-imports`, {
    method: 'POST',
    body: { entries: documentIds.map((id) => ({ document_id: id })) },
  });
  await settledRun(tenant, started.body.workflow_run_id);
  return { agreementId, documentIds };
}

async function indexed(tenant: Tenant, documentId: string) {
  const started = await tenant.call(`/v1/documents/${documentId}/index`, { method: 'POST' });
  expect(started.status).toBe(202);
  expect(started.headers.get('location')).toBe(`/v1/workflow-runs/${started.body.workflow_run_id}`);
  return settledRun(tenant, started.body.workflow_run_id);
}

const search = (tenant: Tenant, body: Record<string, unknown>) =>
  tenant.call('/v1/documents/search', { method: 'POST', body });

describe('document search', () => {
  it("ranks passages of an agreement's documents, with position, highlights and the agreement", async () => {
    const tenant = await createTenant();
    const pdf = buildPdf({
      lines: ['Prisbilag til rammeavtalen', 'Oppsigelse av prisavtalen skjer sammen med rammeavtalen.'],
    });
    const { agreementId, documentIds } = await importedAgreement(tenant, [
      { name: 'avtale.docx', bytes: await buildDocx(wordParagraphs(TERMS)), mime: MIME.docx },
      { name: 'prisbilag.pdf', bytes: pdf, mime: MIME.pdf },
    ]);
    const [docx, pdfId] = documentIds as [string, string];

    const result = await search(tenant, { query: 'oppsigelse', agreement_id: agreementId });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      mode: 'ranked',
      unavailable_documents: [],
      partial: false,
      partial_documents: [],
      has_more: false,
    });
    const passages = result.body.passages;
    expect(passages.map((p: any) => p.document_id)).toEqual([docx, pdfId]);
    // Three mentions outrank one.
    expect(passages[0].score).toBeGreaterThan(passages[1].score);
    expect(passages[0]).toMatchObject({
      file_name: 'avtale.docx',
      agreement_ids: [agreementId],
      position: { page: null, sheet: null },
    });
    const first = passages[0];
    expect(first.highlights.map((h: any) => first.text.slice(h.start, h.end))).toEqual([
      'Oppsigelse',
      'Oppsigelse',
      'oppsigelse',
    ]);
    expect(first.position.end_offset - first.position.start_offset).toBe(first.text.length);
    expect(passages[1].position.page).toBe(1);

    // Case is folded for every letter, Nordic capitals included; websearch syntax works.
    const nordic = await search(tenant, { query: 'årlig prisjustering', agreement_id: agreementId });
    expect(nordic.body.passages).toHaveLength(1);
    expect(nordic.body.passages[0].text).toContain('ÅRLIG PRISJUSTERING');
    const excluded = await search(tenant, { query: 'oppsigelse -prisavtalen', agreement_id: agreementId });
    expect(excluded.body.passages.map((p: any) => p.document_id)).toEqual([docx]);
    const limited = await search(tenant, { query: 'oppsigelse', document_ids: [docx, pdfId], limit: 1 });
    expect(limited.body).toMatchObject({ has_more: true, passages: [{ document_id: docx }] });
    expect((await search(tenant, { query: 'fakturagebyr', agreement_id: agreementId })).body.passages).toEqual([]);
  });

  it('finds an exact phrase, case-insensitive and across a line break, only in named documents', async () => {
    const tenant = await createTenant();
    // Plain text keeps the line break inside the last paragraph.
    const { agreementId, documentIds } = await importedAgreement(tenant, [
      { name: 'avtale.txt', bytes: new TextEncoder().encode(TERMS.join('\n\n')), mime: MIME.text },
    ]);
    const [textDoc] = documentIds as [string];

    const found = await search(tenant, { query: 'FORSINKELSE. dagbot', mode: 'exact', document_ids: [textDoc] });
    expect(found.status).toBe(200);
    expect(found.body.passages).toHaveLength(1);
    const [passage] = found.body.passages;
    expect(passage.score).toBeNull();
    expect(passage.highlights.map((h: any) => passage.text.slice(h.start, h.end))).toEqual(['forsinkelse.\nDagbot']);
    // Special characters are literal.
    expect(
      (await search(tenant, { query: '0,5 %', mode: 'exact', document_ids: [textDoc] })).body.passages,
    ).toHaveLength(1);
    expect(
      (await search(tenant, { query: '0.5 %', mode: 'exact', document_ids: [textDoc] })).body.passages,
    ).toHaveLength(0);
    // Words out of order are not the phrase (ranked search would find them).
    expect(
      (await search(tenant, { query: 'varsel måneders', mode: 'exact', document_ids: [textDoc] })).body.passages,
    ).toEqual([]);
    expect((await search(tenant, { query: 'varsel måneders', document_ids: [textDoc] })).body.passages).toHaveLength(1);

    const needsDocuments = await search(tenant, { query: 'dagbot', mode: 'exact' });
    expectError(needsDocuments, 400, 'validation_error');
    expect(needsDocuments.body.error.details.map((d: any) => d.field)).toEqual(['document_ids']);
    const noAgreement = await search(tenant, {
      query: 'dagbot',
      mode: 'exact',
      document_ids: [textDoc],
      agreement_id: agreementId,
    });
    expectError(noAgreement, 400, 'validation_error');
    expect(noAgreement.body.error.details.map((d: any) => d.field)).toEqual(['agreement_id']);
    expectError(await search(tenant, { query: 'dagbot' }), 400, 'validation_error');
    expectError(
      await search(tenant, { query: 'dagbot', agreement_id: agreementId, document_ids: [textDoc] }),
      400,
      'validation_error',
    );
    expectError(await search(tenant, { query: '   ', agreement_id: agreementId }), 400, 'validation_error');
    expectError(
      await search(tenant, { query: 'dagbot', mode: 'fuzzy', document_ids: [textDoc] }),
      400,
      'validation_error',
    );
  });

  it('reports documents it could not search, and indexes a document on request', async () => {
    const tenant = await createTenant();
    const stranger = await createTenant();
    const { documentIds } = await importedAgreement(tenant, [
      { name: 'kontrakt.pdf', bytes: new TextEncoder().encode('not a pdf'), mime: MIME.pdf },
    ]);
    const [broken] = documentIds as [string];
    const plain = await uploadDocument(tenant, 'vilkår.txt', Buffer.from(TERMS.join('\n\n'), 'utf8'), MIME.text);
    const theirs = await uploadDocument(stranger, 'theirs.txt', Buffer.from('Oppsigelse er mulig.'), MIME.text);
    await indexed(stranger, theirs);

    const before = await search(tenant, { query: 'oppsigelse', document_ids: [plain, broken, theirs] });
    expect(before.body.passages).toEqual([]);
    expect(before.body.unavailable_documents.map((u: any) => [u.document_id, u.reason])).toEqual([
      [plain, 'not_indexed'],
      [broken, 'failed'],
      [theirs, 'not_found'],
    ]);
    expect(before.body.unavailable_documents[1].message).toMatch(/PDF/);

    expect(await indexed(tenant, plain)).toMatchObject({
      status: 'completed',
      type: 'document_index',
      owner: { type: 'document', id: plain },
    });
    const after = await search(tenant, { query: 'oppsigelse', document_ids: [plain] });
    expect(after.body).toMatchObject({
      unavailable_documents: [],
      passages: [{ document_id: plain, agreement_ids: [] }],
    });
    // Indexing again replaces the passages rather than adding to them.
    await indexed(tenant, plain);
    expect((await search(tenant, { query: 'oppsigelse', document_ids: [plain] })).body.passages).toHaveLength(1);

    expectError(await tenant.call(`/v1/documents/${theirs}/index`, { method: 'POST' }), 404, 'not_found');
    const registered = (
      await tenant.call('/v1/documents/upload', {
        method: 'POST',
        body: { file_name: 'later.txt', mime_type: 'text/plain', file_size: 10 },
      })
    ).body.document_id;
    expectError(await tenant.call(`/v1/documents/${registered}/index`, { method: 'POST' }), 400, 'validation_error');
    expectError(
      await search(stranger, {
        query: 'oppsigelse',
        agreement_id: (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'x' } })).body.id,
      }),
      404,
      'not_found',
    );
  });

  it('says a result is partial when a document is larger than the index cap', async () => {
    const tenant = await createTenant();
    // Paragraphs of over 600 characters stay passages of their own (two would exceed 1,200).
    const paragraphs = Array.from(
      { length: INDEX_CAP + 5 },
      (_, i) =>
        `Punkt ${i + 1}. ${i === 0 ? 'Innledning.' : ''} ${i === INDEX_CAP + 4 ? 'Sluttbestemmelse om voldgift.' : ''} ${'Leverandøren skal levere varene til avtalt tid og sted. '.repeat(12)}`,
    );
    const large = await uploadDocument(
      tenant,
      'stor-avtale.txt',
      Buffer.from(paragraphs.join('\n\n'), 'utf8'),
      MIME.text,
    );
    const small = await uploadDocument(tenant, 'liten.txt', Buffer.from('Voldgift er avtalt.'), MIME.text);
    await indexed(tenant, large);
    await indexed(tenant, small);

    const tail = await search(tenant, { query: 'voldgift', document_ids: [large, small] });
    expect(tail.body.passages.map((p: any) => p.document_id)).toEqual([small]);
    expect(tail.body.partial).toBe(true);
    expect(tail.body.partial_documents).toEqual([
      {
        document_id: large,
        indexed_passages: INDEX_CAP,
        reason: expect.stringContaining(`first ${INDEX_CAP} of ${INDEX_CAP + 5}`),
      },
    ]);
    const head = await search(tenant, { query: 'innledning', mode: 'exact', document_ids: [large] });
    expect(head.body).toMatchObject({ partial: true, passages: [{ document_id: large, position: { passage: 0 } }] });
    expect((await search(tenant, { query: 'voldgift', document_ids: [small] })).body.partial).toBe(false);
  });
});
