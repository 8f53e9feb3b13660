// npm run bench:alerts — how right the alerts are (issue 29), on a fresh stack: the generated
// corpus of alerts-corpus.ts (six suppliers, their agreements, ~130 Peppol invoices and credit
// notes with planted problems and honest decoys) imported through the Ingestion API, each invoice
// checked by its own import, the alerts compared with the ground truth.
// Printed: recall and precision per category, the share of found problems whose impact is exact
// to the cent, the share of clean invoices without any alert, and the share of certain alerts
// that are right, each against its target; then every missed problem and every false alarm.
//   --seed N (default 29)   another corpus of the same shape
//   --concurrency N (default 3)
import { parseArgs } from 'node:util';
import { createIngestionToken } from '../../src/admin/service.js';
import { CATEGORY_CHECKERS, generateCorpus, type Category, type CorpusDocument, type Truth } from './alerts-corpus.js';
import { inParallel, printTable, seconds, sleep, withBenchStack, type BenchTenant } from './support.js';
import { peppolDocument, pricedLine } from '../../test/support/peppol.js';

const { values } = parseArgs({
  options: { seed: { type: 'string', default: '29' }, concurrency: { type: 'string', default: '3' } },
});
const SEED = Number(values.seed);
const CONCURRENCY = Number(values.concurrency);

const TARGETS = { recall: 0.95, precision: 0.95, impactExact: 0.98, cleanWithoutAlert: 0.95, certainRight: 0.99 };

interface Alert {
  id: string;
  impact_amount: string;
  invoice_item_id: string | null;
  confidence: { level: string };
  title: string;
  provenance: { checker?: string };
}

interface Checked {
  document: CorpusDocument;
  invoiceId: string;
  lineIds: string[];
  alerts: Alert[];
}

