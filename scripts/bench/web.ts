// npm run bench:web — the application's pages and actions (issues 15 and 28: "every action answers
// in under 200 ms of server time at 100,000 invoices") on a fresh stack. Seeds one organization as
// the list benchmark does (invoice-volume.ts: 100,000 invoices with lines, 2,000 suppliers, 500
// agreements, about 50,000 alerts), plus an invoice with many lines and alerts on them, claims made
// through the API, one import run per invoice with a large check run, invoices in the review queue
// with a PDF original, and a team (web-actions.ts). A member with a password signs in through the
// real sign-in form; then each page is requested many times, one after another, and each action
// (web-actions.ts: the forms, each request on targets of its own) posted as many times. Printed
// per page or action: p50, p95 and p99 of the server time (`Server-Timing: app;dur=`), p95 as a
// ratio of the target, p50 of the whole request and of the process's CPU, and the number of SQL
// statements the request ran (counted on the pg driver the API uses in this process: a figure the
// machine's load does not change). Pages that answer 404 are "not built", so the same script
// measures the pages of later branches once merged. Last, the API's own figure for the same data
// (`GET /v1/invoices`) and the ratio of the invoice list to it.
// Target: server time p95 under 200 ms for every page and action.
//   --invoices 100000 --suppliers 2000 --agreements 500 --alerts 50000 --lines 1000
//   --samples 100 --warmup 10 --action-samples 40 (uploads and previews: a fifth of it)
//   --only <name part>[,<name part>...] --skip-actions --explain (each page's statements under EXPLAIN ANALYZE)
//   --hold (after seeding, keep the stack up and print how to reach it, until Ctrl-C: to explore plans)
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { addMember, createOrganization } from '../../src/admin/service.js';
import { hashPassword } from '../../src/auth/passwords.js';
import { seedInvoiceVolume } from './invoice-volume.js';
import { actionCases, seedReviewQueue, seedTeam, type ActionCase, type PostedFile } from './web-actions.js';
import { percentile, printTable, seconds, withBenchStack, type BenchContext } from './support.js';

const { values } = parseArgs({
  options: {
    invoices: { type: 'string', default: '100000' },
    suppliers: { type: 'string', default: '2000' },
    agreements: { type: 'string', default: '500' },
    alerts: { type: 'string', default: '50000' },
    lines: { type: 'string', default: '1000' },
    samples: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '10' },
    'action-samples': { type: 'string', default: '40' },
    only: { type: 'string' },
    'skip-actions': { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
    hold: { type: 'boolean', default: false },
  },
});
const VOLUME = {
  invoices: Number(values.invoices),
  suppliers: Number(values.suppliers),
  agreements: Number(values.agreements),
  alerts: Number(values.alerts),
};
const BIG_INVOICE_LINES = Number(values.lines);
const SAMPLES = Number(values.samples);
const WARMUP = Number(values.warmup);
const ACTION_SAMPLES = Number(values['action-samples']);
const ACTION_WARMUP = 3;
// Invoices in the review queue: one per confirmation, and the item page's.
const REVIEW_QUEUE = ACTION_SAMPLES + ACTION_WARMUP + 20;
const CLAIMS = 40;
const BIG_RUN_ITEMS = 2000;
const LATER_PAGE = 20;
const TARGET_MS = 200;
const PASSWORD = 'bench password, long enough';

// ---- statements: every query the API's pg pool sends goes through pg.Client#query ----

const statements = { count: 0 };
const clientPrototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
const sendQuery = clientPrototype.query;
// --explain: the statements of each page's first request are kept and, after it, run again
// under EXPLAIN ANALYZE on the bench's own connection: the database's share, statement by statement.
interface SentStatement {
  text: string;
  values: unknown[];
}
let kept: SentStatement[] | null = null;
clientPrototype.query = function countedQuery(this: unknown, ...args: unknown[]) {
  statements.count++;
  if (kept) {
    const config =
      typeof args[0] === 'string'
        ? { text: args[0], values: args[1] }
        : (args[0] as { text: string; values?: unknown });
    kept.push({ text: config.text, values: Array.isArray(config.values) ? config.values : [] });
  }
  return sendQuery.apply(this, args);
};

