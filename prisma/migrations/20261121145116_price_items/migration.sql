-- CreateEnum
CREATE TYPE "PriceType" AS ENUM ('amount', 'rate');

-- CreateTable
CREATE TABLE "price_items" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "agreement_id" UUID NOT NULL,
    "description" TEXT NOT NULL,
    "seller_item_id" TEXT,
    "unit" TEXT,
    "currency_code" TEXT,
    "price_type" "PriceType" NOT NULL,
    "amount" DECIMAL(20,6),
    "fraction" DECIMAL(12,8),
    "basis" TEXT,
    "valid_until" DATE,
    "source_document_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "price_items_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "price_items_agreement_id_description_id_idx" ON "price_items"("agreement_id", "description", "id");

-- CreateIndex
CREATE INDEX "price_items_agreement_id_seller_item_id_idx" ON "price_items"("agreement_id", "seller_item_id");

-- CreateIndex
CREATE INDEX "price_items_organization_id_idx" ON "price_items"("organization_id");

-- AddForeignKey
ALTER TABLE "price_items" ADD CONSTRAINT "price_items_agreement_id_fkey" FOREIGN KEY ("agreement_id") REFERENCES "agreements"("id") ON DELETE CASCADE ON UPDATE CASCADE;
