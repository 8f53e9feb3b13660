// Bulk seeding for the overview and search benchmarks: one organization with 100,000 invoices
// (EUR, NOK, SEK; a tenth credit notes; spread over a year), 200 suppliers and agreements, each
// invoice matched to one agreement, 50,000 alerts, 500 claims with refunds. Written with
// INSERT ... SELECT generate_series in PostgreSQL, so seeding takes seconds, not minutes.
import type { Db } from '../../src/db/client.js';

export interface VolumeOptions {
  invoices: number;
  alerts: number;
  agreements: number;
  claims: number;
}

const WORDS = [
  'Acme',
  'Nordic',
  'Office',
  'Paper',
  'Toner',
  'Freight',
  'Cleaning',
  'Catering',
  'Logistics',
  'Energy',
  'Software',
  'Security',
];

export async function seedVolume(db: Db, organizationId: string, options: VolumeOptions): Promise<void> {
  const org = organizationId;
  const words = WORDS;
  const n = options.agreements;
  await db.$executeRawUnsafe(
    `INSERT INTO suppliers (id, organization_id, name, org_number, updated_at)
     SELECT gen_random_uuid(), $1::uuid, ($2::text[])[1 + g % 12] || ' ' || ($2::text[])[1 + (g / 12) % 12] || ' AS ' || g, (900000000 + g)::text, now()
       FROM generate_series(1, $3) g`,
    org,
    words,
    n,
  );
  // Every third agreement is a draft without terms (not ready); the others active with prices.
  await db.$executeRawUnsafe(
    `INSERT INTO agreements (id, organization_id, title, status, effective_date, expiration_date, instructions, updated_at)
     SELECT gen_random_uuid(), $1::uuid, ($2::text[])[1 + g % 12] || ' agreement ' || g,
            (CASE WHEN g % 3 = 0 THEN 'draft' ELSE 'active' END)::"AgreementStatus",
            date '2025-01-01', current_date + (g * 3), CASE WHEN g % 3 = 0 THEN NULL ELSE 'Prices as agreed; freight included for orders above 500 EUR.' END, now()
       FROM generate_series(1, $3) g`,
    org,
    words,
    n,
  );
  await db.$executeRawUnsafe(
    `WITH s AS (SELECT id, row_number() OVER (ORDER BY org_number) AS k FROM suppliers WHERE organization_id = $1::uuid),
          a AS (SELECT id, row_number() OVER (ORDER BY expiration_date) AS k FROM agreements WHERE organization_id = $1::uuid)
     INSERT INTO agreement_suppliers (agreement_id, supplier_id) SELECT a.id, s.id FROM a JOIN s ON s.k = a.k`,
    org,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO price_items (id, organization_id, agreement_id, description, price_type, amount, currency_code, updated_at)
     SELECT gen_random_uuid(), $1::uuid, a.id, 'Item ' || g, 'amount', 10 + g, 'EUR', now()
       FROM agreements a CROSS JOIN generate_series(1, 5) g WHERE a.organization_id = $1::uuid AND a.status = 'active'`,
    org,
  );
  // Invoices: invoice k comes from supplier k % n and is matched to that supplier's agreement.
  await db.$executeRawUnsafe(
    `WITH s AS (SELECT s.id, s.name, row_number() OVER (ORDER BY s.org_number) - 1 AS k FROM suppliers s WHERE s.organization_id = $1::uuid)
     INSERT INTO invoices (id, organization_id, processing_status, classification, source, document_type, invoice_number, issue_date, currency_code,
                           supplier_id, supplier_party, tax_inclusive_amount, check_status, created_at, updated_at)
     SELECT gen_random_uuid(), $1::uuid,
            (CASE WHEN g % 500 = 0 THEN 'failed' ELSE 'completed' END)::"ProcessingStatus", 'invoice', 'api',
            (CASE WHEN g % 10 = 0 THEN 'credit_note' ELSE 'invoice' END)::"DocumentType",
            'INV-' || lpad(g::text, 7, '0'), date '2026-01-01' + (g % 300),
            (ARRAY['EUR', 'NOK', 'SEK'])[1 + g % 3], s.id, jsonb_build_object('name', s.name),
            ((g % 997) * 10 + 0.25)::numeric, (ARRAY['checked', 'not_checked', 'incomplete', 'outdated'])[1 + g % 4],
            now() - ((g % 365) || ' days')::interval, now()
       FROM generate_series(1, $2) g JOIN s ON s.k = g % $3`,
    org,
    options.invoices,
    n,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO invoice_agreement_matches (invoice_id, agreement_id, organization_id, reasons)
     SELECT i.id, x.agreement_id, $1::uuid, ARRAY['bench'] FROM invoices i JOIN agreement_suppliers x ON x.supplier_id = i.supplier_id
      WHERE i.organization_id = $1::uuid`,
    org,
  );
  const titles = [
    'Unit price above the agreed price',
    'Freight charged although included',
    'Duplicate charge',
    'Surcharge not in the agreement',
    'Toner overcharged',
  ];
  await db.$executeRawUnsafe(
    `WITH i AS (SELECT i.id, i.currency_code, m.agreement_id, row_number() OVER (ORDER BY i.invoice_number) AS k
                  FROM invoices i JOIN invoice_agreement_matches m ON m.invoice_id = i.id WHERE i.organization_id = $1::uuid)
     INSERT INTO alerts (id, organization_id, invoice_id, agreement_id, status, title, explanation, impact_amount, currency_code, confidence_level, citations, origin, created_at, updated_at)
     SELECT gen_random_uuid(), $1::uuid, i.id, i.agreement_id,
            (ARRAY['pending', 'pending', 'dismissed', 'credited', 'pending'])[1 + i.k % 5]::"AlertStatus",
            ($2::text[])[1 + i.k % 5] || ' (line ' || (i.k % 40) || ')',
            'The invoice line ' || (i.k % 40) || ' charges more than the agreement allows for item ' || (i.k % 997) || ' [1].',
            ((i.k % 500) + 0.5)::numeric, i.currency_code, 'certain', '[]'::jsonb, 'user', now() - ((i.k % 365) || ' days')::interval, now()
       FROM i WHERE i.k <= $3`,
    org,
    titles,
    options.alerts,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO claims (id, organization_id, agreement_id, reference, title, status, created_at, updated_at)
     SELECT gen_random_uuid(), $1::uuid, a.id, 'CLM-2026-' || lpad(g::text, 4, '0'), ($2::text[])[1 + g % 12] || ' overcharges ' || g,
            (ARRAY['pending', 'in_progress', 'completed', 'cancelled'])[1 + g % 4]::"ClaimStatus", now() - ((g % 60) || ' days')::interval, now()
       FROM generate_series(1, $3) g
       JOIN LATERAL (SELECT id FROM agreements WHERE organization_id = $1::uuid ORDER BY expiration_date OFFSET (g % $4) LIMIT 1) a ON true`,
    org,
    words,
    options.claims,
    n,
  );
  // Every fifth credited alert goes into a claim of its agreement, as claimed.
  await db.$executeRawUnsafe(
    `UPDATE alerts al SET status = 'claimed', claim_id = c.id
       FROM (SELECT DISTINCT ON (agreement_id) id, agreement_id FROM claims WHERE organization_id = $1::uuid ORDER BY agreement_id, reference) c
      WHERE al.organization_id = $1::uuid AND al.agreement_id = c.agreement_id AND al.status = 'credited'`,
    org,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO claim_refunds (id, organization_id, claim_id, amount, currency_code, date, updated_at)
     SELECT gen_random_uuid(), $1::uuid, c.id, 25.5, (ARRAY['EUR', 'NOK'])[1 + ((row_number() OVER ()) % 2)::int], current_date - (row_number() OVER ())::int % 30, now()
       FROM claims c CROSS JOIN generate_series(1, 2) WHERE c.organization_id = $1::uuid`,
    org,
  );
  // As autovacuum keeps a live database: planner statistics and the visibility map that lets
  // the overview's sums be index-only scans.
  await db.$executeRawUnsafe('VACUUM ANALYZE');
}

export async function countsOf(db: Db, organizationId: string): Promise<Record<string, number>> {
  const [row] = await db.$queryRawUnsafe<Record<string, number>[]>(
    `SELECT (SELECT count(*)::int FROM invoices WHERE organization_id = $1::uuid) AS invoices,
            (SELECT count(*)::int FROM alerts WHERE organization_id = $1::uuid) AS alerts,
            (SELECT count(*)::int FROM agreements WHERE organization_id = $1::uuid) AS agreements,
            (SELECT count(*)::int FROM claims WHERE organization_id = $1::uuid) AS claims,
            (SELECT count(*)::int FROM claim_refunds WHERE organization_id = $1::uuid) AS refunds`,
    organizationId,
  );
  return row!;
}
