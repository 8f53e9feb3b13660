-- Keyset pages order by (created_at, id) in ONE direction (newest first: both DESC). An index of
-- (created_at DESC, id ASC) gives that order only through an incremental sort per created_at value,
-- and rows written by one statement share created_at (a check's alerts, a run's items): 20,000
-- alerts of the same instant made the alert list sort every alert (60 ms instead of 3).

-- DropIndex
DROP INDEX "agreements_organization_id_created_at_id_idx";

-- DropIndex
DROP INDEX "alert_topics_organization_id_created_at_id_idx";

-- DropIndex
DROP INDEX "alerts_organization_id_created_at_id_idx";

-- DropIndex
DROP INDEX "claims_organization_id_created_at_id_idx";

-- DropIndex
DROP INDEX "claims_organization_id_updated_at_id_idx";

-- DropIndex
DROP INDEX "compliance_checks_organization_id_started_at_id_idx";

-- DropIndex
DROP INDEX "context_suggestions_organization_id_created_at_id_idx";

-- DropIndex
DROP INDEX "integrations_organization_id_created_at_id_idx";

-- DropIndex
DROP INDEX "invoices_organization_id_created_at_id_idx";

-- DropIndex
DROP INDEX "notification_deliveries_organization_id_created_at_id_idx";

-- DropIndex
DROP INDEX "teams_organization_id_created_at_id_idx";

-- DropIndex
DROP INDEX "workflow_runs_organization_id_created_at_id_idx";

-- CreateIndex
CREATE INDEX "agreements_organization_id_created_at_id_idx" ON "agreements"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "alert_topics_organization_id_created_at_id_idx" ON "alert_topics"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "alerts_organization_id_created_at_id_idx" ON "alerts"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "claims_organization_id_created_at_id_idx" ON "claims"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "claims_organization_id_updated_at_id_idx" ON "claims"("organization_id", "updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "compliance_checks_organization_id_started_at_id_idx" ON "compliance_checks"("organization_id", "started_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "context_suggestions_organization_id_created_at_id_idx" ON "context_suggestions"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "integrations_organization_id_created_at_id_idx" ON "integrations"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "invoices_organization_id_created_at_id_idx" ON "invoices"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "notification_deliveries_organization_id_created_at_id_idx" ON "notification_deliveries"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "teams_organization_id_created_at_id_idx" ON "teams"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "workflow_runs_organization_id_created_at_id_idx" ON "workflow_runs"("organization_id", "created_at" DESC, "id" DESC);
