-- Trigram indexes serve the lists' `search` (contains, any case). pg_trgm ships with PostgreSQL.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateIndex
CREATE INDEX "agreements_title_trgm_idx" ON "agreements" USING GIN ("title" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "alerts_organization_id_updated_at_id_idx" ON "alerts"("organization_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "alerts_organization_id_impact_amount_id_idx" ON "alerts"("organization_id", "impact_amount", "id");

-- CreateIndex (also made by the claims migration, written in parallel)
CREATE INDEX IF NOT EXISTS "alerts_claim_id_idx" ON "alerts"("claim_id");

-- CreateIndex
CREATE INDEX "alerts_title_trgm_idx" ON "alerts" USING GIN ("title" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "alerts_explanation_trgm_idx" ON "alerts" USING GIN ("explanation" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "invoices_invoice_number_trgm_idx" ON "invoices" USING GIN ("invoice_number" gin_trgm_ops);

-- Hand-written (Prisma cannot express an expression index): the supplier's name as invoiced, which
-- the invoice list's `search` matches with the same expression.
CREATE INDEX "invoices_supplier_party_name_trgm_idx" ON "invoices" USING GIN ((supplier_party #>> '{name}'::text[]) gin_trgm_ops);

-- Without fast update, a GIN index takes new entries at once instead of in a pending list that
-- every search reads through until (auto)vacuum merges it: searches stay fast between vacuums
-- of organizations that import all day, for a little more work per insert.
ALTER INDEX "invoices_invoice_number_trgm_idx" SET (fastupdate = off);
ALTER INDEX "invoices_supplier_party_name_trgm_idx" SET (fastupdate = off);
ALTER INDEX "alerts_title_trgm_idx" SET (fastupdate = off);
ALTER INDEX "alerts_explanation_trgm_idx" SET (fastupdate = off);
ALTER INDEX "agreements_title_trgm_idx" SET (fastupdate = off);
