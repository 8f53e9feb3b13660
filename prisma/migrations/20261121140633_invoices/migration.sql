-- CreateEnum
CREATE TYPE "ImportOutcome" AS ENUM ('imported', 'duplicate', 'not_invoice');

-- CreateEnum
CREATE TYPE "DocumentType" AS ENUM ('invoice', 'credit_note');

-- CreateEnum
CREATE TYPE "ProcessingStatus" AS ENUM ('pending', 'processing', 'completed', 'failed');

-- CreateTable
CREATE TABLE "documents" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "file_name" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "file_size" INTEGER NOT NULL,
    "category" TEXT,
    "storage_key" TEXT NOT NULL,
    "md5" TEXT,
    "uploaded_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "documents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_imports" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "primary_document_id" UUID NOT NULL,
    "attachment_document_ids" UUID[],
    "source" TEXT NOT NULL,
    "workflow_run_id" UUID NOT NULL,
    "outcome" "ImportOutcome",
    "invoice_id" UUID,
    "classification_reason" TEXT,
    "failure" JSONB,
    "parsed" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "invoice_imports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoices" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "processing_status" "ProcessingStatus" NOT NULL DEFAULT 'pending',
    "classification" TEXT,
    "processing_failure" JSONB,
    "source" TEXT NOT NULL,
    "format" TEXT,
    "document_type" "DocumentType",
    "type_code" TEXT,
    "invoice_number" TEXT,
    "issue_date" DATE,
    "due_date" DATE,
    "currency_code" TEXT,
    "tax_currency_code" TEXT,
    "exchange_rate" DECIMAL(20,10),
    "supplier_id" UUID,
    "supplier_party" JSONB,
    "recipient_id" UUID,
    "recipient_party" JSONB,
    "buyer_reference" TEXT,
    "order_reference" TEXT,
    "contract_reference" TEXT,
    "delivery_country_code" TEXT,
    "delivery_address" JSONB,
    "invoice_period_start" DATE,
    "invoice_period_end" DATE,
    "line_extension_amount" DECIMAL(20,4),
    "tax_exclusive_amount" DECIMAL(20,4),
    "vat_amount" DECIMAL(20,4),
    "tax_inclusive_amount" DECIMAL(20,4),
    "allowance_total" DECIMAL(20,4),
    "charge_total" DECIMAL(20,4),
    "prepaid_amount" DECIMAL(20,4),
    "rounding_amount" DECIMAL(20,4),
    "payable_amount" DECIMAL(20,4),
    "amounts_valid" BOOLEAN,
    "allowance_charges" JSONB,
    "vat_breakdown" JSONB,
    "notes" TEXT[],
    "extraction" JSONB,
    "primary_md5" TEXT,
    "primary_document_id" UUID,
    "attachment_document_ids" UUID[],
    "duplicate_of_invoice_id" UUID,
    "credited_invoice_reference" TEXT,
    "credited_invoice_id" UUID,
    "content_changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "invoices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_lines" (
    "id" UUID NOT NULL,
    "invoice_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "line_number" TEXT,
    "description" TEXT,
    "seller_item_id" TEXT,
    "buyer_item_id" TEXT,
    "quantity" DECIMAL(20,6),
    "unit_code" TEXT,
    "unit_price" DECIMAL(20,6),
    "price_base_quantity" DECIMAL(20,6),
    "net_amount" DECIMAL(20,4),
    "vat_category" TEXT,
    "vat_rate" DECIMAL(10,6),
    "period_start" DATE,
    "period_end" DATE,

    CONSTRAINT "invoice_lines_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "documents_storage_key_key" ON "documents"("storage_key");

-- CreateIndex
CREATE INDEX "documents_organization_id_created_at_idx" ON "documents"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "invoice_imports_organization_id_created_at_idx" ON "invoice_imports"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "invoices_organization_id_created_at_id_idx" ON "invoices"("organization_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "invoices_organization_id_issue_date_idx" ON "invoices"("organization_id", "issue_date");

-- CreateIndex
CREATE INDEX "invoices_organization_id_supplier_id_invoice_number_idx" ON "invoices"("organization_id", "supplier_id", "invoice_number");

-- CreateIndex
CREATE INDEX "invoices_organization_id_credited_invoice_reference_idx" ON "invoices"("organization_id", "credited_invoice_reference");

-- CreateIndex
CREATE UNIQUE INDEX "invoices_organization_id_primary_md5_key" ON "invoices"("organization_id", "primary_md5");

-- CreateIndex
CREATE INDEX "invoice_lines_invoice_id_position_idx" ON "invoice_lines"("invoice_id", "position");

-- AddForeignKey
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE CASCADE ON UPDATE CASCADE;