// ---- seeding beyond the list benchmark's volume ----

interface Fixtures {
  frequentSupplier: string;
  bigInvoice: string;
  agreement: string;
  alert: string;
  claim: string | null;
  run: string;
  laterCursor: string;
  reviewQueue: string[];
  team: string;
}

// An invoice with many lines (its own lines replaced), an alert on every third line and a few on
// the whole invoice, all through its active match, so the page shows every one.
async function seedBigInvoice(
  client: pg.Client,
  organizationId: string,
): Promise<{ invoiceId: string; agreementId: string }> {
  const { rows } = await client.query(
    `SELECT m.invoice_id, m.agreement_id FROM invoice_agreement_matches m JOIN invoices i ON i.id = m.invoice_id
      WHERE m.organization_id = $1 AND m.active AND i.processing_status = 'completed' ORDER BY i.created_at DESC LIMIT 1 OFFSET 100`,
    [organizationId],
  );
  const { invoice_id: invoiceId, agreement_id: agreementId } = rows[0];
  await client.query('DELETE FROM alerts WHERE invoice_id = $1', [invoiceId]);
  await client.query('DELETE FROM invoice_lines WHERE invoice_id = $1', [invoiceId]);
  await client.query(
    `INSERT INTO invoice_lines (id, invoice_id, organization_id, position, line_number, description, seller_item_id, quantity, unit_code, unit_price, net_amount, vat_category, vat_rate)
     SELECT gen_random_uuid(), $1, $2, p - 1, p::text, 'Article ' || (1 + p % 50), 'ART-' || lpad((1 + p % 50)::text, 5, '0'), 1 + p % 7, 'C62', 10.5, 10.5 * (1 + p % 7), 'S', 0.25
       FROM generate_series(1, $3::int) p`,
    [invoiceId, organizationId, BIG_INVOICE_LINES],
  );
  await client.query(
    `INSERT INTO alerts (id, organization_id, invoice_id, agreement_id, invoice_line_id, status, title, explanation, impact_amount, currency_code,
                         confidence_level, citations, origin, checker, fingerprint, created_at, updated_at)
     SELECT gen_random_uuid(), $2::uuid, $1::uuid, $3::uuid, l.id, (CASE WHEN l.position % 5 = 4 THEN 'dismissed' ELSE 'pending' END)::"AlertStatus",
            'Unit price above the agreed price', 'Line ' || l.line_number || ' bills ' || l.seller_item_id || ' at 10.50; the agreement says 9.75 [1].',
            0.75 * l.quantity, i.currency_code, 'certain',
            jsonb_build_array(jsonb_build_object('source_ref', 1, 'citation', jsonb_build_object('source', jsonb_build_object('source_type', 'agreement_prices'), 'quote', 'Article ' || l.line_number || ': 9.75 per piece'))), 'check', 'unit_price', md5('big' || l.id), now(), now()
       FROM invoice_lines l JOIN invoices i ON i.id = l.invoice_id WHERE l.invoice_id = $1::uuid AND l.position % 3 = 0
     UNION ALL
     SELECT gen_random_uuid(), $2::uuid, $1::uuid, $3::uuid, NULL, 'pending', 'Freight charged although included', 'Freight of 150.00 although the agreement includes it [1].',
            150, i.currency_code, 'certain', '[]', 'check', 'freight', md5('big-whole' || g), now(), now()
       FROM invoices i, generate_series(1, 5) g WHERE i.id = $1::uuid`,
    [invoiceId, organizationId, agreementId],
  );
  return { invoiceId, agreementId };
}

