// npm run bench:matching — re-matching every invoice of an organization to its agreements, on a
// fresh stack: 1,000 active agreements over 200 suppliers and 10,000 invoices (inserted directly:
// setup, not measured). Measured the way a user triggers it (POST /v1/agreements/{id}/invoices/refresh,
// which re-matches every invoice of the organization, polled until the run ends) and the core
// refreshInvoiceMatches called directly in the workflow's batches.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { updateOrganizationSettings } from '../../src/admin/service.js';
import type { Db } from '../../src/db/client.js';
import type { Prisma } from '../../src/generated/prisma/client.js';
import {
  matchInvoice,
  type AgreementFacts,
  type Applicability,
  type InvoiceFacts,
  type PartyFacts,
} from '../../src/matching/rules.js';
import { refreshInvoiceMatches, REFRESH_BATCH_SIZE } from '../../src/matching/service.js';
import { printTable, seconds, seededRandom, settledRun, withBenchStack, type BenchTenant } from './support.js';

const { values } = parseArgs({
  options: {
    invoices: { type: 'string', default: '10000' },
    agreements: { type: 'string', default: '1000' },
    suppliers: { type: 'string', default: '200' },
    smart: { type: 'boolean', default: false },
  },
});
const INVOICES = Number(values.invoices);
const AGREEMENTS = Number(values.agreements);
const SUPPLIERS = Number(values.suppliers);
const RECIPIENTS = 20;

const random = seededRandom(42);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const chance = (p: number) => random() < p;
const isoDay = (year: number, dayOfYear: number) =>
  new Date(Date.UTC(year, 0, 1 + dayOfYear)).toISOString().slice(0, 10);
const asDate = (day: string | null) => (day ? new Date(`${day}T00:00:00Z`) : null);

const CURRENCIES = ['NOK', 'NOK', 'NOK', 'SEK', 'EUR'];
const BUYER_REFERENCES = ['IT', 'FACILITIES', 'HR', 'SALES', 'LOGISTICS'];
const DEPARTMENTS = ['OSL', 'BGN', 'TRD', 'STO', 'HEL'];

interface Party extends PartyFacts {
  id: string;
  name: string;
}

function parties(count: number, kind: string): Party[] {
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    name: `${kind} ${i + 1} AS`,
    orgNumber: String(900_000_000 + i + (kind === 'Recipient' ? 50_000 : 0)),
    vatId: null,
  }));
}

// A realistic mix: most agreements of a supplier narrow by recipient, period or applicability,
// so an invoice usually falls under none or one or two of its supplier's five agreements.
function agreementFacts(
  suppliers: Party[],
  recipients: Party[],
): { id: string; title: string; facts: AgreementFacts }[] {
  return Array.from({ length: AGREEMENTS }, (_, i) => {
    const effectiveYear = 2023 + Math.floor(random() * 4);
    const effectiveDate = isoDay(effectiveYear, Math.floor(random() * 365));
    const expirationDate = chance(0.2)
      ? null
      : isoDay(effectiveYear + 1 + Math.floor(random() * 2), Math.floor(random() * 365));
    const applicability: Applicability = {};
    const narrowing = random();
    if (narrowing < 0.2) applicability.currency_codes = chance(0.5) ? ['NOK'] : ['SEK', 'EUR'];
    else if (narrowing < 0.35) applicability.buyer_references = [pick(BUYER_REFERENCES), pick(BUYER_REFERENCES)];
    else if (narrowing < 0.5) applicability.order_reference_prefixes = [`PO-${pick(DEPARTMENTS)}`];
    const recipientCount = chance(0.5) ? 0 : 1 + Math.floor(random() * 3);
    return {
      id: randomUUID(),
      title: `Agreement ${i + 1}`,
      facts: {
        status: 'active',
        suppliers: [suppliers[i % suppliers.length]!],
        recipients: Array.from({ length: recipientCount }, () => pick(recipients)),
        effectiveDate,
        expirationDate,
        applicability: Object.keys(applicability).length > 0 ? applicability : null,
      },
    };
  });
}

function invoiceFacts(suppliers: Party[], recipients: Party[]): { id: string; facts: InvoiceFacts }[] {
  return Array.from({ length: INVOICES }, () => {
    const supplier = pick(suppliers);
    // Some invoices come from a supplier not linked yet: only smart matching (by name) finds them.
    const linked = chance(0.95);
    return {
      id: randomUUID(),
      facts: {
        supplier: linked
          ? supplier
          : { id: null, name: supplier.name.replace(/ AS$/, '').toUpperCase(), orgNumber: null, vatId: null },
        recipient: pick(recipients),
        issueDate: isoDay(2024 + Math.floor(random() * 3), Math.floor(random() * 365)),
        currencyCode: pick(CURRENCIES),
        buyerReference: pick(BUYER_REFERENCES),
        orderReference: `PO-${pick(DEPARTMENTS)}-${Math.floor(random() * 100_000)}`,
        contractReference: null,
        deliveryCountryCode: 'NO',
      },
    };
  });
}

