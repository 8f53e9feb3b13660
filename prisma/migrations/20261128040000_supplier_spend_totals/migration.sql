-- CreateTable
CREATE TABLE "organization_supplier_spend" (
    "organization_id" UUID NOT NULL,
    "currency_code" TEXT NOT NULL,
    "supplier_key" TEXT NOT NULL,
    "invoiced" DECIMAL(30,4) NOT NULL,
    "credited" DECIMAL(30,4) NOT NULL,
    "invoice_count" BIGINT NOT NULL,
    "credit_note_count" BIGINT NOT NULL,

    CONSTRAINT "organization_supplier_spend_pkey" PRIMARY KEY ("organization_id","currency_code","supplier_key")
);

-- Hand-written below, as organization_invoice_totals (migration overview_totals): the invoice
-- triggers keep the spend per organization, currency and supplier in the same transaction as every
-- change of an invoice, so the overview's spend by supplier (GET /v1/invoices/metrics/suppliers
-- without filters) reads a row per supplier instead of grouping every invoice of the organization.
-- The rule is the metrics' one: processed, not deleted, not a semantic duplicate, with a currency;
-- invoices add their total including VAT, credit notes their absolute value to `credited`.
-- `supplier_key` is the supplier's id, '' for invoices whose supplier is not known.
-- Each trigger's name extends its invoices_totals_* counterpart's, so it fires after it: a
-- statement that changes a currency's totals waits on that one row first, before it takes any
-- supplier row (writers of a currency meet on one row, in one order).
CREATE FUNCTION "organization_supplier_spend_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    ELSE 'SELECT -1 AS sign, * FROM old_rows UNION ALL SELECT 1, * FROM new_rows'
  END;
BEGIN
  EXECUTE format($sql$
    INSERT INTO organization_supplier_spend AS t (organization_id, currency_code, supplier_key, invoiced, credited, invoice_count, credit_note_count)
    SELECT organization_id, currency_code, supplier_key,
           sum(sign * invoiced), sum(sign * credited), sum(sign * is_invoice), sum(sign * is_credit_note)
      FROM (SELECT c.sign, c.organization_id, c.currency_code, coalesce(c.supplier_id::text, '') AS supplier_key,
                   CASE WHEN c.document_type = 'invoice' THEN coalesce(c.tax_inclusive_amount, 0) ELSE 0 END AS invoiced,
                   CASE WHEN c.document_type = 'credit_note' THEN abs(coalesce(c.tax_inclusive_amount, 0)) ELSE 0 END AS credited,
                   (c.document_type = 'invoice')::int AS is_invoice,
                   (c.document_type = 'credit_note')::int AS is_credit_note
              FROM (%s) c
             WHERE c.deleted_at IS NULL AND c.processing_status = 'completed' AND c.duplicate_of_invoice_id IS NULL
               AND c.currency_code IS NOT NULL) parts
     GROUP BY organization_id, currency_code, supplier_key
    HAVING sum(sign * invoiced) <> 0 OR sum(sign * credited) <> 0 OR sum(sign * is_invoice) <> 0 OR sum(sign * is_credit_note) <> 0
     ORDER BY organization_id, currency_code, supplier_key
    ON CONFLICT (organization_id, currency_code, supplier_key) DO UPDATE
       SET invoiced = t.invoiced + excluded.invoiced, credited = t.credited + excluded.credited,
           invoice_count = t.invoice_count + excluded.invoice_count, credit_note_count = t.credit_note_count + excluded.credit_note_count
  $sql$, changed);
  RETURN NULL;
END
$$;

CREATE TRIGGER "invoices_totals_insert_suppliers" AFTER INSERT ON "invoices" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "organization_supplier_spend_apply"();
CREATE TRIGGER "invoices_totals_update_suppliers" AFTER UPDATE ON "invoices" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "organization_supplier_spend_apply"();
CREATE TRIGGER "invoices_totals_delete_suppliers" AFTER DELETE ON "invoices" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "organization_supplier_spend_apply"();

-- The invoices already there (after the triggers: their lock holds writers back until this
-- migration commits, so no change falls between the sums and the triggers).
INSERT INTO "organization_supplier_spend" (organization_id, currency_code, supplier_key, invoiced, credited, invoice_count, credit_note_count)
SELECT organization_id, currency_code, coalesce(supplier_id::text, ''),
       coalesce(sum(tax_inclusive_amount) FILTER (WHERE document_type = 'invoice'), 0),
       coalesce(sum(abs(tax_inclusive_amount)) FILTER (WHERE document_type = 'credit_note'), 0),
       count(*) FILTER (WHERE document_type = 'invoice'),
       count(*) FILTER (WHERE document_type = 'credit_note')
  FROM "invoices"
 WHERE deleted_at IS NULL AND processing_status = 'completed' AND duplicate_of_invoice_id IS NULL AND currency_code IS NOT NULL
 GROUP BY 1, 2, 3;
