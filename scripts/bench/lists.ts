// npm run bench:lists — the invoice, alert and agreement lists of one large organization, on a
// fresh stack: 100,000 invoices (about 2.5 lines each) from 2,000 suppliers, 500 agreements with
// 50 price items each, about 70,000 matches, 50,000 alerts in 1,500 topics (inserted with bulk SQL:
// setup, not measured). For each list and each filter it supports (one row per filter, sorts
// and a second page included) it prints p50/p99 over the HTTP API, beside a bare `pg` query that
// returns the same page of rows (the list's table only, same filter, order and limit), the same
// query with everything the response shows (lines, names, counts, links: still one statement),
// and the ratios of the p50s. Targets: p99 under 50 ms, p50 within 3x the bare query.
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { percentile, printTable, seconds, withBenchStack, type BenchTenant } from './support.js';

const { values } = parseArgs({
  options: {
    invoices: { type: 'string', default: '100000' },
    suppliers: { type: 'string', default: '2000' },
    agreements: { type: 'string', default: '500' },
    alerts: { type: 'string', default: '50000' },
    samples: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '20' },
    only: { type: 'string' },
  },
});
const INVOICES = Number(values.invoices);
const SUPPLIERS = Number(values.suppliers);
const AGREEMENTS = Number(values.agreements);
const ALERTS = Number(values.alerts);
const SAMPLES = Number(values.samples);
const WARMUP = Number(values.warmup);
const RECIPIENTS = 20;
const TAGS = 20;
const PRICE_ITEMS_PER_AGREEMENT = 50;
const TOPICS_PER_AGREEMENT = 3;
const PAGE = 50;

// ---- seeding: one organization, everything in bulk SQL, deterministic (setseed) ----

