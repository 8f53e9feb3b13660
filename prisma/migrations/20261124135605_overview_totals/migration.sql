-- CreateTable
CREATE TABLE "organization_invoice_totals" (
    "organization_id" UUID NOT NULL,
    "currency_code" TEXT NOT NULL,
    "invoice_count" BIGINT NOT NULL,
    "spend" DECIMAL(30,4) NOT NULL,
    "failed_count" BIGINT NOT NULL DEFAULT 0,
    "incomplete_count" BIGINT NOT NULL DEFAULT 0,
    "outdated_count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "organization_invoice_totals_pkey" PRIMARY KEY ("organization_id","currency_code")
);

-- CreateTable
CREATE TABLE "organization_alert_totals" (
    "organization_id" UUID NOT NULL,
    "status" "AlertStatus" NOT NULL,
    "currency_code" TEXT NOT NULL,
    "alert_count" BIGINT NOT NULL,
    "impact" DECIMAL(30,4) NOT NULL,

    CONSTRAINT "organization_alert_totals_pkey" PRIMARY KEY ("organization_id","status","currency_code")
);

-- Hand-written below (docs/overview-and-search.md, "How it stays fast"): triggers keep the two
-- tables in the same transaction as every change of an invoice or alert, so GET /v1/overview
-- reads a few rows per currency instead of counting and summing every invoice and alert.
-- Statement-level with transition tables: a bulk statement (an import, a bulk delete) adds up its
-- rows once. A row whose figures do not change (a note, a topic, a check result that leaves the
-- check status) cancels out in the HAVING and touches no total, so writers only meet on a total's
-- row when a figure of the same currency changes. Totals are upserted in key order, so two
-- statements never wait for each other's totals in opposite orders.
CREATE FUNCTION "organization_invoice_totals_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    ELSE 'SELECT -1 AS sign, * FROM old_rows UNION ALL SELECT 1, * FROM new_rows'
  END;
BEGIN
  EXECUTE format($sql$
    INSERT INTO organization_invoice_totals AS t (organization_id, currency_code, invoice_count, spend, failed_count, incomplete_count, outdated_count)
    SELECT organization_id, currency_code, sum(sign * counted), sum(sign * counted * spend),
           sum(sign * failed), sum(sign * incomplete), sum(sign * outdated)
      FROM (SELECT c.sign, c.organization_id, coalesce(c.currency_code, '') AS currency_code,
                   (c.deleted_at IS NULL AND c.processing_status = 'completed' AND c.duplicate_of_invoice_id IS NULL)::int AS counted,
                   CASE WHEN c.document_type = 'credit_note' THEN -abs(coalesce(c.tax_inclusive_amount, 0)) ELSE coalesce(c.tax_inclusive_amount, 0) END AS spend,
                   (c.deleted_at IS NULL AND c.processing_status = 'failed')::int AS failed,
                   (c.deleted_at IS NULL AND c.check_status = 'incomplete')::int AS incomplete,
                   (c.deleted_at IS NULL AND c.check_status = 'outdated')::int AS outdated
              FROM (%s) c) parts
     GROUP BY organization_id, currency_code
    HAVING sum(sign * counted) <> 0 OR sum(sign * counted * spend) <> 0
        OR sum(sign * failed) <> 0 OR sum(sign * incomplete) <> 0 OR sum(sign * outdated) <> 0
     ORDER BY organization_id, currency_code
    ON CONFLICT (organization_id, currency_code) DO UPDATE
       SET invoice_count = t.invoice_count + excluded.invoice_count, spend = t.spend + excluded.spend,
           failed_count = t.failed_count + excluded.failed_count, incomplete_count = t.incomplete_count + excluded.incomplete_count,
           outdated_count = t.outdated_count + excluded.outdated_count
  $sql$, changed);
  RETURN NULL;
END
$$;

CREATE TRIGGER "invoices_totals_insert" AFTER INSERT ON "invoices" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "organization_invoice_totals_apply"();
CREATE TRIGGER "invoices_totals_update" AFTER UPDATE ON "invoices" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "organization_invoice_totals_apply"();
CREATE TRIGGER "invoices_totals_delete" AFTER DELETE ON "invoices" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "organization_invoice_totals_apply"();

-- Every alert, set aside or not (which depends on its match and invoice): the overview subtracts
-- the few set-aside alerts when it reads, so a match or invoice change needs no trigger here.
CREATE FUNCTION "organization_alert_totals_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    ELSE 'SELECT -1 AS sign, * FROM old_rows UNION ALL SELECT 1, * FROM new_rows'
  END;