// The hand-made pair checked at the end: an invoice that must match this agreement, and one
// issued a day after it expired that must not.
function samplePair(supplier: Party, recipient: Party) {
  const agreement = {
    id: randomUUID(),
    title: 'Sample agreement',
    facts: {
      status: 'active',
      suppliers: [supplier],
      recipients: [recipient],
      effectiveDate: '2025-01-01',
      expirationDate: '2025-12-31',
      applicability: { currency_codes: ['NOK'], order_reference_prefixes: ['PO-SAMPLE'] },
    } satisfies AgreementFacts,
  };
  const invoice = (issueDate: string) => ({
    id: randomUUID(),
    facts: {
      supplier,
      recipient,
      issueDate,
      currencyCode: 'NOK',
      buyerReference: 'IT',
      orderReference: 'PO-SAMPLE-1',
      contractReference: null,
      deliveryCountryCode: 'NO',
    } satisfies InvoiceFacts,
  });
  return { agreement, matching: invoice('2025-06-15'), late: invoice('2026-01-01') };
}

async function insertData(
  db: Db,
  organizationId: string,
  suppliers: Party[],
  recipients: Party[],
  agreements: ReturnType<typeof agreementFacts>,
  invoices: ReturnType<typeof invoiceFacts>,
) {
  const party = (p: Party) => ({ id: p.id, organizationId, name: p.name, orgNumber: p.orgNumber });
  await db.supplier.createMany({ data: suppliers.map(party) });
  await db.recipient.createMany({ data: recipients.map(party) });
  await db.agreement.createMany({
    data: agreements.map((a) => ({
      id: a.id,
      organizationId,
      title: a.title,
      status: 'active' as const,
      effectiveDate: asDate(a.facts.effectiveDate),
      expirationDate: asDate(a.facts.expirationDate),
      applicability: (a.facts.applicability ?? undefined) as Prisma.InputJsonValue | undefined,
    })),
  });
  await db.agreementSupplier.createMany({
    data: agreements.flatMap((a) => a.facts.suppliers.map((s) => ({ agreementId: a.id, supplierId: s.id! }))),
  });
  await db.agreementRecipient.createMany({
    data: agreements.flatMap((a) =>
      [...new Set(a.facts.recipients.map((r) => r.id!))].map((recipientId) => ({ agreementId: a.id, recipientId })),
    ),
    skipDuplicates: true,
  });
  const partyJson = (p: PartyFacts) => ({ name: p.name, orgNumber: p.orgNumber });
  for (let start = 0; start < invoices.length; start += 2_000) {
    await db.invoice.createMany({
      data: invoices.slice(start, start + 2_000).map(({ id, facts }, i) => ({
        id,
        organizationId,
        source: 'api',
        processingStatus: 'completed' as const,
        classification: 'invoice',
        documentType: 'invoice' as const,
        invoiceNumber: `BENCH-${start + i + 1}`,
        issueDate: asDate(facts.issueDate),
        currencyCode: facts.currencyCode,
        supplierId: facts.supplier.id,
        supplierParty: partyJson(facts.supplier),
        recipientId: facts.recipient.id,
        recipientParty: partyJson(facts.recipient),
        buyerReference: facts.buyerReference,
        orderReference: facts.orderReference,
        deliveryCountryCode: facts.deliveryCountryCode,
      })),
    });
  }
}

// What the rules say the refresh must produce, evaluated here on the generated data.
function expectedMatches(
  invoices: { facts: InvoiceFacts }[],
  agreements: { facts: AgreementFacts }[],
  smartMatching: boolean,
): number {
  let count = 0;
  for (const invoice of invoices)
    for (const agreement of agreements)
      if (matchInvoice(invoice.facts, agreement.facts, { smartMatching }).matched) count++;
  return count;
}

const activeMatches = (db: Db, organizationId: string) =>
  db.invoiceAgreementMatch.count({ where: { organizationId, active: true } });