export async function seed(client: pg.Client, organizationId: string): Promise<void> {
  const run = async (label: string, sql: string, params: unknown[] = []) => {
    const startedAt = performance.now();
    const result = await client.query(sql, [organizationId, ...params]);
    console.log(`  ${label.padEnd(28)} ${String(result.rowCount ?? '').padStart(8)} rows  ${seconds(startedAt).toFixed(1)} s`);
  };
  await client.query('SELECT setseed(0.42)');
  await run('suppliers', `
    INSERT INTO suppliers (id, organization_id, name, org_number, country_code, updated_at)
    SELECT gen_random_uuid(), $1, 'Supplier ' || g || ' AS', (800000000 + g)::text, 'NO', now() FROM generate_series(1, $2::int) g`, [SUPPLIERS]);
  await run('recipients', `
    INSERT INTO recipients (id, organization_id, name, org_number, updated_at)
    SELECT gen_random_uuid(), $1, 'Recipient ' || g || ' AS', (700000000 + g)::text, now() FROM generate_series(1, $2::int) g`, [RECIPIENTS]);
  await run('tags', `
    INSERT INTO tags (id, organization_id, name) SELECT gen_random_uuid(), $1, 'Tag ' || g FROM generate_series(1, $2::int) g`, [TAGS]);
  // Agreement k covers suppliers k and k + AGREEMENTS (the frequent suppliers have the low numbers).
  await run('agreements', `
    INSERT INTO agreements (id, organization_id, title, status, effective_date, expiration_date, auto_renews, renewal_period_months,
                            notice_period_days, renewal_action_kind, renewal_deadline, created_at, updated_at, terms_changed_at)
    SELECT gen_random_uuid(), $1,
           'Agreement ' || g || ' — ' || (ARRAY['Cleaning services','Office supplies','Freight','IT hardware','Catering','Consulting'])[1 + g % 6],
           (CASE WHEN g % 10 < 8 THEN 'active' WHEN g % 10 = 8 THEN 'draft' ELSE 'archived' END)::"AgreementStatus",
           DATE '2024-01-01' + (g % 365), DATE '2026-01-01' + (g * 7 % 900), g % 2 = 0, 12, 90,
           CASE g % 3 WHEN 0 THEN 'cancel_by' WHEN 1 THEN 'renew_by' END,
           CASE WHEN g % 3 < 2 THEN DATE '2026-01-01' + (g * 13 % 700) END,
           now() - g * interval '1 day', now() - g * interval '1 day', now()
      FROM generate_series(1, $2::int) g`, [AGREEMENTS]);
  await client.query(`CREATE TEMP TABLE numbered_agreements AS SELECT id, row_number() OVER (ORDER BY created_at DESC, id) AS n FROM agreements WHERE organization_id = $1`, [organizationId]);
  await client.query(`CREATE TEMP TABLE numbered_suppliers AS SELECT id, name, (org_number::bigint - 800000000) AS n FROM suppliers WHERE organization_id = $1`, [organizationId]);
  await run('agreement suppliers', `
    INSERT INTO agreement_suppliers (agreement_id, supplier_id)
    SELECT a.id, s.id FROM numbered_agreements a JOIN numbered_suppliers s ON s.n IN (a.n, a.n + $2) WHERE $1::uuid IS NOT NULL`, [AGREEMENTS]);
  await run('agreement recipients', `
    INSERT INTO agreement_recipients (agreement_id, recipient_id)
    SELECT a.id, r.id FROM numbered_agreements a JOIN recipients r ON r.organization_id = $1 AND r.org_number = (700000001 + a.n % $2)::text WHERE a.n % 2 = 0`, [RECIPIENTS]);
  await run('agreement tags', `
    INSERT INTO agreement_tags (agreement_id, tag_id)
    SELECT DISTINCT a.id, t.id FROM numbered_agreements a JOIN tags t ON t.organization_id = $1 AND t.name IN ('Tag ' || (1 + a.n % $2), 'Tag ' || (1 + a.n * 7 % $2)) WHERE a.n % 4 <> 0`, [TAGS]);
  await run('price items', `
    INSERT INTO price_items (id, organization_id, agreement_id, description, seller_item_id, unit, currency_code, price_type, amount, updated_at)
    SELECT gen_random_uuid(), $1, a.id, 'Article ' || p, 'ART-' || lpad(p::text, 5, '0'), 'stk', 'NOK', 'amount', 10 + p, now()
      FROM numbered_agreements a, generate_series(1, $2::int) p`, [PRICE_ITEMS_PER_AGREEMENT]);
  // Invoices: a skewed supplier mix (a few suppliers send most invoices), one every 15 minutes back
  // from now, 4 % credit notes, 1 % failed, check statuses mixed.
  await run('invoices', `
    INSERT INTO invoices (id, organization_id, processing_status, classification, source, format, document_type, type_code, invoice_number,
                          issue_date, due_date, currency_code, supplier_id, supplier_party, recipient_id, recipient_party,
                          line_extension_amount, tax_exclusive_amount, vat_amount, tax_inclusive_amount, payable_amount, amounts_valid,
                          notes, attachment_document_ids, primary_md5, created_at, updated_at, content_changed_at,
                          alert_check_status, check_status, checked_agreement_count)
    SELECT gen_random_uuid(), $1, (CASE WHEN g % 100 = 0 THEN 'failed' ELSE 'completed' END)::"ProcessingStatus", 'invoice', 'upload', 'peppol_bis3',
           (CASE WHEN g % 25 = 0 THEN 'credit_note' ELSE 'invoice' END)::"DocumentType", '380',
           'INV-' || to_char(created, 'YYYY') || '-' || lpad(g::text, 6, '0'),
           created::date - 2, created::date + 28, (ARRAY['NOK','NOK','NOK','SEK','EUR'])[1 + g % 5],
           s.id, jsonb_build_object('name', s.name, 'orgNumber', (800000000 + s.n)::text, 'countryCode', 'NO'),
           r.id, jsonb_build_object('name', r.name),
           amount, amount, amount * 0.25, amount * 1.25, amount * 1.25, true,
           '{}', '{}', md5(g::text), created, created, created,
           'completed', (ARRAY['checked','checked','not_checked','incomplete','outdated'])[1 + g % 5], 1
      FROM (SELECT g, 1 + floor($3::int * power(random(), 2))::int AS supplier_n, now() - g * interval '15 minutes' AS created,
                   round((100 + random() * 50000)::numeric, 2) AS amount
              FROM generate_series(1, $2::int) g) x
      JOIN numbered_suppliers s ON s.n = x.supplier_n
      JOIN recipients r ON r.organization_id = $1 AND r.org_number = (700000001 + g % $4)::text`, [INVOICES, SUPPLIERS, RECIPIENTS]);
  await run('invoice lines', `
    INSERT INTO invoice_lines (id, invoice_id, organization_id, position, line_number, description, seller_item_id, quantity, unit_code, unit_price, net_amount, vat_category, vat_rate)
    SELECT gen_random_uuid(), i.id, $1, p - 1, p::text, 'Article ' || (1 + abs(hashtext(i.id::text || p)) % 50), 'ART-' || lpad((1 + abs(hashtext(i.id::text || p)) % 50)::text, 5, '0'),
           1 + p, 'C62', 10, 10 * (1 + p), 'S', 0.25
      FROM invoices i, generate_series(1, 1 + abs(hashtext(i.id::text)) % 4) p WHERE i.organization_id = $1`);
  // Each invoice of a supplier with an agreement is matched to it (5 % of the matches ended).
  await run('matches', `
    INSERT INTO invoice_agreement_matches (invoice_id, agreement_id, organization_id, active, reasons)
    SELECT i.id, a.id, $1, abs(hashtext(i.id::text)) % 20 <> 0, ARRAY['supplier identified by organization number']
      FROM invoices i JOIN numbered_suppliers s ON s.id = i.supplier_id
      JOIN numbered_agreements a ON a.n = CASE WHEN s.n <= $2 THEN s.n ELSE s.n - $2 END
     WHERE i.organization_id = $1 AND s.n <= 2 * $2`, [AGREEMENTS]);
  await run('alert topics', `
    INSERT INTO alert_topics (id, organization_id, agreement_id, title, group_key, updated_at)
    SELECT gen_random_uuid(), $1, a.id, (ARRAY['Unit price above agreed','Charged twice','Not in the agreement'])[t], 'rule:' || t, now()
      FROM numbered_agreements a, generate_series(1, $2::int) t`, [TOPICS_PER_AGREEMENT]);
  // About ALERTS alerts: one on a share of the matches, the newest first; 40 % uncategorized.
  await run('alerts', `
    INSERT INTO alerts (id, organization_id, invoice_id, agreement_id, status, title, explanation, impact_amount, currency_code,
                        confidence_level, citations, origin, checker, fingerprint, topic_id, dismissed_at, created_at, updated_at)
    SELECT gen_random_uuid(), $1, m.invoice_id, m.agreement_id,
           (CASE WHEN k % 10 < 6 THEN 'pending' WHEN k % 10 < 8 THEN 'dismissed' ELSE 'credited' END)::"AlertStatus",
           (ARRAY['Unit price above the agreed price','Charged twice','Item not in the agreement'])[1 + (k % 3)::int],
           'Line ' || (1 + k % 4) || ' bills ART-' || lpad((1 + k % 50)::text, 5, '0') || ' at ' || (10 + k % 90) || '.00 NOK; the agreement says ' || (9 + k % 90) || '.00 NOK.',
           round((1 + random() * 2000)::numeric, 2), i.currency_code, 'certain', '[]', 'check', 'unit_price', md5(k::text),
           CASE WHEN k % 5 < 3 THEN (SELECT t.id FROM alert_topics t WHERE t.agreement_id = m.agreement_id AND t.group_key = 'rule:' || (1 + k % 3)) END,
           CASE WHEN k % 10 IN (6, 7) THEN i.created_at + interval '1 day' END,
           i.created_at + interval '1 hour', i.created_at + (k % 7)::int * interval '1 day'
      FROM (SELECT m.*, row_number() OVER (ORDER BY m.invoice_id) AS k FROM invoice_agreement_matches m WHERE m.organization_id = $1) m
      JOIN invoices i ON i.id = m.invoice_id
     WHERE k % 100 < 100 * $2::numeric / (SELECT count(*) FROM invoice_agreement_matches WHERE organization_id = $1)`, [ALERTS]);
  // A steady state, as autovacuum keeps it: statistics, and the GIN indexes' pending entries merged.
  await client.query('VACUUM ANALYZE');
}