// One import run per invoice (each invoice arrived through one), and a check run of many items.
async function seedRuns(client: pg.Client, organizationId: string): Promise<string> {
  await client.query(
    `INSERT INTO workflow_runs (id, organization_id, type, status, owner_type, owner_id, progress_total, created_at, started_at, finished_at, updated_at)
     SELECT gen_random_uuid(), $1, 'import', (CASE WHEN processing_status = 'failed' THEN 'failed' ELSE 'completed' END)::"RunStatus", 'invoice', id, 1,
            created_at, created_at, created_at + interval '2 seconds', created_at
       FROM invoices WHERE organization_id = $1`,
    [organizationId],
  );
  const runId = randomUUID();
  await client.query(
    `INSERT INTO workflow_runs (id, organization_id, type, status, progress_total, created_at, started_at, finished_at, updated_at)
     VALUES ($1, $2, 'check', 'completed_with_errors', $3, now(), now(), now() + interval '3 minutes', now())`,
    [runId, organizationId, BIG_RUN_ITEMS],
  );
  await client.query(
    `INSERT INTO workflow_run_items (id, run_id, organization_id, key, label, status, record_type, record_id, position, created_at, updated_at, finished_at)
     SELECT gen_random_uuid(), $1, $2, 'invoice:' || i.id, i.invoice_number, (CASE WHEN k % 50 = 0 THEN 'failed' ELSE 'completed' END)::"RunItemStatus",
            'invoice', i.id, k, now(), now(), now()
       FROM (SELECT id, invoice_number, row_number() OVER (ORDER BY created_at DESC) AS k FROM invoices WHERE organization_id = $2 LIMIT $3) i`,
    [runId, organizationId, BIG_RUN_ITEMS],
  );
  return runId;
}

// Claims through the API, each taking the pending alerts of one agreement and supplier; the
// largest first.
async function seedClaims({ tenant }: BenchContext, client: pg.Client): Promise<string | null> {
  const { rows } = await client.query(
    `SELECT a.agreement_id, i.supplier_id FROM alerts a JOIN invoices i ON i.id = a.invoice_id
      WHERE a.organization_id = $1 AND a.status = 'pending' GROUP BY a.agreement_id, i.supplier_id ORDER BY count(*) DESC, a.agreement_id, i.supplier_id LIMIT $2`,
    [tenant.organizationId, CLAIMS],
  );
  let first: string | null = null;
  for (const [index, { agreement_id: agreementId, supplier_id: supplierId }] of rows.entries()) {
    const body = {
      agreement_id: agreementId,
      supplier_id: supplierId,
      title: `Overcharges ${index + 1}`,
      alerts: { filter: { agreement_ids: [agreementId], supplier_ids: [supplierId], statuses: ['pending'] } },
    };
    const created = await tenant.call('/v1/claims', { method: 'POST', body });
    if (created.status !== 201) throw new Error(`claim: ${created.status} ${JSON.stringify(created.body)}`);
    first ??= created.body.id as string;
  }
  return first;
}

async function laterPageCursor({ tenant }: BenchContext): Promise<string> {
  let cursor: string | null = null;
  for (let page = 1; page < LATER_PAGE; page++) {
    const response: { body: { next_cursor: string | null } } = await tenant.call(
      `/v1/invoices?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    cursor = response.body.next_cursor;
  }
  return cursor!;
}

async function seed(context: BenchContext, client: pg.Client): Promise<Fixtures> {
  const organizationId = context.tenant.organizationId;
  await seedInvoiceVolume(client, organizationId, VOLUME);
  const { invoiceId, agreementId } = await seedBigInvoice(client, organizationId);
  const run = await seedRuns(client, organizationId);
  const reviewQueue = await seedReviewQueue(context, client, REVIEW_QUEUE);
  await client.query('VACUUM ANALYZE');
  const claim = await seedClaims(context, client);
  const one = async (sql: string, params: unknown[]) => (await client.query(sql, params)).rows[0].id as string;
  return {
    frequentSupplier: await one(
      `SELECT supplier_id AS id FROM invoices WHERE organization_id = $1 GROUP BY supplier_id ORDER BY count(*) DESC, supplier_id LIMIT 1`,
      [organizationId],
    ),
    bigInvoice: invoiceId,
    agreement: agreementId,
    alert: await one(
      `SELECT id FROM alerts WHERE invoice_id = $1 AND invoice_line_id IS NOT NULL ORDER BY id LIMIT 1`,
      [invoiceId],
    ),
    claim,
    run,
    laterCursor: await laterPageCursor(context),
    reviewQueue,
    team: await seedTeam(context),
  };
}

// ---- signing in as a person does: the form, its CSRF cookie, the password ----

const cookieOf = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.startsWith(`${name}=`));

// A member of the organization (and of two more, so the switcher has choices) with a password.
async function benchUser({ db, tenant }: BenchContext): Promise<string> {
  const email = `web-bench-${randomUUID().slice(0, 8)}@example.test`;
  const user = await addMember(db, {
    organizationId: tenant.organizationId,
    email,
    name: 'Bench Person',
    role: 'admin',
  });
  for (const name of ['Bench subsidiary A', 'Bench subsidiary B']) {
    const other = await createOrganization(db, { name });
    await addMember(db, { organizationId: other.id, email, role: 'read' });
  }
  await db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(PASSWORD) } });
  return email;
}

async function signIn(apiUrl: string, email: string): Promise<string> {
  const form = await fetch(`${apiUrl}/app/sign-in`);
  const csrfCookie = cookieOf(form, 'ics_csrf');
  const csrf = csrfFieldOf(await form.text());
  if (!csrfCookie) throw new Error('sign-in form without its CSRF cookie');
  const response = await fetch(`${apiUrl}/app/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: csrfCookie },
    body: new URLSearchParams({ email, password: PASSWORD, _csrf: csrf, next: '/app/invoices' }),
  });
  const session = cookieOf(response, 'ics_session');
  if (response.status !== 303 || !session) throw new Error(`sign-in: ${response.status} ${await response.text()}`);
  return session;
}

