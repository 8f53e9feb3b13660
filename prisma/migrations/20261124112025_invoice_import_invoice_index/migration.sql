-- CreateIndex
CREATE INDEX "invoice_imports_invoice_id_idx" ON "invoice_imports"("invoice_id");