// ---- the cases: the API request, and the bare query of the same page ----

interface Case {
  list: 'invoices' | 'alerts' | 'agreements';
  name: string;
  query: string;
  // The page's rows of the list's table alone.
  bare: { sql: string; params: unknown[] };
}

// The same page with everything the response shows beyond the row (an invoice's lines, party
// names, match and alert counts; an alert's match and invoice; an agreement's links), in the
// same one statement: what a hand-written query for the whole response would cost the database.
const RESPONSE_EXTRAS: Record<Case['list'], string> = {
  invoices: `(SELECT json_agg(l ORDER BY l.position) FROM invoice_lines l WHERE l.invoice_id = p.id) AS lines,
             (SELECT name FROM suppliers WHERE id = p.supplier_id) AS supplier_name,
             (SELECT name FROM recipients WHERE id = p.recipient_id) AS recipient_name,
             (SELECT count(*) FROM invoice_agreement_matches m WHERE m.invoice_id = p.id AND m.active) AS matches,
             (SELECT json_object_agg(c.status, c.n) FROM (SELECT a.status, count(*) AS n FROM alerts a
                JOIN invoice_agreement_matches m ON m.invoice_id = a.invoice_id AND m.agreement_id = a.agreement_id AND m.active
               WHERE a.invoice_id = p.id GROUP BY a.status) c) AS alert_counts`,
  alerts: `(SELECT json_build_object('active', m.active, 'supplier_id', i.supplier_id, 'currency_code', i.currency_code, 'deleted_at', i.deleted_at)
              FROM invoice_agreement_matches m JOIN invoices i ON i.id = m.invoice_id
             WHERE m.invoice_id = p.invoice_id AND m.agreement_id = p.agreement_id) AS match`,
  agreements: `ARRAY(SELECT supplier_id FROM agreement_suppliers WHERE agreement_id = p.id) AS supplier_ids,
               ARRAY(SELECT recipient_id FROM agreement_recipients WHERE agreement_id = p.id) AS recipient_ids,
               ARRAY(SELECT tag_id FROM agreement_tags WHERE agreement_id = p.id) AS tag_ids,
               EXISTS (SELECT 1 FROM price_items WHERE agreement_id = p.id) AS has_price_items,
               (SELECT json_agg(json_build_object('status', d.status, 'classification', d.classification)) FROM agreement_documents d WHERE d.agreement_id = p.id) AS documents`,
};

