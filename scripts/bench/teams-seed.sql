-- The teams benchmark's data (scripts/bench/teams.ts: 100,000 invoices of 200 suppliers, one agreement
-- each, every invoice matched, 20,000 alerts) seeded in seconds with SQL into a database you keep,
-- for measuring the team-scope statements with psql or scripts/bench/teams-statements.ts:
--   createdb teams_totals_bench; DATABASE_URL=... node --experimental-wasm-modules scripts/migrate.mjs apply
--   psql -v ON_ERROR_STOP=1 $URL -f scripts/bench/teams-seed.sql
ALTER DATABASE teams_totals_bench SET jit = off;
INSERT INTO organizations (id, name) VALUES ('00000000-0000-4000-8000-000000000001', 'Bench');
INSERT INTO suppliers (id, organization_id, name, country_code, updated_at)
  SELECT ('10000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, '00000000-0000-4000-8000-000000000001', 'Supplier ' || i, (ARRAY['NO','SE','DK','FI','DE'])[i % 5 + 1], now() FROM generate_series(0,199) i;
INSERT INTO tags (id, organization_id, name) VALUES ('20000000-0000-4000-8000-000000000000','00000000-0000-4000-8000-000000000001','Tag 0'),('20000000-0000-4000-8000-000000000001','00000000-0000-4000-8000-000000000001','Tag 1');
INSERT INTO agreements (id, organization_id, title, status, expiration_date, updated_at)
  SELECT ('30000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, '00000000-0000-4000-8000-000000000001', 'Agreement ' || i, 'active', current_date + ((i % 400) - 100), now() FROM generate_series(0,199) i;
INSERT INTO agreement_suppliers (agreement_id, supplier_id) SELECT ('30000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, ('10000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid FROM generate_series(0,199) i;
INSERT INTO agreement_tags (agreement_id, tag_id) SELECT ('30000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, ('20000000-0000-4000-8000-' || lpad((i%2)::text, 12, '0'))::uuid FROM generate_series(0,199) i;
INSERT INTO invoices (id, organization_id, source, processing_status, document_type, invoice_number, issue_date, currency_code, tax_inclusive_amount, order_reference, delivery_address, supplier_id, updated_at)
  SELECT gen_random_uuid(), '00000000-0000-4000-8000-000000000001', 'api', 'completed', 'invoice', 'T-' || lpad((i+1)::text, 7, '0'), current_date - floor(random()*300)::int,
    CASE WHEN i % 3 = 0 THEN 'NOK' ELSE 'EUR' END, round((random()*2000)::numeric, 2), CASE WHEN i % 7 = 0 THEN 'PO-' || i END,
    CASE WHEN i % 5 = 0 THEN jsonb_build_object('lines', jsonb_build_array('Street ' || i), 'city', 'Oslo', 'postalCode', '0150', 'countryCode', 'NO') END,
    ('10000000-0000-4000-8000-' || lpad((i % 200)::text, 12, '0'))::uuid, now()
  FROM generate_series(0,99999) i;
INSERT INTO invoice_agreement_matches (invoice_id, agreement_id, organization_id, reasons)
  SELECT id, ('30000000-0000-4000-8000-' || lpad(((right(invoice_number, 7)::int - 1) % 200)::text, 12, '0'))::uuid, organization_id, ARRAY['bench'] FROM invoices;
INSERT INTO alerts (id, organization_id, invoice_id, agreement_id, title, explanation, impact_amount, currency_code, confidence_level, citations, origin, updated_at)
  SELECT gen_random_uuid(), m.organization_id, invoice_id, agreement_id, 'Overcharge', 'Unit price above the agreed price [1].', 12.50, 'EUR', 'certain', '[]', 'user', now()
  FROM invoice_agreement_matches m JOIN invoices i ON i.id = m.invoice_id WHERE (right(i.invoice_number, 7)::int - 1) % 5 = 0;
ANALYZE;