function csrfFieldOf(html: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error('a form without its CSRF token');
  return token;
}

// A session starts in the user's first organization by name; the switcher picks the bench's.
async function switchOrganization(apiUrl: string, session: string, organizationId: string): Promise<void> {
  const page = await fetch(`${apiUrl}/app/settings`, { headers: { Cookie: session } });
  const response = await fetch(`${apiUrl}/app/organization`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: session },
    body: new URLSearchParams({ organization_id: organizationId, _csrf: csrfFieldOf(await page.text()) }),
  });
  if (response.status !== 303) throw new Error(`organization switch: ${response.status}`);
}

// ---- measuring ----

interface Sample {
  status: number;
  serverMs: number | null;
  totalMs: number;
  statements: number;
  // CPU time of this process (the API and the client) during the request: unlike wall time, it
  // hardly grows when other processes load the machine.
  cpuMs: number;
  bytes: number;
}

interface Posted {
  form: Record<string, string | string[]>;
  file?: PostedFile;
  csrf: string;
}

// A form as a browser posts it: url-encoded, or multipart when it carries a file.
function bodyOf(posted: Posted): URLSearchParams | FormData {
  const fields: [string, string][] = [['_csrf', posted.csrf]];
  for (const [name, value] of Object.entries(posted.form))
    for (const one of Array.isArray(value) ? value : [value]) fields.push([name, one]);
  if (!posted.file) return new URLSearchParams(fields);
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  form.append(posted.file.field, new Blob([posted.file.bytes], { type: posted.file.type }), posted.file.name);
  return form;
}

async function request(url: string, headers: Record<string, string>, posted?: Posted): Promise<Sample> {
  const body = posted ? bodyOf(posted) : undefined;
  const before = statements.count;
  const cpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  const response = await fetch(url, { method: posted ? 'POST' : 'GET', headers, body, redirect: 'manual' });
  const received = await response.arrayBuffer();
  const totalMs = performance.now() - startedAt;
  const cpu = process.cpuUsage(cpuBefore);
  const timing = /app;dur=([\d.]+)/.exec(response.headers.get('Server-Timing') ?? '');
  if (posted && !response.ok && response.status !== 303)
    console.log(`  ${url}: ${Buffer.from(received).toString().slice(0, 2000)}`);
  return {
    status: response.status,
    serverMs: timing ? Number(timing[1]) : null,
    totalMs,
    statements: statements.count - before,
    cpuMs: (cpu.user + cpu.system) / 1000,
    bytes: received.byteLength,
  };
}

interface Figures {
  serverP50: number;
  serverP95: number;
  serverP99: number;
  totalP50: number;
  cpuP50: number;
  statements: number;
  maxStatements: number;
  kilobytes: number;
  count: number;
}