const fullQuery = (item: Case) => ({ sql: `SELECT p.*, ${RESPONSE_EXTRAS[item.list]} FROM (${item.bare.sql}) p`, params: item.bare.params });

interface Fixtures {
  frequentSupplier: string;
  rareSupplier: string;
  agreement: string;
  invoice: string;
  topic: string;
  tag: string;
  secondPage: Record<string, string>;
}

async function fixtures(client: pg.Client, organizationId: string): Promise<Omit<Fixtures, 'secondPage'>> {
  const one = async (sql: string) => (await client.query(sql, [organizationId])).rows[0].id as string;
  return {
    frequentSupplier: await one(`SELECT supplier_id AS id FROM invoices WHERE organization_id = $1 GROUP BY supplier_id ORDER BY count(*) DESC, supplier_id LIMIT 1`),
    rareSupplier: await one(`SELECT supplier_id AS id FROM invoices WHERE organization_id = $1 GROUP BY supplier_id ORDER BY count(*), supplier_id LIMIT 1`),
    agreement: await one(`SELECT agreement_id AS id FROM alerts WHERE organization_id = $1 GROUP BY agreement_id ORDER BY count(*) DESC, agreement_id LIMIT 1 OFFSET 10`),
    invoice: await one(`SELECT invoice_id AS id FROM alerts WHERE organization_id = $1 ORDER BY created_at DESC LIMIT 1 OFFSET 500`),
    topic: await one(`SELECT topic_id AS id FROM alerts WHERE organization_id = $1 AND topic_id IS NOT NULL GROUP BY topic_id ORDER BY count(*) DESC, topic_id LIMIT 1 OFFSET 20`),
    tag: await one(`SELECT t.tag_id AS id FROM agreement_tags t JOIN tags g ON g.id = t.tag_id WHERE g.organization_id = $1 GROUP BY t.tag_id ORDER BY count(*) DESC, t.tag_id LIMIT 1`),
  };
}

const LIMIT = `LIMIT ${PAGE + 1}`;
const INVOICE_VISIBLE = 'i.organization_id = $1 AND i.deleted_at IS NULL';
const INVOICE_ORDER = `ORDER BY i.created_at DESC, i.id DESC ${LIMIT}`;
const ALERT_VISIBLE = `a.organization_id = $1 AND EXISTS (SELECT 1 FROM invoice_agreement_matches m JOIN invoices i ON i.id = m.invoice_id
                       WHERE m.invoice_id = a.invoice_id AND m.agreement_id = a.agreement_id AND m.active AND i.deleted_at IS NULL)`;

