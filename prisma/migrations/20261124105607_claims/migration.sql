-- CreateEnum
CREATE TYPE "ClaimStatus" AS ENUM ('pending', 'in_progress', 'completed', 'cancelled');

-- CreateTable
CREATE TABLE "claims" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "agreement_id" UUID NOT NULL,
    "supplier_id" UUID,
    "reference" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "status" "ClaimStatus" NOT NULL DEFAULT 'pending',
    "supplier_contact_name" TEXT,
    "supplier_contact_email" TEXT,
    "note" TEXT,
    "created_by_user_id" UUID,
    "created_by_api_key_id" UUID,
    "completed_at" TIMESTAMPTZ(3),
    "cancelled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "claims_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "claim_reference_counters" (
    "organization_id" UUID NOT NULL,
    "year" INTEGER NOT NULL,
    "last_number" INTEGER NOT NULL,

    CONSTRAINT "claim_reference_counters_pkey" PRIMARY KEY ("organization_id","year")
);

-- CreateTable
CREATE TABLE "claim_refunds" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "claim_id" UUID NOT NULL,
    "amount" DECIMAL(20,4) NOT NULL,
    "currency_code" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "reference" TEXT,
    "note" TEXT,
    "credit_note_invoice_id" UUID,
    "recorded_by_user_id" UUID,
    "recorded_by_api_key_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "claim_refunds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "claim_credit_notes" (
    "claim_id" UUID NOT NULL,
    "invoice_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "attached_by_user_id" UUID,
    "attached_by_api_key_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "claim_credit_notes_pkey" PRIMARY KEY ("claim_id","invoice_id")
);

-- CreateIndex
CREATE INDEX "claims_organization_id_created_at_id_idx" ON "claims"("organization_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "claims_organization_id_updated_at_id_idx" ON "claims"("organization_id", "updated_at" DESC, "id");

-- CreateIndex
CREATE INDEX "claims_agreement_id_idx" ON "claims"("agreement_id");

-- CreateIndex
CREATE UNIQUE INDEX "claims_organization_id_reference_key" ON "claims"("organization_id", "reference");

-- CreateIndex
CREATE INDEX "claim_refunds_claim_id_date_idx" ON "claim_refunds"("claim_id", "date");

-- CreateIndex
CREATE INDEX "claim_refunds_organization_id_date_idx" ON "claim_refunds"("organization_id", "date");

-- CreateIndex
CREATE INDEX "claim_credit_notes_invoice_id_idx" ON "claim_credit_notes"("invoice_id");

-- CreateIndex
CREATE INDEX "alerts_claim_id_idx" ON "alerts"("claim_id");

-- AddForeignKey
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claims" ADD CONSTRAINT "claims_agreement_id_fkey" FOREIGN KEY ("agreement_id") REFERENCES "agreements"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_refunds" ADD CONSTRAINT "claim_refunds_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_credit_notes" ADD CONSTRAINT "claim_credit_notes_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_credit_notes" ADD CONSTRAINT "claim_credit_notes_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE CASCADE ON UPDATE CASCADE;