function figuresOf(samples: Sample[], firstBytes: number): Figures {
  const server = samples.map((s) => s.serverMs ?? Number.NaN);
  const counts = samples.map((s) => s.statements);
  return {
    serverP50: percentile(server, 50),
    serverP95: percentile(server, 95),
    serverP99: percentile(server, 99),
    totalP50: percentile(
      samples.map((s) => s.totalMs),
      50,
    ),
    cpuP50: percentile(
      samples.map((s) => s.cpuMs),
      50,
    ),
    statements: percentile(counts, 50),
    maxStatements: Math.max(...counts),
    kilobytes: firstBytes / 1024,
    count: samples.length,
  };
}

let explainer: ((url: string, sent: SentStatement[]) => Promise<void>) | null = null;

// Execution and planning time of each statement, its rows and its plan's top node.
function explainOn(client: pg.Client) {
  return async (url: string, sent: SentStatement[]) => {
    console.log(`  ${new URL(url).pathname}: ${sent.length} statements`);
    for (const statement of sent) {
      const first = statement.text.replace(/\s+/g, ' ').trim();
      if (!/^select/i.test(first)) {
        console.log(`    (not explained) ${first.slice(0, 100)}`);
        continue;
      }
      const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, statement.values);
      const plan = rows[0]['QUERY PLAN'][0];
      console.log(
        `    ${plan['Execution Time'].toFixed(2).padStart(7)} ms exec ${plan['Planning Time'].toFixed(2).padStart(6)} ms plan ${String(plan.Plan['Actual Rows']).padStart(5)} rows  ${plan.Plan['Node Type'].padEnd(14)} ${first.slice(0, 110)}`,
      );
    }
  };
}

async function measure(url: string, headers: Record<string, string>): Promise<Figures | 'not built'> {
  kept = explainer ? [] : null;
  const first = await request(url, headers);
  const sent = kept ?? [];
  kept = null;
  if (first.status === 404) return 'not built';
  if (first.status !== 200) throw new Error(`${url}: HTTP ${first.status}`);
  if (explainer) await explainer(url, sent);
  for (let i = 0; i < WARMUP; i++) await request(url, headers);
  const samples: Sample[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const sample = await request(url, headers);
    if (sample.status !== 200) throw new Error(`${url}: HTTP ${sample.status}`);
    samples.push(sample);
  }
  return figuresOf(samples, first.bytes);
}

// An action posted on fresh targets each time: the first requests warm up, the rest are counted.
// Uploads and previews store a file each, so they take a fifth of the requests.
async function measureAction(
  apiUrl: string,
  action: ActionCase,
  headers: Record<string, string>,
  csrf: string,
): Promise<Figures | 'not built'> {
  const wanted = action.request(0).file ? Math.max(5, Math.round(ACTION_SAMPLES / 5)) : ACTION_SAMPLES;
  const requests = Math.min(action.available, ACTION_WARMUP + wanted);
  if (requests <= ACTION_WARMUP) throw new Error(`${action.name}: only ${action.available} targets seeded`);
  const samples: Sample[] = [];
  let firstBytes = 0;
  for (let i = 0; i < requests; i++) {
    const { path, form, file } = action.request(i);
    kept = explainer && i === 0 ? [] : null;
    const sample = await request(
      `${apiUrl}${path}`,
      { ...headers, ...(action.htmx ? { 'HX-Request': 'true' } : {}) },
      { form, file, csrf },
    );
    const sent = kept ?? [];
    kept = null;
    if (i === 0 && sample.status === 404) return 'not built';
    if (!action.expected.includes(sample.status)) throw new Error(`${action.name} ${path}: HTTP ${sample.status}`);
    if (i === 0) {
      firstBytes = sample.bytes;
      if (explainer) await explainer(`${apiUrl}${path}`, sent);
    }
    if (i >= ACTION_WARMUP) samples.push(sample);
  }
  return figuresOf(samples, firstBytes);
}

