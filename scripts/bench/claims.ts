// npm run bench:claims — claims at volume on a fresh stack: one agreement whose supplier sent
// 1,000 invoices with 10 alerts each (10,000 alerts, in EUR and NOK), seeded straight into the
// database; then, over HTTP: a claim taking all 10,000 alerts by filter, reading it (its summary
// sums every alert), moving all of them to a second claim, and
// the list (1,000 claims per page) and metrics over 1,000 more claims; in this process, the export's
// letter of 10,000 lines built from the database and rendered as CSV.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { buildClaimLetter, renderClaimCsv } from '../../src/claims/export/index.js';
import { Prisma } from '../../src/db/client.js';
import { printTable, seconds, withBenchStack, type BenchContext } from './support.js';

const { values } = parseArgs({
  options: {
    invoices: { type: 'string', default: '1000' },
    alerts: { type: 'string', default: '10' },
    claims: { type: 'string', default: '1000' },
    repeat: { type: 'string', default: '5' },
  },
});
const INVOICES = Number(values.invoices);
const ALERTS_PER_INVOICE = Number(values.alerts);
const CLAIMS = Number(values.claims);
const REPEAT = Number(values.repeat);
const TOTAL_ALERTS = INVOICES * ALERTS_PER_INVOICE;

async function seed({ db, tenant }: BenchContext) {
  const organizationId = tenant.organizationId;
  const supplierId = randomUUID();
  const agreementId = randomUUID();
  await db.supplier.create({
    data: { id: supplierId, organizationId, name: 'Bench supplier', orgNumber: '999888777' },
  });
  await db.agreement.create({
    data: { id: agreementId, organizationId, title: 'Bench agreement', suppliers: { create: [{ supplierId }] } },
  });
  const invoiceIds = Array.from({ length: INVOICES }, () => randomUUID());
  await db.invoice.createMany({
    data: invoiceIds.map((id, i) => ({
      id,
      organizationId,
      source: 'api',
      processingStatus: 'completed' as const,
      documentType: 'invoice' as const,
      invoiceNumber: `B-${String(i + 1).padStart(6, '0')}`,
      issueDate: new Date(Date.UTC(2026, 0, 1 + (i % 300))),
      currencyCode: i % 4 === 0 ? 'NOK' : 'EUR',
      supplierId,
    })),
  });
  await db.invoiceAgreementMatch.createMany({
    data: invoiceIds.map((invoiceId) => ({ invoiceId, agreementId, organizationId, reasons: ['bench'] })),
  });
  const alerts = invoiceIds.flatMap((invoiceId, i) =>
    Array.from({ length: ALERTS_PER_INVOICE }, (_, a) => ({
      id: randomUUID(),
      organizationId,
      invoiceId,
      agreementId,
      title: `Overcharge ${a + 1}`,
      explanation: 'Unit price above the agreed price [1].',
      impactAmount: new Prisma.Decimal(`${1 + ((i * 31 + a * 7) % 500)}.${String((i + a) % 100).padStart(2, '0')}`),
      currencyCode: i % 4 === 0 ? 'NOK' : 'EUR',
      confidenceLevel: 'certain',
      citations: [],
      origin: 'user',
    })),
  );
  for (let i = 0; i < alerts.length; i += 5000) await db.alert.createMany({ data: alerts.slice(i, i + 5000) });
  // Planner statistics, as autovacuum keeps them on a live database: without them the planner
  // takes the freshly filled tables for empty and picks nested loops over 10,000 rows.
  await db.$executeRawUnsafe('ANALYZE');
  return { agreementId, supplierId };
}

// Median of `REPEAT` timed calls, each expected to answer `status`.
async function timed(label: string, call: () => Promise<{ status: number }>, status = 200): Promise<[string, string]> {
  const times: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const startedAt = performance.now();
    const response = await call();
    times.push(performance.now() - startedAt);
    if (response.status !== status) throw new Error(`${label}: HTTP ${response.status}`);
  }
  times.sort((a, b) => a - b);
  return [label, `${times[Math.floor(times.length / 2)]!.toFixed(0)} ms (median of ${REPEAT})`];
}

