-- CreateEnum
CREATE TYPE "CheckStatus" AS ENUM ('running', 'completed', 'failed');

-- CreateEnum
CREATE TYPE "AlertStatus" AS ENUM ('pending', 'claimed', 'credited', 'dismissed');

-- AlterTable
ALTER TABLE "invoices" ADD COLUMN     "alert_check_failure" JSONB,
ADD COLUMN     "alert_check_skip_reason" TEXT,
ADD COLUMN     "alert_check_status" TEXT NOT NULL DEFAULT 'pending',
ADD COLUMN     "check_status" TEXT NOT NULL DEFAULT 'not_checked',
ADD COLUMN     "checked_agreement_count" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "compliance_checks" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "invoice_id" UUID NOT NULL,
    "agreement_id" UUID NOT NULL,
    "workflow_run_id" UUID,
    "status" "CheckStatus" NOT NULL DEFAULT 'running',
    "failure" JSONB,
    "findings_count" INTEGER,
    "invoice_version_at" TIMESTAMPTZ(3) NOT NULL,
    "agreement_version_at" TIMESTAMPTZ(3) NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "compliance_checks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "compliance_findings" (
    "id" UUID NOT NULL,
    "check_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "checker" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "explanation" TEXT NOT NULL,
    "impact_amount" DECIMAL(20,4) NOT NULL,
    "currency_code" TEXT,
    "confidence" TEXT NOT NULL,
    "invoice_line_id" UUID,
    "correction_type" TEXT NOT NULL,
    "citations" JSONB NOT NULL,
    "expected" JSONB,
    "alert_id" UUID,

    CONSTRAINT "compliance_findings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alerts" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "invoice_id" UUID NOT NULL,
    "agreement_id" UUID NOT NULL,
    "status" "AlertStatus" NOT NULL DEFAULT 'pending',
    "title" TEXT NOT NULL,
    "explanation" TEXT NOT NULL,
    "impact_amount" DECIMAL(20,4) NOT NULL,
    "currency_code" TEXT,
    "expected" JSONB,
    "confidence_level" TEXT NOT NULL,
    "citations" JSONB NOT NULL,
    "invoice_line_id" UUID,
    "correction_type" TEXT NOT NULL DEFAULT 'modify_invoice',
    "topic_id" UUID,
    "origin" TEXT NOT NULL,
    "created_by_user_id" UUID,
    "created_by_api_key_id" UUID,
    "checker" TEXT,
    "fingerprint" TEXT,
    "check_id" UUID,
    "dismissal_category" TEXT,
    "dismissal_note" TEXT,
    "dismissed_at" TIMESTAMPTZ(3),
    "credited_by" TEXT,
    "credited_at" TIMESTAMPTZ(3),
    "status_before_credit" "AlertStatus",
    "claim_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "alerts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_topics" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "agreement_id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "is_locked" BOOLEAN NOT NULL DEFAULT false,
    "group_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "alert_topics_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "context_suggestions" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "agreement_id" UUID NOT NULL,
    "alert_id" UUID,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "instruction" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "edit_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),

    CONSTRAINT "context_suggestions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "exchange_rates" (
    "source" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "base_currency" TEXT NOT NULL,
    "quote_currency" TEXT NOT NULL,
    "rate" DECIMAL(24,10) NOT NULL,

    CONSTRAINT "exchange_rates_pkey" PRIMARY KEY ("source","date","base_currency","quote_currency")
);

-- CreateIndex
CREATE INDEX "compliance_checks_organization_id_started_at_id_idx" ON "compliance_checks"("organization_id", "started_at" DESC, "id");

-- CreateIndex
CREATE INDEX "compliance_checks_invoice_id_agreement_id_started_at_idx" ON "compliance_checks"("invoice_id", "agreement_id", "started_at" DESC);

-- CreateIndex
CREATE INDEX "compliance_checks_agreement_id_idx" ON "compliance_checks"("agreement_id");

-- CreateIndex
CREATE INDEX "compliance_findings_check_id_position_idx" ON "compliance_findings"("check_id", "position");

-- CreateIndex
CREATE INDEX "alerts_organization_id_created_at_id_idx" ON "alerts"("organization_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "alerts_invoice_id_agreement_id_idx" ON "alerts"("invoice_id", "agreement_id");

-- CreateIndex
CREATE INDEX "alerts_agreement_id_status_idx" ON "alerts"("agreement_id", "status");

-- CreateIndex
CREATE INDEX "alerts_topic_id_idx" ON "alerts"("topic_id");

-- CreateIndex
CREATE INDEX "alert_topics_organization_id_created_at_id_idx" ON "alert_topics"("organization_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "alert_topics_agreement_id_group_key_idx" ON "alert_topics"("agreement_id", "group_key");

-- CreateIndex
CREATE INDEX "context_suggestions_organization_id_created_at_id_idx" ON "context_suggestions"("organization_id", "created_at" DESC, "id");

-- CreateIndex
CREATE UNIQUE INDEX "context_suggestions_agreement_id_edit_key_key" ON "context_suggestions"("agreement_id", "edit_key");

-- CreateIndex
CREATE INDEX "exchange_rates_base_currency_quote_currency_date_idx" ON "exchange_rates"("base_currency", "quote_currency", "date");

-- CreateIndex
CREATE INDEX "invoices_organization_id_check_status_idx" ON "invoices"("organization_id", "check_status");

-- AddForeignKey
ALTER TABLE "compliance_checks" ADD CONSTRAINT "compliance_checks_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "compliance_checks" ADD CONSTRAINT "compliance_checks_agreement_id_fkey" FOREIGN KEY ("agreement_id") REFERENCES "agreements"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "compliance_findings" ADD CONSTRAINT "compliance_findings_check_id_fkey" FOREIGN KEY ("check_id") REFERENCES "compliance_checks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_topic_id_fkey" FOREIGN KEY ("topic_id") REFERENCES "alert_topics"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_invoice_id_agreement_id_fkey" FOREIGN KEY ("invoice_id", "agreement_id") REFERENCES "invoice_agreement_matches"("invoice_id", "agreement_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_topics" ADD CONSTRAINT "alert_topics_agreement_id_fkey" FOREIGN KEY ("agreement_id") REFERENCES "agreements"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "context_suggestions" ADD CONSTRAINT "context_suggestions_agreement_id_fkey" FOREIGN KEY ("agreement_id") REFERENCES "agreements"("id") ON DELETE CASCADE ON UPDATE CASCADE;
