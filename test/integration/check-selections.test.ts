import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { invoiceOf, postAlert } from '../support/alerts.js';
import { expectError } from '../support/api.js';
import { agreementWithPrice, peppolInvoice, rematch, settledRun, uploadedInvoice } from '../support/checks.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

// Check selections over real matched pairs: Peppol invoices uploaded through the Ingestion API,
// active agreements with prices on their supplier, matches refreshed. The fixture: four invoices
// (issued 2017-11-13, 2017-12-01, 2018-01-15, 2018-02-01) matched to active agreements A and B
// (8 eligible pairs), a draft agreement D (matched, not ready), and an invoice sent as data
// (matched too, but without an original document).

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

const uploadedAs = (tenant: Tenant, number: string, issueDate: string) =>
  uploadedInvoice(tenant, peppolInvoice(number, issueDate));
const agreement = agreementWithPrice;

interface Fixture {
  tenant: Tenant;
  invoices: { id: string; number: string; issueDate: string }[];
  dataInvoiceId: string;
  a: { id: string; priceItemId: string | null };
  b: { id: string; priceItemId: string | null };
  d: { id: string };
  tagId: string;
}

async function buildFixture(): Promise<Fixture> {
  const tenant = await createTenant();
  const tag = `SEL-${randomUUID().slice(0, 6)}`;
  const dates = ['2017-11-13', '2017-12-01', '2018-01-15', '2018-02-01'];
  const invoices = [];
  for (const [index, issueDate] of dates.entries()) {
    const number = `${tag}-${index + 1}`;
    const invoice = await uploadedAs(tenant, number, issueDate);
    invoices.push({ id: invoice.id as string, number, issueDate, supplier: invoice.supplier });
  }
  const supplier = invoices[0]!.supplier;
  const dataInvoice = await invoiceOf(
    tenant,
    { name: supplier.invoiced_as.name, org_number: supplier.invoiced_as.org_number },
    { number: `${tag}-data` },
  );
  expect(dataInvoice.supplier.id).toBe(supplier.id);
  const tagId = (await tenant.call('/v1/agreements/tags', { method: 'POST', body: { name: tag } })).body.id;
  const a = await agreement(
    tenant,
    { title: 'Alpha consulting', status: 'active', supplier_ids: [supplier.id], tag_ids: [tagId] },
    '350.00',
  );
  const b = await agreement(
    tenant,
    { title: 'Beta consulting', status: 'active', supplier_ids: [supplier.id] },
    '380.00',
  );
  const d = await agreement(tenant, {
    title: 'Draft consulting',
    supplier_ids: [supplier.id],
    tag_ids: [tagId],
    instructions: 'x',
  });
  for (const id of [a.id, b.id, d.id]) await rematch(tenant, id);
  return {
    tenant,
    invoices: invoices.map(({ id, number, issueDate }) => ({ id, number, issueDate })),
    dataInvoiceId: dataInvoice.id,
    a,
    b,
    d,
    tagId,
  };
}

const preview = (tenant: Tenant, body: object) => tenant.call('/v1/check-selections/preview', { method: 'POST', body });

