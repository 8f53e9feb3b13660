-- CreateIndex
CREATE INDEX "invoices_organization_id_due_date_id_idx" ON "invoices"("organization_id", "due_date", "id");

-- CreateIndex
CREATE INDEX "invoices_organization_id_tax_inclusive_amount_id_idx" ON "invoices"("organization_id", "tax_inclusive_amount", "id");

-- CreateIndex
CREATE INDEX "invoices_organization_id_invoice_number_id_idx" ON "invoices"("organization_id", "invoice_number", "id");