async function refreshThroughApi(tenant: BenchTenant, agreementId: string): Promise<{ seconds: number; run: any }> {
  const started = performance.now();
  const response = await tenant.call(`/v1/agreements/${agreementId}/invoices/refresh`, { method: 'POST' });
  if (response.status !== 202) throw new Error(`refresh: ${response.status} ${JSON.stringify(response.body)}`);
  const run = await settledRun(tenant, response.body.workflow_run_id);
  if (run.status !== 'completed') throw new Error(`refresh run ended ${run.status}: ${JSON.stringify(run)}`);
  return { seconds: seconds(started), run };
}

// The core service over every invoice in the workflow's batches, in this process.
async function refreshDirectly(db: Db, organizationId: string, invoiceIds: string[]): Promise<number> {
  const started = performance.now();
  for (let start = 0; start < invoiceIds.length; start += REFRESH_BATCH_SIZE)
    await refreshInvoiceMatches(db, organizationId, invoiceIds.slice(start, start + REFRESH_BATCH_SIZE));
  return seconds(started);
}

await withBenchStack('Matching benchmark', async ({ db, tenant }) => {
  const { organizationId } = tenant;
  const suppliers = parties(SUPPLIERS, 'Supplier');
  const recipients = parties(RECIPIENTS, 'Recipient');
  const sample = samplePair(suppliers[0]!, recipients[0]!);
  const agreements = [...agreementFacts(suppliers, recipients).slice(0, AGREEMENTS - 1), sample.agreement];
  const invoices = [...invoiceFacts(suppliers, recipients).slice(0, INVOICES - 2), sample.matching, sample.late];
  const setupStart = performance.now();
  await insertData(db, organizationId, suppliers, recipients, agreements, invoices);
  console.log(
    `inserted ${SUPPLIERS} suppliers, ${agreements.length} agreements, ${invoices.length} invoices in ${seconds(setupStart).toFixed(1)} s`,
  );

  const evaluationStart = performance.now();
  const expected = expectedMatches(invoices, agreements, false);
  const evaluationSeconds = seconds(evaluationStart);

  const first = await refreshThroughApi(tenant, sample.agreement.id);
  const afterFirst = await activeMatches(db, organizationId);
  const second = await refreshThroughApi(tenant, sample.agreement.id);
  const afterSecond = await activeMatches(db, organizationId);

  const invoiceIds = invoices.map((i) => i.id).sort();
  const directSteady = await refreshDirectly(db, organizationId, invoiceIds);
  await db.invoiceAgreementMatch.deleteMany({ where: { organizationId } });
  const directFresh = await refreshDirectly(db, organizationId, invoiceIds);
  const afterDirect = await activeMatches(db, organizationId);

  const agreementsOf = async (invoiceId: string) =>
    ((await tenant.call(`/v1/invoices/${invoiceId}/agreements?limit=100`)).body.data as { id: string }[]).map(
      (m) => m.id,
    );
  const sampleMatches = (await agreementsOf(sample.matching.id)).includes(sample.agreement.id);
  const lateMatches = (await agreementsOf(sample.late.id)).includes(sample.agreement.id);

  const rate = (s: number) => `${s.toFixed(2)} s, ${(invoices.length / s).toFixed(0)} invoices/s`;
  const rows: [string, string][] = [
    ['invoices × agreements (suppliers)', `${invoices.length} × ${agreements.length} (${SUPPLIERS})`],
    ['refresh run through the API, first (creates matches)', rate(first.seconds)],
    ['refresh run through the API, again (nothing changes)', rate(second.seconds)],
    ['run items (batches of 500)', String(first.run.progress?.total ?? '?')],
    ['core refreshInvoiceMatches, no change', rate(directSteady)],
    ['core refreshInvoiceMatches, every match new', rate(directFresh)],
    ['rules alone (matchInvoice, every pair, in memory)', `${evaluationSeconds.toFixed(2)} s`],
    ['active matches after each refresh', `${afterFirst} / ${afterSecond} / ${afterDirect} (expected ${expected})`],
    ['sample invoice matches its agreement / late one does not', `${sampleMatches} / ${!lateMatches}`],
  ];

  if (values.smart) {
    await updateOrganizationSettings(db, organizationId, { smartMatching: true });
    const smart = await refreshThroughApi(tenant, sample.agreement.id);
    rows.push(['refresh run through the API with smart matching', rate(smart.seconds)]);
    rows.push([
      'active matches with smart matching',
      `${await activeMatches(db, organizationId)} (expected ${expectedMatches(invoices, agreements, true)})`,
    ]);
  }
  printTable('Matching benchmark', rows);
  const correct = sampleMatches && !lateMatches && [afterFirst, afterSecond, afterDirect].every((n) => n === expected);
  if (!correct) throw new Error('the refresh did not produce the expected matches');
}).then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
