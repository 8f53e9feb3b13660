-- A price import that needed review (a failure or rejected rows) leaves the review queue once a
-- person confirms it (POST /v1/agreements/{id}/price-imports/{import_id}/confirm-review).
ALTER TABLE "price_imports" ADD COLUMN "reviewed_at" TIMESTAMPTZ(3);