await withBenchStack('Claims benchmark', async (context) => {
  const { tenant, db } = context;
  let startedAt = performance.now();
  const { agreementId, supplierId } = await seed(context);
  console.log(`seeded ${INVOICES} invoices and ${TOTAL_ALERTS} alerts in ${seconds(startedAt)} s`);
  const rows: [string, string][] = [];

  startedAt = performance.now();
  const created = await tenant.call('/v1/claims', {
    method: 'POST',
    body: { agreement_id: agreementId, title: 'Everything', alerts: { filter: { agreement_ids: [agreementId] } } },
  });
  const createMs = performance.now() - startedAt;
  if (created.status !== 201 || created.body.summary.counts.claimed !== TOTAL_ALERTS)
    throw new Error(`create: ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`);
  rows.push([
    `POST /v1/claims taking ${TOTAL_ALERTS} alerts by filter`,
    `${createMs.toFixed(0)} ms (${((createMs * 1000) / TOTAL_ALERTS).toFixed(1)} µs per alert)`,
  ]);
  const claimId = created.body.id as string;
  rows.push(
    await timed(`GET /v1/claims/{id} (summary of ${TOTAL_ALERTS} alerts)`, () => tenant.call(`/v1/claims/${claimId}`)),
  );

  const second = await tenant.call('/v1/claims', {
    method: 'POST',
    body: { agreement_id: agreementId, title: 'Second' },
  });
  startedAt = performance.now();
  const moved = await tenant.call(`/v1/claims/${second.body.id}/alerts`, {
    method: 'POST',
    body: { filter: { claim_ids: [claimId] }, move_from_open_claims: true },
  });
  const moveMs = performance.now() - startedAt;
  if (moved.status !== 200 || moved.body.moved.length !== TOTAL_ALERTS) throw new Error(`move: ${moved.status}`);
  rows.push([
    `POST /v1/claims/{id}/alerts moving ${TOTAL_ALERTS} alerts`,
    `${moveMs.toFixed(0)} ms (${((moveMs * 1000) / TOTAL_ALERTS).toFixed(1)} µs per alert)`,
  ]);
  // The export answers CSV, not JSON: its letter is built and rendered here, as the route does.
  rows.push(
    await timed(`export letter of ${TOTAL_ALERTS} lines: buildClaimLetter + CSV (in process)`, async () => {
      const letter = await buildClaimLetter(db, tenant.organizationId, second.body.id, {
        includePending: false,
        includeCredited: false,
      });
      const csv = renderClaimCsv(letter);
      return { status: letter.lines.length === TOTAL_ALERTS && csv.length > 0 ? 200 : 500 };
    }),
  );

  // Many claims: CLAIMS more, each with a refund, for the list and the metrics.
  const now = Date.now();
  await db.claim.createMany({
    data: Array.from({ length: CLAIMS }, (_, i) => ({
      id: randomUUID(),
      organizationId: tenant.organizationId,
      agreementId,
      supplierId,
      reference: `CLM-BENCH-${String(i + 1).padStart(5, '0')}`,
      title: `Claim ${i + 1}`,
      status: (['pending', 'in_progress', 'completed', 'cancelled'] as const)[i % 4],
      createdAt: new Date(now - i * 1000),
    })),
  });
  const claims = await db.claim.findMany({ where: { organizationId: tenant.organizationId }, select: { id: true } });
  await db.claimRefund.createMany({
    data: claims.map((claim, i) => ({
      id: randomUUID(),
      organizationId: tenant.organizationId,
      claimId: claim.id,
      amount: new Prisma.Decimal('12.50'),
      currencyCode: i % 3 === 0 ? 'NOK' : 'EUR',
      date: new Date(Date.UTC(2026, 2, 1 + (i % 28))),
    })),
  });
  await db.$executeRawUnsafe('ANALYZE');
  rows.push(
    await timed(`GET /v1/claims?limit=1000 (${claims.length} claims)`, () => tenant.call('/v1/claims?limit=1000')),
  );
  rows.push(await timed('GET /v1/claims?limit=50', () => tenant.call('/v1/claims?limit=50')));
  rows.push(
    await timed(`GET /v1/claims/metrics (${claims.length} claims, ${TOTAL_ALERTS} claimed alerts)`, () =>
      tenant.call('/v1/claims/metrics?refunded_from=2026-03-10'),
    ),
  );
  printTable(`claims: ${INVOICES} invoices x ${ALERTS_PER_INVOICE} alerts, ${CLAIMS} extra claims`, rows);
});