function ingestion(apiUrl: string, token: string) {
  const headers = { Authorization: `Bearer ${token}` };
  return {
    async upload(bytes: Buffer, name: string): Promise<string> {
      const form = new FormData();
      form.append('primary', new Blob([bytes], { type: 'application/xml' }), name);
      const response = await fetch(`${apiUrl}/v1/invoices/upload`, { method: 'POST', headers, body: form });
      if (response.status !== 201) throw new Error(`upload ${name}: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { invoice_id: string }).invoice_id;
    },
    async settled(invoiceId: string): Promise<any> {
      for (;;) {
        await sleep(250);
        const response = await fetch(`${apiUrl}/v1/invoices/${invoiceId}`, { headers });
        const invoice = (await response.json()) as any;
        if (invoice.processing?.status === 'failed')
          throw new Error(`invoice ${invoiceId} failed: ${JSON.stringify(invoice.processing)}`);
        if (
          ![invoice.processing?.status, invoice.alerts?.processing?.status].some((status) =>
            ['pending', 'processing'].includes(status),
          )
        )
          return invoice;
      }
    },
  };
}

async function must(tenant: BenchTenant, path: string, method: string, body: unknown, status: number) {
  const response = await tenant.call(path, { method, body });
  if (response.status !== status)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

const percent = (part: number, whole: number) =>
  whole === 0 ? '  n/a' : `${((100 * part) / whole).toFixed(1).padStart(5)} %`;
const meets = (part: number, whole: number, target: number) =>
  whole === 0 ? '' : part / whole >= target ? 'ok' : 'BELOW TARGET';

async function main() {
  const corpus = generateCorpus(SEED);
  const invoices = corpus.documents.filter((document) => !document.creditNote).length;
  const problems = corpus.documents.reduce((sum, document) => sum + document.truths.length, 0);
  console.log(
    `corpus (seed ${SEED}): ${corpus.documents.length} documents (${invoices} invoices), ${corpus.documents.reduce((sum, doc) => sum + (doc.bytes.toString().match(/<cac:(Invoice|CreditNote)Line>/g)?.length ?? 0), 0)} lines, ${problems} planted problems`,
  );

  await withBenchStack('Alerts benchmark', async ({ db, stack, tenant }) => {
    const token = (
      await createIngestionToken(db, {
        organizationId: tenant.organizationId,
        scopes: ['invoices:write', 'invoices:read'],
      })
    ).token;
    const client = ingestion(stack.apiUrl, token);

    // Each supplier comes from a first invoice, from before its agreement (not part of the corpus).
    for (const [index, supplier] of corpus.suppliers.entries()) {
      const agreement = corpus.agreements[index]!;
      const first = await client.upload(
        peppolDocument({
          number: `ONBOARD-${index}`,
          issueDate: '2025-11-03',
          currency: agreement.currency,
          supplier,
          lines: [pricedLine('Onboarding', 'ONB-1', '1', 'EA', '1.00')],
        }),
        'first.xml',
      );
      await client.settled(first);
      const supplierId = (await must(tenant, `/v1/invoices/${first}`, 'GET', undefined, 200)).supplier?.id;
      if (!supplierId) throw new Error(`supplier ${supplier.name} was not created`);
      const created = await must(
        tenant,
        '/v1/agreements',
        'POST',
        {
          title: agreement.title,
          status: 'active',
          supplier_ids: [supplierId],
          effective_date: '2026-01-01',
          expiration_date: '2026-06-30',
        },
        201,
      );
      await must(tenant, `/v1/agreements/${created.id}/price-items`, 'POST', { entries: agreement.entries }, 201);
    }

    const started = performance.now();
    const checkOne = async (document: CorpusDocument): Promise<Checked> => {
      const invoiceId = await client.upload(document.bytes, `${document.key}.xml`);
      await client.settled(invoiceId);
      const invoice = await must(tenant, `/v1/invoices/${invoiceId}`, 'GET', undefined, 200);
      const alerts = (await must(tenant, `/v1/alerts?invoice_ids=${invoiceId}&limit=100`, 'GET', undefined, 200))
        .data as Alert[];
      return {
        document,
        invoiceId,
        lineIds: (invoice.line_items ?? []).map((line: { id: string }) => line.id),
        alerts,
      };
    };
    // Originals first: a re-sent invoice is a duplicate of what came before it.
    const byDate = (list: CorpusDocument[]) => [...list].sort((a, b) => issueDateOf(a).localeCompare(issueDateOf(b)));
    const inOrder = async (list: CorpusDocument[]) =>
      inParallel(list.length, CONCURRENCY, (index) => checkOne(list[index]!));
    const early = await inOrder(byDate(corpus.documents.filter((document) => !document.late)));
    const late = await inOrder(byDate(corpus.documents.filter((document) => document.late)));
    console.log(`imported and checked ${corpus.documents.length} documents in ${seconds(started).toFixed(0)} s`);
    report([...early, ...late]);
  });
}

function issueDateOf(document: CorpusDocument): string {
  return /<cbc:IssueDate>([^<]+)</.exec(document.bytes.toString())![1]!;
}

interface Scored {
  truth: Truth;
  checked: Checked;
  alert: Alert | null;
}

function report(results: Checked[]) {
  const categories = Object.keys(CATEGORY_CHECKERS) as Category[];
  const found: Scored[] = [];
  const falseAlarms: { checked: Checked; alert: Alert; category: Category | 'other' }[] = [];
  for (const checked of results) {
    const used = new Set<string>();
    for (const truth of checked.document.truths) {
      const { checker, onLine } = CATEGORY_CHECKERS[truth.category];
      const lineId = truth.line === null ? null : checked.lineIds[truth.line - 1];
      const alert =
        checked.alerts.find(
          (candidate) =>
            !used.has(candidate.id) &&
            candidate.provenance.checker === checker &&
            (!onLine || candidate.invoice_item_id === lineId) &&
            (onLine || truth.category !== 'document_charge_not_agreed' || candidate.invoice_item_id === null),
        ) ?? null;
      if (alert) used.add(alert.id);
      found.push({ truth, checked, alert });
    }
    for (const alert of checked.alerts) {
      if (used.has(alert.id)) continue;
      // A false alarm counts against the category its checker finds (fee_not_agreed: on a line or not).
      const category =
        categories.find((name) => {
          const { checker, onLine } = CATEGORY_CHECKERS[name];
          return (
            checker === alert.provenance.checker &&
            (checker !== 'fee_not_agreed' || onLine === (alert.invoice_item_id !== null))
          );
        }) ?? 'other';
      falseAlarms.push({ checked, alert, category });
    }
  }

  const rows: [string, string][] = [];
  for (const category of [...categories, 'other' as const]) {
    const truths = found.filter((entry) => entry.truth.category === category);
    const hits = truths.filter((entry) => entry.alert);
    const wrong = falseAlarms.filter((entry) => entry.category === category).length;
    if (category === 'other') {
      rows.push([`other alerts (no planted problem of theirs)`, `${wrong} false alarms`]);
      continue;
    }
    rows.push([
      category,
      `recall ${percent(hits.length, truths.length)} (${hits.length}/${truths.length}) ${meets(hits.length, truths.length, TARGETS.recall)}; precision ${percent(hits.length, hits.length + wrong)} (${wrong} false) ${meets(hits.length, hits.length + wrong, TARGETS.precision)}`,
    ]);
  }
  printTable('Per category (targets: recall and precision >= 95 %)', rows);

  const hits = found.filter((entry) => entry.alert);
  const exact = hits.filter((entry) => entry.alert!.impact_amount === entry.truth.impact);
  const invoices = results.filter((checked) => !checked.document.creditNote);
  const clean = invoices.filter((checked) => checked.document.truths.length === 0);
  const cleanQuiet = clean.filter((checked) => checked.alerts.length === 0);
  const allAlerts = results.flatMap((checked) => checked.alerts);
  const certain = allAlerts.filter((alert) => alert.confidence.level === 'certain');
  const certainRight = certain.filter((alert) => hits.some((entry) => entry.alert!.id === alert.id));
  const credits = results.filter((checked) => checked.document.creditNote);
  printTable('Overall', [
    ['problems found', `${hits.length} of ${found.length} (${percent(hits.length, found.length)})`],
    ['alerts that are real', `${hits.length} of ${allAlerts.length} (${percent(hits.length, allAlerts.length)})`],
    [
      'impact exact to the cent (target >= 98 %)',
      `${percent(exact.length, hits.length)} (${exact.length}/${hits.length}) ${meets(exact.length, hits.length, TARGETS.impactExact)}`,
    ],
    [
      'clean invoices without alert (target >= 95 %)',
      `${percent(cleanQuiet.length, clean.length)} (${cleanQuiet.length}/${clean.length}) ${meets(cleanQuiet.length, clean.length, TARGETS.cleanWithoutAlert)}`,
    ],
    [
      'certain alerts that are right (target >= 99 %)',
      `${percent(certainRight.length, certain.length)} (${certainRight.length}/${certain.length}) ${meets(certainRight.length, certain.length, TARGETS.certainRight)}`,
    ],
    [
      'credit notes with an alert',
      `${credits.filter((checked) => checked.alerts.length > 0).length} of ${credits.length}`,
    ],
  ]);

  const missed = found.filter((entry) => !entry.alert);
  if (missed.length > 0) {
    console.log('\nMissed problems');
    for (const entry of missed)
      console.log(
        `  ${entry.checked.document.key} ${entry.truth.category} line ${entry.truth.line ?? '-'} impact ${entry.truth.impact}`,
      );
  }
  const inexact = hits.filter((entry) => entry.alert!.impact_amount !== entry.truth.impact);
  if (inexact.length > 0) {
    console.log('\nFound with another impact');
    for (const entry of inexact)
      console.log(
        `  ${entry.checked.document.key} ${entry.truth.category}: ${entry.alert!.impact_amount}, truth ${entry.truth.impact}`,
      );
  }
  if (falseAlarms.length > 0) {
    console.log('\nFalse alarms (decoys of the invoice in brackets)');
    for (const { checked, alert } of falseAlarms) {
      console.log(
        `  ${checked.document.key} [${[...checked.document.decoys].join(', ')}] ${alert.provenance.checker} ${alert.confidence.level} ${alert.impact_amount}: ${alert.title}`,
      );
    }
  }
}

await main();