function pages(f: Fixtures): { name: string; path: string }[] {
  return [
    { name: 'overview', path: '/app' },
    { name: 'search', path: '/app/search?query=Supplier+17' },
    { name: 'invoices', path: '/app/invoices' },
    { name: 'invoices: supplier filter', path: `/app/invoices?supplier_ids=${f.frequentSupplier}` },
    { name: 'invoices: search', path: '/app/invoices?search=Supplier+17' },
    { name: `invoices: page ${LATER_PAGE}`, path: `/app/invoices?cursor=${encodeURIComponent(f.laterCursor)}` },
    { name: `invoice (${BIG_INVOICE_LINES} lines)`, path: `/app/invoices/${f.bigInvoice}` },
    { name: 'settings', path: '/app/settings' },
    { name: 'agreements', path: '/app/agreements' },
    { name: 'agreement', path: `/app/agreements/${f.agreement}` },
    { name: 'alerts', path: '/app/alerts' },
    { name: 'alert', path: `/app/alerts/${f.alert}` },
    { name: 'claims', path: '/app/claims' },
    ...(f.claim ? [{ name: 'claim', path: `/app/claims/${f.claim}` }] : []),
    { name: 'runs', path: '/app/runs' },
    { name: `run (${BIG_RUN_ITEMS} items)`, path: `/app/runs/${f.run}` },
    { name: 'integrations', path: '/app/integrations' },
    { name: 'review queue', path: '/app/review' },
    { name: 'alerts by supplier', path: '/app/alerts/groups?group_by=supplier' },
    { name: 'alerts by agreement', path: '/app/alerts/groups?group_by=agreement' },
    { name: 'alerts by topic', path: '/app/alerts/groups?group_by=topic' },
    { name: 'agreement: new', path: '/app/agreements/new' },
    { name: 'agreement: edit', path: `/app/agreements/${f.agreement}/edit` },
    { name: 'agreement: price import', path: `/app/agreements/${f.agreement}/price-import` },
    ...(f.claim ? [{ name: 'claim letter', path: `/app/claims/${f.claim}/letter` }] : []),
    { name: 'teams', path: '/app/teams' },
    { name: 'notifications', path: '/app/settings/notifications' },
    // Issue 28's pages not in the list above (the upload form is on the invoice list).
    { name: 'review item', path: `/app/review/invoices/${f.reviewQueue.at(-1)}` },
    { name: 'team', path: `/app/teams/${f.team}` },
    { name: 'team: saved count', path: `/app/teams/${f.team}/count` },
    { name: 'team: new', path: '/app/teams/new' },
    { name: 'run: live', path: `/app/runs/${f.run}/live` },
  ].filter((page) => chosen(page.name));
}

// --hold: the seeded stack stays up until Ctrl-C, for psql and a browser.
async function holdStack({ stack, tenant }: BenchContext, fixtures: Fixtures): Promise<void> {
  console.log(`holding: DATABASE_URL=${stack.env.DATABASE_URL}`);
  console.log(`         API ${stack.apiUrl}, organization ${tenant.organizationId}`);
  console.log(`         fixtures ${JSON.stringify(fixtures)}`);
  await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
}

// --only a,b: the pages and actions whose name contains one of the parts.
const chosen = (name: string) => !values.only || values.only.split(',').some((part) => name.includes(part));

const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1));