function invoiceCases(org: string, f: Fixtures): Case[] {
  const bare = (where: string, params: unknown[] = [], order = INVOICE_ORDER) => ({ sql: `SELECT i.* FROM invoices i WHERE ${INVOICE_VISIBLE} ${where} ${order}`, params: [org, ...params] });
  const search = (term: string) => bare(`AND (i.invoice_number ILIKE '%' || $2 || '%' OR (i.supplier_party #>> '{name}') LIKE '%' || $2 || '%')`, [term]);
  return [
    { list: 'invoices', name: 'no filter (created_at desc)', query: '', bare: bare('') },
    { list: 'invoices', name: 'direction=asc', query: 'direction=asc', bare: bare('', [], `ORDER BY i.created_at, i.id ${LIMIT}`) },
    { list: 'invoices', name: 'second page (cursor)', query: f.secondPage.invoices!, bare: bare(`AND (i.created_at, i.id) < (SELECT created_at, id FROM invoices WHERE organization_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC OFFSET ${PAGE - 1} LIMIT 1)`) },
    { list: 'invoices', name: 'search: invoice number (1 hit)', query: 'search=-004321', bare: search('-004321') },
    { list: 'invoices', name: 'search: supplier name (many hits)', query: 'search=Supplier%2017', bare: search('Supplier 17') },
    { list: 'invoices', name: 'search: no hit', query: 'search=nothing-like-this', bare: search('nothing-like-this') },
    { list: 'invoices', name: 'issued_from/issued_through (a month)', query: 'issued_from=2025-03-01&issued_through=2025-03-31', bare: bare(`AND i.issue_date BETWEEN '2025-03-01' AND '2025-03-31'`) },
    { list: 'invoices', name: 'supplier_ids (frequent supplier)', query: `supplier_ids=${f.frequentSupplier}`, bare: bare('AND i.supplier_id = $2', [f.frequentSupplier]) },
    { list: 'invoices', name: 'supplier_ids (rare supplier)', query: `supplier_ids=${f.rareSupplier}`, bare: bare('AND i.supplier_id = $2', [f.rareSupplier]) },
    { list: 'invoices', name: 'supplier_operator=is_not', query: `supplier_ids=${f.frequentSupplier}&supplier_operator=is_not`, bare: bare('AND (i.supplier_id IS NULL OR i.supplier_id <> $2)', [f.frequentSupplier]) },
    { list: 'invoices', name: 'agreement_ids', query: `agreement_ids=${f.agreement}`, bare: bare('AND EXISTS (SELECT 1 FROM invoice_agreement_matches m WHERE m.invoice_id = i.id AND m.agreement_id = $2 AND m.active)', [f.agreement]) },
    { list: 'invoices', name: 'document_types=credit_note', query: 'document_types=credit_note', bare: bare(`AND i.document_type = 'credit_note'`) },
    { list: 'invoices', name: 'processing_statuses=failed', query: 'processing_statuses=failed', bare: bare(`AND i.processing_status = 'failed'`) },
    { list: 'invoices', name: 'check_statuses=outdated', query: 'check_statuses=outdated', bare: bare(`AND i.check_status = 'outdated'`) },
    { list: 'invoices', name: 'created_from/created_before (a week)', query: `created_from=${weeksAgo(20)}&created_before=${weeksAgo(19)}`, bare: bare('AND i.created_at >= $2 AND i.created_at < $3', [weeksAgo(20), weeksAgo(19)]) },
  ];
}

