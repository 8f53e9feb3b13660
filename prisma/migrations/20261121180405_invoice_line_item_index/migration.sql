-- CreateIndex
CREATE INDEX "invoice_lines_organization_id_seller_item_id_idx" ON "invoice_lines"("organization_id", "seller_item_id");