describe('check selections', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await buildFixture();
  }, 240_000);

  it('previews explicit agreements: checks, exclusions with examples, the first invoices and a stable fingerprint', async () => {
    const body = { scope: { agreement_ids: [f.a.id, f.b.id, f.d.id] } };
    const first = await preview(f.tenant, body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      checks: 8,
      agreements: 2,
      invoices: 4,
      limits: { max_checks: 5000, max_agreement_runs: 50 },
      within_limits: true,
      complete: true,
      replacement_impact: {
        alerts: 0,
        by_status: { pending: 0, dismissed: 0, credited: 0 },
        kept_in_claims: 0,
        impact: [],
      },
    });
    expect([...first.body.sample_invoice_ids].sort()).toEqual(f.invoices.map((i) => i.id).sort());
    const byReason = Object.fromEntries(first.body.exclusions.map((e: any) => [e.reason, e]));
    // The draft against the 4 uploaded invoices; the data invoice against A, B and D.
    expect(byReason.agreement_not_ready.count).toBe(4);
    expect(byReason.agreement_not_ready.examples[0]).toEqual({ invoice_id: expect.any(String), agreement_id: f.d.id });
    expect(byReason.no_original_document).toMatchObject({ count: 3 });
    expect(byReason.no_original_document.examples.every((e: any) => e.invoice_id === f.dataInvoiceId)).toBe(true);
    expect(first.body.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect((await preview(f.tenant, body)).body.fingerprint).toBe(first.body.fingerprint);
    expect((await preview(f.tenant, { ...body, mode: 'again' })).body.fingerprint).not.toBe(first.body.fingerprint);
  });

  it('previews an agreement filter (active agreements only, the rest counted), a topic, and rejects bad scopes naming the field', async () => {
    const tagged = await preview(f.tenant, { scope: { agreement_filter: { tag_ids: [f.tagId] } } });
    expect(tagged.body).toMatchObject({ checks: 4, agreements: 1, invoices: 4 });
    expect(tagged.body.exclusions).toContainEqual({
      reason: 'agreement_not_active',
      count: 1,
      examples: [{ invoice_id: null, agreement_id: f.d.id }],
    });
    const searched = await preview(f.tenant, { scope: { agreement_filter: { search: 'beta' } } });
    expect(searched.body).toMatchObject({ checks: 4, agreements: 1 });
    expect(
      (await preview(f.tenant, { scope: { agreement_filter: { search: 'nothing like it' } } })).body,
    ).toMatchObject({ checks: 0, agreements: 0, sample_invoice_ids: [] });

    const alert = await postAlert(f.tenant, {
      invoice_id: f.invoices[1]!.id,
      agreement_id: f.b.id,
      impact_amount: '12.50',
    });
    const topic = await f.tenant.call('/v1/alert-topics', {
      method: 'POST',
      body: { agreement_id: f.b.id, title: 'Day rates', alert_ids: [alert.id] },
    });
    expect(topic.status).toBe(201);
    const byTopic = await preview(f.tenant, { scope: { topic_id: topic.body.id } });
    expect(byTopic.body).toMatchObject({
      checks: 1,
      agreements: 1,
      invoices: 1,
      sample_invoice_ids: [f.invoices[1]!.id],
    });
    // The alert on the pair is what a check would replace.
    expect(byTopic.body.replacement_impact).toEqual({
      alerts: 1,
      by_status: { pending: 1, dismissed: 0, credited: 0 },
      kept_in_claims: 0,
      impact: [{ currency_code: 'EUR', amount: '12.50' }],
    });
    await f.tenant.call(`/v1/alerts/${alert.id}`, { method: 'DELETE' });

    const bad = [
      [{ scope: { agreement_ids: [f.a.id], topic_id: topic.body.id } }, 'scope'],
      [{ scope: { agreement_ids: [randomUUID()] } }, 'scope.agreement_ids'],
      [{ scope: { agreement_filter: { tag_ids: [randomUUID()] } } }, 'scope.agreement_filter.tag_ids'],
      [{ scope: { topic_id: randomUUID() } }, 'scope.topic_id'],
      [{ scope: { workflow_run_id: randomUUID() } }, 'scope.workflow_run_id'],
      [{ scope: { agreement_ids: [f.a.id] }, invoices: { invoice_ids: [randomUUID()] } }, 'invoices.invoice_ids'],
      [{ scope: { agreement_ids: [f.a.id] }, invoices: { sample: { size: 11, seed: 1 } } }, 'invoices'],
      [
        { scope: { agreement_ids: [f.a.id] }, invoices: { issued_from: '2018-01-01', issued_through: '2017-01-01' } },
        'invoices.issued_through',
      ],
      [{ scope: { agreement_ids: [f.a.id] }, mode: 'sometimes' }, 'mode'],
      [{ scope: { agreement_ids: [f.a.id] }, extra: true }, 'body'],
    ] as const;
    for (const [body, field] of bad) {
      const response = await preview(f.tenant, body);
      expectError(response, 400, 'validation_error');
      expect(
        response.body.error.details.map((d: any) => d.field),
        JSON.stringify(body),
      ).toContain(field);
    }
  });

  it('chooses invoices by id, by an inclusive issue-date range, or by a stable sample of distinct invoices', async () => {
    const scope = { agreement_ids: [f.a.id, f.b.id] };
    const byIds = await preview(f.tenant, { scope, invoices: { invoice_ids: [f.invoices[0]!.id, f.invoices[3]!.id] } });
    expect(byIds.body).toMatchObject({ checks: 4, invoices: 2 });
    expect([...byIds.body.sample_invoice_ids].sort()).toEqual([f.invoices[0]!.id, f.invoices[3]!.id].sort());

    const range = await preview(f.tenant, {
      scope,
      invoices: { issued_from: '2017-12-01', issued_through: '2018-01-15' },
    });
    expect(range.body).toMatchObject({ checks: 4, invoices: 2 });
    expect([...range.body.sample_invoice_ids].sort()).toEqual([f.invoices[1]!.id, f.invoices[2]!.id].sort());
    expect((await preview(f.tenant, { scope, invoices: { issued_from: '2018-01-16' } })).body).toMatchObject({
      checks: 2,
      invoices: 1,
    });

    const sampled = await preview(f.tenant, { scope, invoices: { sample: { size: 2, seed: 'audit-7' } } });
    const expected = f.invoices
      .map((i) => i.id)
      .sort((x, y) => (md5(`audit-7${x}`) < md5(`audit-7${y}`) ? -1 : 1))
      .slice(0, 2);
    expect(sampled.body).toMatchObject({ checks: 4, invoices: 2, sample_invoice_ids: expected });
    const again = await preview(f.tenant, { scope, invoices: { sample: { size: 2, seed: 'audit-7' } } });
    expect(again.body.sample_invoice_ids).toEqual(expected);
    expect(again.body.fingerprint).toBe(sampled.body.fingerprint);
    const all = await preview(f.tenant, { scope, invoices: { sample: { size: 10, seed: 3 } } });
    expect(all.body).toMatchObject({ checks: 8, invoices: 4 });
    expect(new Set(all.body.sample_invoice_ids).size).toBe(4);
  });

  it('pages the candidate invoices newest first; search filters the rows, never the selection', async () => {
    const selection = { scope: { agreement_ids: [f.a.id, f.b.id] } };
    const page = (body: object) =>
      f.tenant.call('/v1/check-selections/invoices', { method: 'POST', body: { selection, ...body } });
    const first = await page({ limit: 3 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.map((i: any) => i.issue_date)).toEqual(['2018-02-01', '2018-01-15', '2017-12-01']);
    expect(first.body.data[0]).toMatchObject({
      id: f.invoices[3]!.id,
      invoice_number: f.invoices[3]!.number,
      supplier: { id: expect.any(String), name: expect.any(String) },
      amounts: { currency_code: 'EUR', payable: expect.stringMatching(/^\d+\.\d{2,}$/) },
    });
    expect([...first.body.data[0].agreement_ids].sort()).toEqual([f.a.id, f.b.id].sort());
    const second = await page({ limit: 3, cursor: first.body.next_cursor });
    expect(second.body).toMatchObject({
      data: [expect.objectContaining({ id: f.invoices[0]!.id })],
      next_cursor: null,
    });

    const searched = await page({ search: f.invoices[2]!.number });
    expect(searched.body.data.map((i: any) => i.id)).toEqual([f.invoices[2]!.id]);
    const bySupplier = await page({ search: 'suppliertrading' });
    expect(bySupplier.body.data).toHaveLength(4);

    // The cursor is bound to the selection and the search.
    expectError(await page({ limit: 3, cursor: first.body.next_cursor, search: 'x' }), 400, 'validation_error');
    expectError(
      await f.tenant.call('/v1/check-selections/invoices', {
        method: 'POST',
        body: { selection: { scope: { agreement_ids: [f.a.id] } }, limit: 3, cursor: first.body.next_cursor },
      }),
      400,
      'validation_error',
    );
    const invalid = await f.tenant.call('/v1/check-selections/invoices', {
      method: 'POST',
      body: { selection: { scope: { agreement_ids: [randomUUID()] } } },
    });
    expectError(invalid, 400, 'validation_error');
    expect(invalid.body.error.details[0].field).toBe('selection.scope.agreement_ids');
  });

  it('starts one run per agreement for the previewed fingerprint, refuses a changed selection, and keeps a receipt', async () => {
    const { tenant } = f;
    const selection = {
      scope: { agreement_ids: [f.a.id, f.b.id] },
      invoices: { invoice_ids: [f.invoices[0]!.id, f.invoices[1]!.id] },
    };
    const seen = await preview(tenant, selection);
    expect(seen.body.checks).toBe(4);

    // A price of A changes after the preview: its terms version moves, so does the fingerprint.
    const patched = await tenant.call(`/v1/agreements/${f.a.id}/price-items`, {
      method: 'PATCH',
      body: { entries: [{ id: f.a.priceItemId, price: { type: 'amount', amount: '360.00' } }] },
    });
    expect(patched.status).toBe(200);
    const stale = await tenant.call('/v1/check-selections', {
      method: 'POST',
      body: { ...selection, fingerprint: seen.body.fingerprint },
    });
    expectError(stale, 409, 'selection_changed');
    expect(stale.body.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(stale.body.fingerprint).not.toBe(seen.body.fingerprint);
    expect(await testDb().workflowRun.count({ where: { organizationId: tenant.organizationId, type: 'check' } })).toBe(
      0,
    );

    const key = `start-${randomUUID()}`;
    const request = {
      method: 'POST',
      body: { ...selection, fingerprint: stale.body.fingerprint },
      headers: { 'Idempotency-Key': key },
    };
    const started = await tenant.call('/v1/check-selections', request);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body).toMatchObject({
      checks: 4,
      agreements: 2,
      invoices: 2,
      receipt_key: expect.any(String),
      fingerprint: stale.body.fingerprint,
    });
    expect(started.body.workflow_run_ids).toHaveLength(2);
    expect(started.headers.get('location')).toBe(`/v1/check-selections/${started.body.receipt_key}`);

    const replay = await tenant.call('/v1/check-selections', request);
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(started.body);
    expect((await tenant.call(`/v1/check-selections/${started.body.receipt_key}`)).body).toEqual(started.body);
    expect(
      (await tenant.call(`/v1/check-selections/${started.body.receipt_key}?fields=checks,workflow_run_ids`)).body,
    ).toEqual({ checks: 4, workflow_run_ids: started.body.workflow_run_ids });
    const stranger = await createTenant();
    expectError(await stranger.call(`/v1/check-selections/${started.body.receipt_key}`), 404, 'not_found');

    for (const runId of started.body.workflow_run_ids) {
      const run = await settledRun(tenant, runId);
      expect(run).toMatchObject({ status: 'completed', type: 'check' });
    }
    const runs = await testDb().workflowRun.findMany({
      where: { organizationId: tenant.organizationId, type: 'check' },
      select: { ownerId: true, progressTotal: true },
    });
    expect(runs.map((r) => r.ownerId).sort()).toEqual([f.a.id, f.b.id].sort());
    expect(runs.every((r) => r.progressTotal === 2)).toBe(true);
    const checks = await tenant.call(`/v1/compliance-checks?invoice_ids=${f.invoices[0]!.id},${f.invoices[1]!.id}`);
    expect(checks.body.data).toHaveLength(4);

    // Outstanding now: nothing left for these invoices; a start is refused with nothing started.
    const done = await preview(tenant, selection);
    expect(done.body).toMatchObject({ checks: 0 });
    expectError(
      await tenant.call('/v1/check-selections', {
        method: 'POST',
        body: { ...selection, fingerprint: done.body.fingerprint },
      }),
      409,
      'nothing_eligible',
    );
    // Again: the same pairs, and the check's alerts are what the next check replaces.
    const redo = await preview(tenant, { ...selection, mode: 'again' });
    expect(redo.body.checks).toBe(4);
    expect(redo.body.replacement_impact.by_status.pending).toBeGreaterThan(0);
    expect(redo.body.replacement_impact.impact).toEqual([
      { currency_code: 'EUR', amount: expect.stringMatching(/^\d+\.\d{2}$/) },
    ]);

    // Without Idempotency-Key the server makes the receipt key.
    const unkeyed = await tenant.call('/v1/check-selections', {
      method: 'POST',
      body: { ...selection, mode: 'again', fingerprint: redo.body.fingerprint },
    });
    expect(unkeyed.status).toBe(202);
    expect(unkeyed.body.receipt_key).not.toBe(started.body.receipt_key);
    expect(unkeyed.headers.get('location')).toBe(`/v1/check-selections/${unkeyed.body.receipt_key}`);
    expect((await tenant.call(unkeyed.headers.get('location')!)).body).toEqual(unkeyed.body);
    for (const runId of unkeyed.body.workflow_run_ids) await settledRun(tenant, runId);
  });

  it("selects a finished check run's unfinished items", async () => {
    const { tenant } = f;
    const db = testDb();
    const runId = randomUUID();
    // A finished check run whose items ended every way (its read model, as the workflow leaves it).
    await db.workflowRun.create({
      data: {
        id: runId,
        organizationId: tenant.organizationId,
        type: 'check',
        status: 'completed_with_errors',
        ownerType: 'agreement',
        ownerId: f.b.id,
      },
    });
    const items = [
      [f.invoices[2]!.id, f.b.id, 'failed'],
      [f.invoices[3]!.id, f.b.id, 'cancelled'],
      [f.invoices[2]!.id, f.a.id, 'completed'],
    ] as const;
    await db.workflowRunItem.createMany({
      data: items.map(([invoiceId, agreementId, status], position) => ({
        id: randomUUID(),
        runId,
        organizationId: tenant.organizationId,
        key: `${invoiceId}:${agreementId}`,
        status,
        position,
      })),
    });
    const unfinished = await preview(tenant, { scope: { workflow_run_id: runId } });
    expect(unfinished.body).toMatchObject({ checks: 2, agreements: 1, invoices: 2 });
    expect([...unfinished.body.sample_invoice_ids].sort()).toEqual([f.invoices[2]!.id, f.invoices[3]!.id].sort());

    const running = randomUUID();
    await db.workflowRun.create({
      data: { id: running, organizationId: tenant.organizationId, type: 'check', status: 'running' },
    });
    const refused = await preview(tenant, { scope: { workflow_run_id: running } });
    expectError(refused, 400, 'validation_error');
    expect(refused.body.error.details[0]).toMatchObject({
      field: 'scope.workflow_run_id',
      message: expect.stringContaining('running'),
    });
    await db.workflowRun.delete({ where: { id: running } });
  });

  it('refuses to start more than 50 agreement runs at once', async () => {
    const { tenant } = f;
    const title = `Bulk ${randomUUID().slice(0, 6)}`;
    const supplierId = (await tenant.call(`/v1/invoices/${f.invoices[0]!.id}`)).body.supplier.id;
    const ids: string[] = [];
    for (let n = 0; n < 51; n += 1) {
      ids.push(
        (
          await agreement(tenant, {
            title: `${title} ${n}`,
            status: 'active',
            supplier_ids: [supplierId],
            instructions: 'Day rates as agreed.',
          })
        ).id,
      );
    }
    // The matches a refresh of each would make (one refresh run per agreement is slow here).
    await testDb().invoiceAgreementMatch.createMany({
      data: ids.map((agreementId) => ({
        invoiceId: f.invoices[0]!.id,
        agreementId,
        organizationId: tenant.organizationId,
        reasons: ['test'],
      })),
      skipDuplicates: true,
    });
    const selection = { scope: { agreement_filter: { search: title } } };
    const big = await preview(tenant, selection);
    expect(big.body).toMatchObject({ checks: 51, agreements: 51, within_limits: false });
    const refused = await tenant.call('/v1/check-selections', {
      method: 'POST',
      body: { ...selection, fingerprint: big.body.fingerprint },
    });
    expectError(refused, 400, 'validation_error');
    expect(refused.body.error).toMatchObject({
      description: 'selection_too_large',
      details: [expect.objectContaining({ field: 'scope', message: expect.stringContaining('50') })],
    });
    expect(
      await testDb().workflowRun.count({
        where: { organizationId: tenant.organizationId, type: 'check', ownerId: { in: ids } },
      }),
    ).toBe(0);
    const fifty = await preview(tenant, { scope: { agreement_ids: ids.slice(0, 50) } });
    expect(fifty.body).toMatchObject({ checks: 50, agreements: 50, within_limits: true });
  });
});