function alertCases(org: string, f: Fixtures): Case[] {
  const order = (column = 'created_at', direction = 'DESC') => `ORDER BY a.${column} ${direction}, a.id ${direction} ${LIMIT}`;
  const bare = (where: string, params: unknown[] = [], orderBy = order()) => ({ sql: `SELECT a.* FROM alerts a WHERE ${ALERT_VISIBLE} ${where} ${orderBy}`, params: [org, ...params] });
  return [
    { list: 'alerts', name: 'no filter (created_at desc)', query: '', bare: bare('') },
    { list: 'alerts', name: 'sort=impact_amount', query: 'sort=impact_amount', bare: bare('', [], order('impact_amount')) },
    { list: 'alerts', name: 'sort=updated_at&direction=asc', query: 'sort=updated_at&direction=asc', bare: bare('', [], order('updated_at', 'ASC')) },
    { list: 'alerts', name: 'second page (cursor)', query: f.secondPage.alerts!, bare: bare(`AND (a.created_at, a.id) < (SELECT created_at, id FROM alerts a WHERE ${ALERT_VISIBLE} ORDER BY created_at DESC, id DESC OFFSET ${PAGE - 1} LIMIT 1)`) },
    { list: 'alerts', name: 'statuses=dismissed', query: 'statuses=dismissed', bare: bare(`AND a.status = 'dismissed'`) },
    { list: 'alerts', name: 'agreement_ids', query: `agreement_ids=${f.agreement}`, bare: bare('AND a.agreement_id = $2', [f.agreement]) },
    { list: 'alerts', name: 'invoice_ids', query: `invoice_ids=${f.invoice}`, bare: bare('AND a.invoice_id = $2', [f.invoice]) },
    { list: 'alerts', name: 'supplier_ids (frequent supplier)', query: `supplier_ids=${f.frequentSupplier}`, bare: bare('AND EXISTS (SELECT 1 FROM invoices i WHERE i.id = a.invoice_id AND i.supplier_id = $2)', [f.frequentSupplier]) },
    { list: 'alerts', name: 'supplier_ids (rare supplier)', query: `supplier_ids=${f.rareSupplier}`, bare: bare('AND EXISTS (SELECT 1 FROM invoices i WHERE i.id = a.invoice_id AND i.supplier_id = $2)', [f.rareSupplier]) },
    { list: 'alerts', name: 'supplier_operator=is_not', query: `supplier_ids=${f.frequentSupplier}&supplier_operator=is_not`, bare: bare('AND EXISTS (SELECT 1 FROM invoices i WHERE i.id = a.invoice_id AND (i.supplier_id IS NULL OR i.supplier_id <> $2))', [f.frequentSupplier]) },
    { list: 'alerts', name: 'topic_ids', query: `topic_ids=${f.topic}`, bare: bare('AND a.topic_id = $2', [f.topic]) },
    { list: 'alerts', name: 'topic_ids=null (uncategorized)', query: 'topic_ids=null', bare: bare('AND a.topic_id IS NULL') },
    { list: 'alerts', name: 'has_topic=true', query: 'has_topic=true', bare: bare('AND a.topic_id IS NOT NULL') },
    { list: 'alerts', name: 'has_claim=true (none)', query: 'has_claim=true', bare: bare('AND a.claim_id IS NOT NULL') },
    { list: 'alerts', name: 'claim_ids (none)', query: `claim_ids=${f.agreement}`, bare: bare('AND a.claim_id = $2', [f.agreement]) },
    { list: 'alerts', name: 'created_from/created_before (a week)', query: `created_from=${weeksAgo(20)}&created_before=${weeksAgo(19)}`, bare: bare('AND a.created_at >= $2 AND a.created_at < $3', [weeksAgo(20), weeksAgo(19)]) },
    { list: 'alerts', name: 'search: article (many hits)', query: 'search=ART-00017', bare: bare(`AND (a.title ILIKE '%' || $2 || '%' OR a.explanation ILIKE '%' || $2 || '%')`, ['ART-00017']) },
    { list: 'alerts', name: 'search: no hit', query: 'search=nothing-like-this', bare: bare(`AND (a.title ILIKE '%' || $2 || '%' OR a.explanation ILIKE '%' || $2 || '%')`, ['nothing-like-this']) },
  ];
}