await withBenchStack('Web bench', async (context) => {
  const client = new pg.Client({ connectionString: context.stack.env.DATABASE_URL });
  await client.connect();
  try {
    console.log(
      `seeding ${VOLUME.invoices} invoices, ${VOLUME.suppliers} suppliers, ${VOLUME.agreements} agreements, about ${VOLUME.alerts} alerts...`,
    );
    const seededAt = performance.now();
    const fixtures = await seed(context, client);
    console.log(`seeded in ${seconds(seededAt).toFixed(1)} s`);
    if (values.hold) await holdStack(context, fixtures);
    if (values.explain) explainer = explainOn(client);
    const session = await signIn(context.stack.apiUrl, await benchUser(context));
    await switchOrganization(context.stack.apiUrl, session, context.tenant.organizationId);
    const headers = { Cookie: session };
    const rows: string[] = [];
    let measured = 0;
    let met = 0;
    let listTotalP50 = Number.NaN;
    let listCpuP50 = Number.NaN;
    const record = (name: string, figures: Figures | 'not built') => {
      if (figures === 'not built') {
        rows.push(`${name.padEnd(40)} not built (404)`);
        console.log(rows.at(-1));
        return;
      }
      measured++;
      const ok = figures.serverP95 < TARGET_MS;
      if (ok) met++;
      rows.push(
        `${name.padEnd(40)} ${String(figures.count).padStart(4)} ${ms(figures.serverP50).padStart(8)} ${ms(figures.serverP95).padStart(8)} ${(figures.serverP95 / TARGET_MS).toFixed(2).padStart(6)} ${ms(figures.serverP99).padStart(8)} ${ms(figures.totalP50).padStart(8)} ${ms(figures.cpuP50).padStart(8)} ${`${figures.statements}${figures.maxStatements > figures.statements ? `-${figures.maxStatements}` : ''}`.padStart(7)} ${figures.kilobytes.toFixed(0).padStart(6)}  ${ok ? 'met' : 'NOT met'}`,
      );
      console.log(rows.at(-1));
    };
    for (const page of pages(fixtures)) {
      const figures = await measure(`${context.stack.apiUrl}${page.path}`, headers);
      if (page.name === 'invoices' && figures !== 'not built') {
        listTotalP50 = figures.totalP50;
        listCpuP50 = figures.cpuP50;
      }
      record(page.name, figures);
    }
    if (!values['skip-actions']) {
      // The session's CSRF token, as every form of the application carries it.
      const csrf = csrfFieldOf(await (await fetch(`${context.stack.apiUrl}/app/settings`, { headers })).text());
      const actions = await actionCases(client, context.tenant.organizationId, {
        agreement: fixtures.agreement,
        bigInvoice: fixtures.bigInvoice,
        reviewQueue: fixtures.reviewQueue,
        requests: ACTION_SAMPLES + ACTION_WARMUP,
      });
      for (const action of actions.filter((a) => chosen(a.name)))
        record(`POST ${action.name}`, await measureAction(context.stack.apiUrl, action, headers, csrf));
    }
    // The API's own answer for the invoice list's data, with the organization's API key.
    const api = await measure(`${context.stack.apiUrl}/v1/invoices?limit=50`, context.tenant.headers);
    console.log(
      `\nms; pages: ${SAMPLES} requests each after ${WARMUP} warm-up; actions: up to ${ACTION_SAMPLES} after ${ACTION_WARMUP} warm-up, each on targets of its own; sequential; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      'server = Server-Timing app;dur (the handler: session, page data, rendering); /200 = server p95 over the target; total = the whole request seen by the client',
    );
    console.log(
      'cpu = CPU time of the process (API and client) during the request, which load changes far less than wall time',
    );
    console.log('stmts = SQL statements the request ran (median; "-max" when some requests ran more)');
    console.log(
      `${'page or action'.padEnd(40)} ${'n'.padStart(4)} ${'srv p50'.padStart(8)} ${'srv p95'.padStart(8)} ${'/200'.padStart(6)} ${'srv p99'.padStart(8)} ${'tot p50'.padStart(8)} ${'cpu p50'.padStart(8)} ${'stmts'.padStart(7)} ${'KiB'.padStart(6)}  target p95 < ${TARGET_MS} ms`,
    );
    for (const row of rows) console.log(row);
    printTable('Summary', [
      ['pages and actions measured (others not built yet)', `${measured}`],
      [`with server p95 under ${TARGET_MS} ms`, `${met} of ${measured}`],
      ...(api !== 'not built'
        ? ([
            [
              'GET /v1/invoices?limit=50 (API) total p50',
              `${ms(api.totalP50)} ms, cpu ${ms(api.cpuP50)} ms, ${api.statements} statements`,
            ],
            [
              '/app/invoices total p50 / API total p50 (cpu p50 ratio)',
              `${(listTotalP50 / api.totalP50).toFixed(2)}x (${(listCpuP50 / api.cpuP50).toFixed(2)}x)`,
            ],
          ] as [string, string][])
        : []),
    ]);
  } finally {
    await client.end();
  }
});
