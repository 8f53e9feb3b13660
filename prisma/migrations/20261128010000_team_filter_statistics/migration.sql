-- A team filter on the invoice currency compiles to lower(currency_code) = ANY(...)
-- (src/teams/filter/compile.ts). Without statistics on that expression PostgreSQL guesses it keeps
-- half a percent of the rows, so a team's count over the organization's invoices (invoice metrics
-- with a team scope, the team form's live count) sorted tens of thousands of rows for a group of one
-- per currency instead of hashing them (docs/benchmarks.md, "bench:web, session 17 (perf)").
CREATE STATISTICS "invoices_lower_currency_code_stats" ON (lower("currency_code")) FROM "invoices";
ANALYZE "invoices";