function agreementCases(org: string, f: Fixtures): Case[] {
  const order = `ORDER BY a.created_at DESC, a.id DESC ${LIMIT}`;
  const bare = (where: string, params: unknown[] = [], orderBy = order) => ({ sql: `SELECT a.* FROM agreements a WHERE a.organization_id = $1 ${where} ${orderBy}`, params: [org, ...params] });
  return [
    { list: 'agreements', name: 'no filter (created_at desc)', query: '', bare: bare('') },
    { list: 'agreements', name: 'sort=renewal_deadline', query: 'sort=renewal_deadline', bare: bare('', [], `ORDER BY a.renewal_deadline ASC NULLS LAST, a.id ${LIMIT}`) },
    { list: 'agreements', name: 'second page (cursor)', query: f.secondPage.agreements!, bare: bare(`AND (a.created_at, a.id) < (SELECT created_at, id FROM agreements WHERE organization_id = $1 ORDER BY created_at DESC, id DESC OFFSET ${PAGE - 1} LIMIT 1)`) },
    { list: 'agreements', name: 'statuses=draft', query: 'statuses=draft', bare: bare(`AND a.status = 'draft'`) },
    { list: 'agreements', name: 'supplier_ids', query: `supplier_ids=${f.frequentSupplier}`, bare: bare('AND EXISTS (SELECT 1 FROM agreement_suppliers s WHERE s.agreement_id = a.id AND s.supplier_id = $2)', [f.frequentSupplier]) },
    { list: 'agreements', name: 'supplier_operator=is_not', query: `supplier_ids=${f.frequentSupplier}&supplier_operator=is_not`, bare: bare('AND NOT EXISTS (SELECT 1 FROM agreement_suppliers s WHERE s.agreement_id = a.id AND s.supplier_id = $2)', [f.frequentSupplier]) },
    { list: 'agreements', name: 'tag_ids', query: `tag_ids=${f.tag}`, bare: bare('AND EXISTS (SELECT 1 FROM agreement_tags t WHERE t.agreement_id = a.id AND t.tag_id = $2)', [f.tag]) },
    { list: 'agreements', name: 'search (title)', query: 'search=freight', bare: bare(`AND a.title ILIKE '%' || $2 || '%'`, ['freight']) },
    { list: 'agreements', name: 'renewal_action_kinds=cancel_by', query: 'renewal_action_kinds=cancel_by', bare: bare(`AND a.renewal_action_kind = 'cancel_by'`) },
    { list: 'agreements', name: 'renewal_deadline_through', query: 'renewal_deadline_through=2026-06-30', bare: bare(`AND a.renewal_deadline <= '2026-06-30'`) },
    { list: 'agreements', name: 'created_from/created_before', query: `created_from=${weeksAgo(20)}&created_before=${weeksAgo(10)}`, bare: bare('AND a.created_at >= $2 AND a.created_at < $3', [weeksAgo(20), weeksAgo(10)]) },
  ];
}

function weeksAgo(weeks: number): string {
  const day = new Date(Date.UTC(2026, 0, 1));
  day.setUTCDate(day.getUTCDate() - weeks * 7);
  return day.toISOString();
}

// ---- measuring ----

interface Figures {
  apiP50: number;
  apiP99: number;
  bareP50: number;
  bareP99: number;
  fullP50: number;
  fullP99: number;
  rows: number;
}

async function timed(count: number, task: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const startedAt = performance.now();
    await task();
    times.push(performance.now() - startedAt);
  }
  return times;
}

async function measure(tenant: BenchTenant, client: pg.Client, item: Case): Promise<Figures> {
  const path = `/v1/${item.list}?${item.query}`;
  const first = await tenant.call(path);
  if (first.status !== 200) throw new Error(`${path}: ${first.status} ${JSON.stringify(first.body)}`);
  const full = fullQuery(item);
  const bareRows = (await client.query(full.sql, full.params)).rows.slice(0, PAGE);
  const apiIds = (first.body.data as { id: string }[]).map((row) => row.id);
  // The bare query must return the very page the API returns, or the comparison means nothing.
  if (JSON.stringify(apiIds) !== JSON.stringify(bareRows.map((row: { id: string }) => row.id))) {
    throw new Error(`${item.list} ${item.name}: the bare query returned other rows than the API`);
  }
  await timed(WARMUP, () => tenant.call(path));
  await timed(WARMUP, () => client.query(item.bare.sql, item.bare.params));
  await timed(WARMUP, () => client.query(full.sql, full.params));
  // API and bare samples take turns in rounds, so a drift of the machine reaches both alike.
  const api: number[] = [];
  const bare: number[] = [];
  const whole: number[] = [];
  for (let round = 0; round < 4; round++) {
    api.push(...(await timed(SAMPLES / 4, () => tenant.call(path))));
    bare.push(...(await timed(SAMPLES / 4, () => client.query(item.bare.sql, item.bare.params))));
    whole.push(...(await timed(SAMPLES / 4, () => client.query(full.sql, full.params))));
  }
  return {
    apiP50: percentile(api, 50),
    apiP99: percentile(api, 99),
    bareP50: percentile(bare, 50),
    bareP99: percentile(bare, 99),
    fullP50: percentile(whole, 50),
    fullP99: percentile(whole, 99),
    rows: apiIds.length,
  };
}

async function secondPageQuery(tenant: BenchTenant, list: string): Promise<string> {
  const first = await tenant.call(`/v1/${list}`);
  return `cursor=${encodeURIComponent(first.body.next_cursor)}`;
}

