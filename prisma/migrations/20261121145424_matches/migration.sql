-- CreateTable
CREATE TABLE "invoice_agreement_matches" (
    "invoice_id" UUID NOT NULL,
    "agreement_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "reasons" TEXT[],
    "matched_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "invoice_agreement_matches_pkey" PRIMARY KEY ("invoice_id","agreement_id")
);

-- CreateIndex
CREATE INDEX "invoice_agreement_matches_agreement_id_active_idx" ON "invoice_agreement_matches"("agreement_id", "active");

-- CreateIndex
CREATE INDEX "invoice_agreement_matches_organization_id_active_idx" ON "invoice_agreement_matches"("organization_id", "active");

-- AddForeignKey
ALTER TABLE "invoice_agreement_matches" ADD CONSTRAINT "invoice_agreement_matches_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoice_agreement_matches" ADD CONSTRAINT "invoice_agreement_matches_agreement_id_fkey" FOREIGN KEY ("agreement_id") REFERENCES "agreements"("id") ON DELETE CASCADE ON UPDATE CASCADE;
