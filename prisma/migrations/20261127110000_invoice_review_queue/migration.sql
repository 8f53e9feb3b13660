-- The review queue (GET /v1/invoices?needs_review=true): the few invoices whose layout reading is
-- uncertain, newest first, without walking every invoice of the organization. Partial, so Prisma's
-- schema leaves it alone; the list's filter repeats this predicate word for word.
CREATE INDEX "invoices_review_queue_idx" ON "invoices" ("organization_id", "created_at", "id") WHERE (extraction->>'needsReview') = 'true' AND "deleted_at" IS NULL;