BEGIN
  EXECUTE format($sql$
    INSERT INTO organization_alert_totals AS t (organization_id, status, currency_code, alert_count, impact)
    SELECT c.organization_id, c.status, coalesce(c.currency_code, ''), sum(c.sign), sum(c.sign * coalesce(c.impact_amount, 0))
      FROM (%s) c
     GROUP BY 1, 2, 3
    HAVING sum(c.sign) <> 0 OR sum(c.sign * coalesce(c.impact_amount, 0)) <> 0
     ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, status, currency_code) DO UPDATE
       SET alert_count = t.alert_count + excluded.alert_count, impact = t.impact + excluded.impact
  $sql$, changed);
  RETURN NULL;
END
$$;

CREATE TRIGGER "alerts_totals_insert" AFTER INSERT ON "alerts" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "organization_alert_totals_apply"();
CREATE TRIGGER "alerts_totals_update" AFTER UPDATE ON "alerts" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "organization_alert_totals_apply"();
CREATE TRIGGER "alerts_totals_delete" AFTER DELETE ON "alerts" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "organization_alert_totals_apply"();

-- The invoices and alerts already there (after the triggers: their locks hold writers back until
-- this migration commits, so no change falls between the sums and the triggers).
INSERT INTO "organization_invoice_totals" (organization_id, currency_code, invoice_count, spend, failed_count, incomplete_count, outdated_count)
SELECT organization_id, coalesce(currency_code, ''),
       count(*) FILTER (WHERE processing_status = 'completed' AND duplicate_of_invoice_id IS NULL),
       coalesce(sum(CASE WHEN document_type = 'credit_note' THEN -abs(coalesce(tax_inclusive_amount, 0)) ELSE coalesce(tax_inclusive_amount, 0) END)
         FILTER (WHERE processing_status = 'completed' AND duplicate_of_invoice_id IS NULL), 0),
       count(*) FILTER (WHERE processing_status = 'failed'),
       count(*) FILTER (WHERE check_status = 'incomplete'),
       count(*) FILTER (WHERE check_status = 'outdated')
  FROM "invoices"
 WHERE deleted_at IS NULL
 GROUP BY 1, 2;
INSERT INTO "organization_alert_totals" (organization_id, status, currency_code, alert_count, impact)
SELECT organization_id, status, coalesce(currency_code, ''), count(*), sum(coalesce(impact_amount, 0))
  FROM "alerts"
 GROUP BY 1, 2, 3;

-- The total no longer reads every invoice; the recent part (created in the last 7 days) reads only
-- its own rows from this covering index, without the table.
DROP INDEX "invoices_overview_spend_idx";
CREATE INDEX "invoices_overview_recent_spend_idx" ON "invoices" ("organization_id", "created_at") INCLUDE ("currency_code", "document_type", "tax_inclusive_amount")
  WHERE "deleted_at" IS NULL AND "processing_status" = 'completed' AND "duplicate_of_invoice_id" IS NULL;

-- Recent pending alerts (created in the last 7 days) read only their own rows. The totals replace
-- the scan of every alert by status that alerts_overview_status_idx served.
DROP INDEX "alerts_overview_status_idx";
CREATE INDEX "alerts_overview_recent_pending_idx" ON "alerts" ("organization_id", "created_at") INCLUDE ("currency_code", "impact_amount", "invoice_id", "agreement_id")
  WHERE "status" = 'pending';

-- The invoices each not-ready agreement holds back, counted from the index alone (the plain
-- (agreement_id, active) index reads every match row from the table: ten times the estimated cost,
-- enough to make PostgreSQL compile the statement with JIT, 150 ms more, where JIT is enabled).
CREATE INDEX "invoice_agreement_matches_active_invoice_idx" ON "invoice_agreement_matches" ("agreement_id", "invoice_id") WHERE "active";

-- Failed invoices and incomplete or outdated checks are counted by the invoice totals now.
DROP INDEX "invoices_overview_failed_idx";
DROP INDEX "invoices_overview_recheck_idx";

-- The recent part of the claimed impact: the claimed alerts of the claims created in the last 7
-- days, read from this index alone.
CREATE INDEX "alerts_overview_claimed_idx" ON "alerts" ("claim_id") INCLUDE ("currency_code", "impact_amount", "invoice_id", "agreement_id") WHERE "status" = 'claimed';
