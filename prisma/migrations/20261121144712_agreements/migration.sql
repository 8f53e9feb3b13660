-- CreateEnum
CREATE TYPE "AgreementStatus" AS ENUM ('draft', 'active', 'archived');

-- CreateTable
CREATE TABLE "agreements" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "title" TEXT,
    "status" "AgreementStatus" NOT NULL DEFAULT 'draft',
    "effective_date" DATE,
    "expiration_date" DATE,
    "applicability" JSONB,
    "instructions" TEXT,
    "auto_renews" BOOLEAN NOT NULL DEFAULT false,
    "renewal_period_months" INTEGER,
    "notice_period_days" INTEGER,
    "renewal_action_kind" TEXT,
    "renewal_deadline" DATE,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "terms_changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agreements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agreement_suppliers" (
    "agreement_id" UUID NOT NULL,
    "supplier_id" UUID NOT NULL,

    CONSTRAINT "agreement_suppliers_pkey" PRIMARY KEY ("agreement_id","supplier_id")
);

-- CreateTable
CREATE TABLE "agreement_recipients" (
    "agreement_id" UUID NOT NULL,
    "recipient_id" UUID NOT NULL,

    CONSTRAINT "agreement_recipients_pkey" PRIMARY KEY ("agreement_id","recipient_id")
);

-- CreateTable
CREATE TABLE "tags" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tags_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agreement_tags" (
    "agreement_id" UUID NOT NULL,
    "tag_id" UUID NOT NULL,

    CONSTRAINT "agreement_tags_pkey" PRIMARY KEY ("agreement_id","tag_id")
);

-- CreateIndex
CREATE INDEX "agreements_organization_id_created_at_id_idx" ON "agreements"("organization_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "agreements_organization_id_renewal_deadline_idx" ON "agreements"("organization_id", "renewal_deadline");

-- CreateIndex
CREATE INDEX "agreement_suppliers_supplier_id_idx" ON "agreement_suppliers"("supplier_id");

-- CreateIndex
CREATE INDEX "agreement_recipients_recipient_id_idx" ON "agreement_recipients"("recipient_id");

-- CreateIndex
CREATE UNIQUE INDEX "tags_organization_id_name_key" ON "tags"("organization_id", "name");

-- CreateIndex
CREATE INDEX "agreement_tags_tag_id_idx" ON "agreement_tags"("tag_id");

-- AddForeignKey
ALTER TABLE "agreement_suppliers" ADD CONSTRAINT "agreement_suppliers_agreement_id_fkey" FOREIGN KEY ("agreement_id") REFERENCES "agreements"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agreement_recipients" ADD CONSTRAINT "agreement_recipients_agreement_id_fkey" FOREIGN KEY ("agreement_id") REFERENCES "agreements"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agreement_tags" ADD CONSTRAINT "agreement_tags_agreement_id_fkey" FOREIGN KEY ("agreement_id") REFERENCES "agreements"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agreement_tags" ADD CONSTRAINT "agreement_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;
