-- The invoice list bounds a newest-first walk by the creation times of the invoices issued in the
-- asked range (createdBoundsOfIssueRange in src/invoices/routes.ts). Those bounds come from this
-- index alone (index-only scan). Partial, like the overview's indexes, because Prisma's schema
-- cannot say INCLUDE and leaves partial indexes alone; a range never matches a missing issue date.
CREATE INDEX "invoices_issue_date_created_at_idx" ON "invoices" ("organization_id", "issue_date") INCLUDE ("created_at") WHERE "issue_date" IS NOT NULL;
