-- Issue 29: line allowances and charges are kept with their line; a price item can say from when
-- it applies and which other units it converts to; the line arithmetic's rounding tolerance is an
-- organization setting (in the currency's smallest unit).
-- AlterTable
ALTER TABLE "invoice_lines" ADD COLUMN     "allowance_charges" JSONB;

-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "line_rounding_minor_units" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "price_items" ADD COLUMN     "unit_conversions" JSONB,
ADD COLUMN     "valid_from" DATE;
