// Bulk seeding of one large organization, shared by the list and web benchmarks (and handy for
// looking at query plans on a database of one's own): about 2.5 lines per invoice, a skewed
// supplier mix, agreements with price items, tags and recipients, matches, alert topics and
// alerts. Everything in bulk SQL (INSERT ... SELECT generate_series), deterministic (setseed), so
// 100,000 invoices take seconds; then VACUUM ANALYZE, as autovacuum keeps a live database, and a
// CHECKPOINT.
import type pg from 'pg';
import { seconds } from './support.js';

export interface InvoiceVolume {
  invoices: number;
  suppliers: number;
  // Agreement k covers suppliers k and k + agreements, so 2 x agreements suppliers have one.
  agreements: number;
  // About this many alerts, spread over the matches.
  alerts: number;
}

const RECIPIENTS = 20;
const TAGS = 20;
const PRICE_ITEMS_PER_AGREEMENT = 50;
const TOPICS_PER_AGREEMENT = 3;

export async function seedInvoiceVolume(
  client: pg.Client,
  organizationId: string,
  volume: InvoiceVolume,
): Promise<void> {
  const run = async (label: string, sql: string, params: unknown[] = []) => {
    const startedAt = performance.now();
    const result = await client.query(sql, [organizationId, ...params]);
    console.log(
      `  ${label.padEnd(28)} ${String(result.rowCount ?? '').padStart(8)} rows  ${seconds(startedAt).toFixed(1)} s`,
    );
  };
  await client.query('SELECT setseed(0.42)');
  await run(
    'suppliers',
    `
    INSERT INTO suppliers (id, organization_id, name, org_number, country_code, updated_at)
    SELECT gen_random_uuid(), $1, 'Supplier ' || g || ' AS', (800000000 + g)::text, 'NO', now() FROM generate_series(1, $2::int) g`,
    [volume.suppliers],
  );
  await run(
    'recipients',
    `
    INSERT INTO recipients (id, organization_id, name, org_number, updated_at)
    SELECT gen_random_uuid(), $1, 'Recipient ' || g || ' AS', (700000000 + g)::text, now() FROM generate_series(1, $2::int) g`,
    [RECIPIENTS],
  );
  await run(
    'tags',
    `
    INSERT INTO tags (id, organization_id, name) SELECT gen_random_uuid(), $1, 'Tag ' || g FROM generate_series(1, $2::int) g`,
    [TAGS],
  );
  // Agreement k covers suppliers k and k + volume.agreements (the frequent suppliers have the low numbers).
  await run(
    'agreements',
    `
    INSERT INTO agreements (id, organization_id, title, status, effective_date, expiration_date, auto_renews, renewal_period_months,
                            notice_period_days, renewal_action_kind, renewal_deadline, created_at, updated_at, terms_changed_at)
    SELECT gen_random_uuid(), $1,
           'Agreement ' || g || ' — ' || (ARRAY['Cleaning services','Office supplies','Freight','IT hardware','Catering','Consulting'])[1 + g % 6],
           (CASE WHEN g % 10 < 8 THEN 'active' WHEN g % 10 = 8 THEN 'draft' ELSE 'archived' END)::"AgreementStatus",
           DATE '2024-01-01' + (g % 365), DATE '2026-01-01' + (g * 7 % 900), g % 2 = 0, 12, 90,
           CASE g % 3 WHEN 0 THEN 'cancel_by' WHEN 1 THEN 'renew_by' END,
           CASE WHEN g % 3 < 2 THEN DATE '2026-01-01' + (g * 13 % 700) END,
           now() - g * interval '1 day', now() - g * interval '1 day', now()
      FROM generate_series(1, $2::int) g`,
    [volume.agreements],
  );
  await client.query(
    `CREATE TEMP TABLE numbered_agreements AS SELECT id, row_number() OVER (ORDER BY created_at DESC, id) AS n FROM agreements WHERE organization_id = $1`,
    [organizationId],
  );
  await client.query(
    `CREATE TEMP TABLE numbered_suppliers AS SELECT id, name, (org_number::bigint - 800000000) AS n FROM suppliers WHERE organization_id = $1`,
    [organizationId],
  );
  await run(
    'agreement suppliers',
    `
    INSERT INTO agreement_suppliers (agreement_id, supplier_id)
    SELECT a.id, s.id FROM numbered_agreements a JOIN numbered_suppliers s ON s.n IN (a.n, a.n + $2) WHERE $1::uuid IS NOT NULL`,
    [volume.agreements],
  );
  await run(
    'agreement recipients',
    `
    INSERT INTO agreement_recipients (agreement_id, recipient_id)
    SELECT a.id, r.id FROM numbered_agreements a JOIN recipients r ON r.organization_id = $1 AND r.org_number = (700000001 + a.n % $2)::text WHERE a.n % 2 = 0`,
    [RECIPIENTS],
  );
  await run(
    'agreement tags',
    `
    INSERT INTO agreement_tags (agreement_id, tag_id)
    SELECT DISTINCT a.id, t.id FROM numbered_agreements a JOIN tags t ON t.organization_id = $1 AND t.name IN ('Tag ' || (1 + a.n % $2), 'Tag ' || (1 + a.n * 7 % $2)) WHERE a.n % 4 <> 0`,
    [TAGS],
  );
  await run(
    'price items',
    `
    INSERT INTO price_items (id, organization_id, agreement_id, description, seller_item_id, unit, currency_code, price_type, amount, updated_at)
    SELECT gen_random_uuid(), $1, a.id, 'Article ' || p, 'ART-' || lpad(p::text, 5, '0'), 'stk', 'NOK', 'amount', 10 + p, now()
      FROM numbered_agreements a, generate_series(1, $2::int) p`,
    [PRICE_ITEMS_PER_AGREEMENT],
  );
  // Invoices: a skewed supplier mix (a few suppliers send most invoices), one every 15 minutes back
  // from now, 4 % credit notes, 1 % failed, check statuses mixed.
  await run(
    'invoices',
    `
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
      JOIN recipients r ON r.organization_id = $1 AND r.org_number = (700000001 + g % $4)::text`,
    [volume.invoices, volume.suppliers, RECIPIENTS],
  );
  await run(
    'invoice lines',
    `
    INSERT INTO invoice_lines (id, invoice_id, organization_id, position, line_number, description, seller_item_id, quantity, unit_code, unit_price, net_amount, vat_category, vat_rate)
    SELECT gen_random_uuid(), i.id, $1, p - 1, p::text, 'Article ' || (1 + abs(hashtext(i.id::text || p)) % 50), 'ART-' || lpad((1 + abs(hashtext(i.id::text || p)) % 50)::text, 5, '0'),
           1 + p, 'C62', 10, 10 * (1 + p), 'S', 0.25
      FROM invoices i, generate_series(1, 1 + abs(hashtext(i.id::text)) % 4) p WHERE i.organization_id = $1`,
  );
  // Each invoice of a supplier with an agreement is matched to it (5 % of the matches ended).
  await run(
    'matches',
    `
    INSERT INTO invoice_agreement_matches (invoice_id, agreement_id, organization_id, active, reasons)
    SELECT i.id, a.id, $1, abs(hashtext(i.id::text)) % 20 <> 0, ARRAY['supplier identified by organization number']
      FROM invoices i JOIN numbered_suppliers s ON s.id = i.supplier_id
      JOIN numbered_agreements a ON a.n = CASE WHEN s.n <= $2 THEN s.n ELSE s.n - $2 END
     WHERE i.organization_id = $1 AND s.n <= 2 * $2`,
    [volume.agreements],
  );
  await run(
    'alert topics',
    `
    INSERT INTO alert_topics (id, organization_id, agreement_id, title, group_key, updated_at)
    SELECT gen_random_uuid(), $1, a.id, (ARRAY['Unit price above agreed','Charged twice','Not in the agreement'])[t], 'rule:' || t, now()
      FROM numbered_agreements a, generate_series(1, $2::int) t`,
    [TOPICS_PER_AGREEMENT],
  );
  // About volume.alerts alerts: one on a share of the matches, the newest first; 40 % uncategorized.
  await run(
    'alerts',
    `
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
     WHERE k % 100 < 100 * $2::numeric / (SELECT count(*) FROM invoice_agreement_matches WHERE organization_id = $1)`,
    [volume.alerts],
  );
  // A steady state, as autovacuum keeps it: statistics, and the GIN indexes' pending entries merged.
  // The seeding's writes are then flushed, so the checkpointer does not write them out while the
  // first cases are measured.
  await client.query('VACUUM ANALYZE');
  await client.query('CHECKPOINT');
}
