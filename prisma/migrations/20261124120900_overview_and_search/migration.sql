-- Overview and search (docs/overview-and-search.md). Hand-written: Prisma cannot express
-- expression, operator-class or partial indexes, and its schema diff leaves them alone.

CREATE EXTENSION IF NOT EXISTS pg_trgm;
-- btree_gin lets one GIN index hold the organization with the trigrams: a search never reads
-- another organization's matches.
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- Search. Every searchable text has two indexes on lower(text): a btree with text_pattern_ops
-- for exact and prefix matches (the only kind a query under 3 characters may make), scanned in
-- order per organization, and a GIN trigram index for matches anywhere in the text.
CREATE INDEX "invoices_search_number_prefix_idx" ON "invoices" ("organization_id", lower("invoice_number") text_pattern_ops) WHERE "deleted_at" IS NULL;
CREATE INDEX "invoices_search_number_trgm_idx" ON "invoices" USING GIN ("organization_id", lower("invoice_number") gin_trgm_ops) WHERE "deleted_at" IS NULL;
CREATE INDEX "invoices_search_supplier_prefix_idx" ON "invoices" ("organization_id", lower("supplier_party"->>'name') text_pattern_ops) WHERE "deleted_at" IS NULL;
CREATE INDEX "invoices_search_supplier_trgm_idx" ON "invoices" USING GIN ("organization_id", lower("supplier_party"->>'name') gin_trgm_ops) WHERE "deleted_at" IS NULL;
CREATE INDEX "agreements_search_title_prefix_idx" ON "agreements" ("organization_id", lower("title") text_pattern_ops);
CREATE INDEX "agreements_search_title_trgm_idx" ON "agreements" USING GIN ("organization_id", lower("title") gin_trgm_ops);
CREATE INDEX "agreements_search_instructions_fts_idx" ON "agreements" USING GIN ("organization_id", to_tsvector('simple', coalesce("instructions", '')));
CREATE INDEX "alerts_search_title_prefix_idx" ON "alerts" ("organization_id", lower("title") text_pattern_ops);
CREATE INDEX "alerts_search_title_trgm_idx" ON "alerts" USING GIN ("organization_id", lower("title") gin_trgm_ops);
CREATE INDEX "alerts_search_explanation_fts_idx" ON "alerts" USING GIN ("organization_id", to_tsvector('simple', "explanation"));
CREATE INDEX "alert_topics_search_title_prefix_idx" ON "alert_topics" ("organization_id", lower("title") text_pattern_ops);
CREATE INDEX "alert_topics_search_title_trgm_idx" ON "alert_topics" USING GIN ("organization_id", lower("title") gin_trgm_ops);
CREATE INDEX "claims_search_reference_prefix_idx" ON "claims" ("organization_id", lower("reference") text_pattern_ops);
CREATE INDEX "claims_search_reference_trgm_idx" ON "claims" USING GIN ("organization_id", lower("reference") gin_trgm_ops);
CREATE INDEX "claims_search_title_prefix_idx" ON "claims" ("organization_id", lower("title") text_pattern_ops);
CREATE INDEX "claims_search_title_trgm_idx" ON "claims" USING GIN ("organization_id", lower("title") gin_trgm_ops);

-- Overview: covering indexes so its sums are index-only scans of the rows that count (the
-- key's coalesce only keeps Prisma's schema diff from reading them as its own).
-- Spend: processed, not deleted, not a semantic duplicate (as GET /v1/invoices/metrics).
CREATE INDEX "invoices_overview_spend_idx" ON "invoices" ("organization_id", (coalesce("currency_code", ''))) INCLUDE ("currency_code", "document_type", "tax_inclusive_amount")
  WHERE "deleted_at" IS NULL AND "processing_status" = 'completed' AND "duplicate_of_invoice_id" IS NULL;
-- Alert impact per status and currency.
CREATE INDEX "alerts_overview_status_idx" ON "alerts" ("organization_id", "status", (coalesce("currency_code", ''))) INCLUDE ("currency_code", "impact_amount", "created_at", "invoice_id", "agreement_id", "claim_id");
-- Invoices that could not be read (a next step).
CREATE INDEX "invoices_overview_failed_idx" ON "invoices" ("organization_id") WHERE "processing_status" = 'failed' AND "deleted_at" IS NULL;
-- Set-aside alerts (ended match, deleted invoice) are few: totals subtract them through these.
CREATE INDEX "invoice_agreement_matches_ended_idx" ON "invoice_agreement_matches" ("invoice_id", "agreement_id") WHERE NOT "active";
CREATE INDEX "invoices_deleted_idx" ON "invoices" ("organization_id", "id") WHERE "deleted_at" IS NOT NULL;
-- Invoices whose checks are incomplete or outdated (next steps), counted without the rest.
CREATE INDEX "invoices_overview_recheck_idx" ON "invoices" ("organization_id", "check_status") WHERE "deleted_at" IS NULL AND "check_status" IN ('incomplete', 'outdated');
