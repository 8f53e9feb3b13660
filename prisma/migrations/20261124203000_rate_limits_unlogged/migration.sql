-- Every API request spends its credential's budget with an upsert into rate_limits. In a logged
-- table that upsert waits for its WAL to reach disk (0.5 ms on the reference machine, the largest
-- part of a request's fixed cost); in an unlogged one it commits without a WAL flush (0.1 ms).
-- What is given up is only the counters themselves after a database crash: budgets start over.
-- Prisma's schema cannot say UNLOGGED and its diff does not see it (model RateLimit).
ALTER TABLE "rate_limits" SET UNLOGGED;
