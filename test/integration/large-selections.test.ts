import { beforeAll, describe, expect, it } from 'vitest';
import { pairEligibility } from '../../src/checks/eligibility.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

// Reads whose id lists follow the data, at more ids than PostgreSQL's 65,535 bind parameters
// (docs/architecture.md, "Any size"): a claim over 66,000 invoices, its letter's pending alerts,
// its documents in the letter's order, the alert groups and exports over them, and the check
// eligibility of those invoices. Each was one `in: [...]` list and failed past the limit.

// Seeding 66,000 alerts into their text-search indexes takes minutes on a busy 2-core machine
// (a full run once spent over 180 s): the hooks and tests get 10 minutes.
const INVOICES = 66_000;
let tenant: Tenant;
let claimId: string;
let agreementId: string;

// Each seeding statement's time, printed: on a busy run this file once took 220 s against 30 s alone.
const seedTimes: string[] = [];
async function timed<T>(name: string, statement: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await statement();
  seedTimes.push(`${name} ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

async function seed(organizationId: string) {
  const db = testDb();
  const [supplier] = await db.$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO suppliers (id, organization_id, name, updated_at) VALUES (gen_random_uuid(), $1::uuid, 'Many Invoices AS', now()) RETURNING id::text`,
    organizationId,
  );
  const [agreement] = await db.$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO agreements (id, organization_id, title, status, effective_date, updated_at) VALUES (gen_random_uuid(), $1::uuid, 'Large', 'active', date '2026-01-01', now()) RETURNING id::text`,
    organizationId,
  );
  const [claim] = await db.$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO claims (id, organization_id, agreement_id, supplier_id, reference, title, status, updated_at)
     VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, 'CLM-LARGE-1', 'Many invoices', 'in_progress', now()) RETURNING id::text`,
    organizationId,
    agreement!.id,
    supplier!.id,
  );
  await timed('invoices', () =>
    db.$executeRawUnsafe(
      `INSERT INTO invoices (id, organization_id, processing_status, classification, source, document_type, invoice_number, issue_date, currency_code, supplier_id, supplier_party, updated_at)
     SELECT gen_random_uuid(), $1::uuid, 'completed', 'invoice', 'api', 'invoice', 'L-' || lpad(g::text, 6, '0'), date '2026-01-01' + (g % 300), 'EUR', $2::uuid, '{"name": "Many Invoices AS"}'::jsonb, now()
       FROM generate_series(1, $3) g`,
      organizationId,
      supplier!.id,
      INVOICES,
    ),
  );
  await timed('matches', () =>
    db.$executeRawUnsafe(
      `INSERT INTO invoice_agreement_matches (invoice_id, agreement_id, organization_id, reasons) SELECT id, $2::uuid, $1::uuid, ARRAY['test'] FROM invoices WHERE organization_id = $1::uuid`,
      organizationId,
      agreement!.id,
    ),
  );
  // One claimed alert per invoice, and a pending one for every tenth (the letter's include_pending).
  await timed('alerts', () =>
    db.$executeRawUnsafe(
      `INSERT INTO alerts (id, organization_id, invoice_id, agreement_id, claim_id, status, title, explanation, impact_amount, currency_code, confidence_level, citations, origin, updated_at)
     SELECT gen_random_uuid(), $1::uuid, i.id, $2::uuid, CASE WHEN k.pending THEN NULL ELSE $3::uuid END, (CASE WHEN k.pending THEN 'pending' ELSE 'claimed' END)::"AlertStatus",
            'Overcharge', 'Above the agreed price.', 1.25, 'EUR', 'certain', '[]'::jsonb, 'user', now()
       FROM invoices i CROSS JOIN (VALUES (false), (true)) AS k(pending)
      WHERE i.organization_id = $1::uuid AND (NOT k.pending OR right(i.invoice_number, 1) = '0')`,
      organizationId,
      agreement!.id,
      claim!.id,
    ),
  );
  return { agreementId: agreement!.id, claimId: claim!.id };
}

describe(`reads over ${INVOICES} invoices (more ids than bind parameters)`, () => {
  beforeAll(async () => {
    tenant = await createTenant();
    ({ agreementId, claimId } = await seed(tenant.organizationId));
    console.log(`large selections: seeded (${seedTimes.join(', ')})`);
  }, 600_000);

  it('exports the claim letter with the pending alerts of its invoices', async () => {
    const csv = await tenant.call(`/v1/claims/${claimId}/export?format=csv&include_pending=true`);
    expect(csv.status, String(csv.body).slice(0, 300)).toBe(200);
    const rows = String(csv.body).trim().split('\n');
    // A header, every claimed alert and every tenth invoice's pending one (and perhaps totals).
    expect(rows.length).toBeGreaterThanOrEqual(1 + INVOICES + INVOICES / 10);
  }, 600_000);

  it('lists the claim documents (none: these invoices were created as data)', async () => {
    const documents = await tenant.call(`/v1/claims/${claimId}/documents`);
    expect(documents.status, JSON.stringify(documents.body).slice(0, 300)).toBe(200);
    expect(documents.body.data).toEqual([]);
  }, 120_000);

  it('groups alerts by supplier and by invoice, and exports them', async () => {
    const bySupplier = await tenant.call('/v1/alerts/groups?group_by=supplier');
    expect(bySupplier.status, JSON.stringify(bySupplier.body).slice(0, 300)).toBe(200);
    expect(bySupplier.body.data).toEqual([expect.objectContaining({ count: INVOICES + INVOICES / 10 })]);
    // One group per invoice, paged like every list: a full page and a cursor to the rest.
    const byInvoice = await tenant.call('/v1/alerts/groups?group_by=invoice&limit=1000');
    expect(byInvoice.status, JSON.stringify(byInvoice.body).slice(0, 300)).toBe(200);
    expect(byInvoice.body.data).toHaveLength(1000);
    expect(byInvoice.body.next_cursor).toEqual(expect.any(String));
    expect(byInvoice.body.data[0].label).toMatch(/^L-\d{6}$/);
    const exported = await tenant.call('/v1/alerts/export?format=csv&statuses=claimed');
    expect(exported.status, String(exported.body).slice(0, 300)).toBe(200);
    expect(String(exported.body).trim().split('\n')).toHaveLength(1 + INVOICES);
  }, 600_000);

  it('decides the check eligibility of every pair, held by the open claim', async () => {
    const invoiceIds = (
      await testDb().invoice.findMany({ where: { organizationId: tenant.organizationId }, select: { id: true } })
    ).map((i) => i.id);
    const eligibility = await pairEligibility(testDb(), tenant.organizationId, invoiceIds);
    expect(eligibility.eligible).toEqual([]);
    expect(eligibility.excluded).toHaveLength(INVOICES);
    expect(new Set(eligibility.excluded.map((pair) => pair.agreementId))).toEqual(new Set([agreementId]));
  }, 600_000);
});
