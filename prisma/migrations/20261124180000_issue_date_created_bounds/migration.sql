-- The invoice list bounds a newest-first walk by the creation times of the invoices issued in the
-- asked range (createdBoundsOfIssueRange in src/invoices/routes.ts). Those bounds come from this index alone (index-only
-- scan): it replaces the plain (organization_id, issue_date) index, whose uses it also serves.
DROP INDEX "invoices_organization_id_issue_date_idx";
CREATE INDEX "invoices_organization_id_issue_date_idx" ON "invoices" ("organization_id", "issue_date") INCLUDE ("created_at");
