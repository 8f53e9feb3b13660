-- The delivery date an invoice states (UBL Delivery/ActualDeliveryDate, CII's actual delivery):
-- the duplicate-charge check takes the same delivery date as evidence of a re-sent invoice.
ALTER TABLE "invoices" ADD COLUMN "delivery_date" DATE;
