-- CreateTable
CREATE TABLE "price_imports" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "agreement_id" UUID NOT NULL,
    "document_id" UUID NOT NULL,
    "default_currency" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "instructions" TEXT,
    "worksheets" TEXT[],
    "reuse_key" TEXT NOT NULL,
    "workflow_run_id" UUID NOT NULL,
    "rows_found" INTEGER,
    "rows_added" INTEGER,
    "rows_skipped" INTEGER,
    "rows_rejected" INTEGER,
    "failure" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "price_imports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "price_import_rows" (
    "import_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "sheet" TEXT NOT NULL,
    "row_number" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "raw" JSONB NOT NULL,
    "price_item_id" UUID,

    CONSTRAINT "price_import_rows_pkey" PRIMARY KEY ("import_id","position")
);

-- CreateIndex
CREATE INDEX "price_imports_agreement_id_reuse_key_idx" ON "price_imports"("agreement_id", "reuse_key");

-- AddForeignKey
ALTER TABLE "price_import_rows" ADD CONSTRAINT "price_import_rows_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "price_imports"("id") ON DELETE CASCADE ON UPDATE CASCADE;