// Imported for its seed (e.g. to look at query plans on a database of one's own), it measures nothing.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await withBenchStack('lists bench', async ({ stack, tenant }) => {
  const client = new pg.Client({ connectionString: stack.env.DATABASE_URL });
  await client.connect();
  try {
    console.log(`seeding ${INVOICES} invoices, ${SUPPLIERS} suppliers, ${AGREEMENTS} agreements, about ${ALERTS} alerts...`);
    const seededAt = performance.now();
    await seed(client, tenant.organizationId);
    console.log(`seeded in ${seconds(seededAt).toFixed(1)} s`);
    const base = await fixtures(client, tenant.organizationId);
    const secondPage = {
      invoices: await secondPageQuery(tenant, 'invoices'),
      alerts: await secondPageQuery(tenant, 'alerts'),
      agreements: await secondPageQuery(tenant, 'agreements'),
    };
    const f: Fixtures = { ...base, secondPage };
    const org = tenant.organizationId;
    const cases = [...invoiceCases(org, f), ...alertCases(org, f), ...agreementCases(org, f)].filter((c) => !values.only || `${c.list} ${c.name}`.includes(values.only));
    const results: { item: Case; figures: Figures }[] = [];
    for (const item of cases) {
      const figures = await measure(tenant, client, item);
      results.push({ item, figures });
      console.log(`  ${`${item.list}: ${item.name}`.padEnd(52)} api ${figures.apiP50.toFixed(1)} / ${figures.apiP99.toFixed(1)} ms, rows ${figures.bareP50.toFixed(2)}, full ${figures.fullP50.toFixed(2)} ms`);
    }
    console.log(`\nms, ${SAMPLES} requests each, sequential, after ${WARMUP} warm-up; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log('bare rows: one pg query of the page of rows alone; bare full: the same with everything the response shows (one statement)');
    console.log('ratio = API p50 / bare p50; targets: API p99 < 50 ms, p50 within 3x the bare query (rows / full)');
    console.log(`${'list: filter'.padEnd(50)} ${'rows'.padStart(4)} ${'API p50'.padStart(8)} ${'API p99'.padStart(8)} ${'rows p50'.padStart(9)} ${'full p50'.padStart(9)} ${'full p99'.padStart(9)} ${'ratio'.padStart(11)}  targets`);
    let met = 0;
    let metFull = 0;
    for (const { item, figures } of results) {
      const ratio = figures.apiP50 / figures.bareP50;
      const ratioFull = figures.apiP50 / figures.fullP50;
      const p99 = figures.apiP99 < 50;
      if (p99 && ratio <= 3) met++;
      if (p99 && ratioFull <= 3) metFull++;
      const verdict = p99 && ratio <= 3 ? 'met' : p99 && ratioFull <= 3 ? 'met (full)' : `NOT met${p99 ? '' : ' (p99)'}${ratioFull > 3 ? ' (ratio)' : ''}`;
      console.log(
        `${`${item.list}: ${item.name}`.padEnd(50)} ${String(figures.rows).padStart(4)} ${figures.apiP50.toFixed(1).padStart(8)} ${figures.apiP99.toFixed(1).padStart(8)} ${figures.bareP50.toFixed(2).padStart(9)} ${figures.fullP50.toFixed(2).padStart(9)} ${figures.fullP99.toFixed(2).padStart(9)} ${`${ratio.toFixed(1)} / ${ratioFull.toFixed(1)}`.padStart(11)}  ${verdict}`,
      );
    }
    printTable('Summary', [
      ['cases meeting both targets (ratio to bare rows)', `${met} of ${results.length}`],
      ['cases meeting both targets (ratio to bare full)', `${metFull} of ${results.length}`],
      ['API p99 under 50 ms', `${results.filter((r) => r.figures.apiP99 < 50).length} of ${results.length}`],
      ['worst API p99', `${Math.max(...results.map((r) => r.figures.apiP99)).toFixed(1)} ms`],
      ['median API p50', `${percentile(results.map((r) => r.figures.apiP50), 50).toFixed(1)} ms`],
      ['worst ratio (rows / full)', `${Math.max(...results.map((r) => r.figures.apiP50 / r.figures.bareP50)).toFixed(1)} / ${Math.max(...results.map((r) => r.figures.apiP50 / r.figures.fullP50)).toFixed(1)}`],
    ]);
  } finally {
    await client.end();
  }
});
