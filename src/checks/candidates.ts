import { Prisma, type Db } from '../db/client.js';
import { pairEligibility, type CheckPair, type PairExclusion } from './eligibility.js';

// The (invoice, agreement) pairs a bulk check would run on. `outstanding` leaves out pairs whose
// latest finished check is completed and current (neither side changed since); `again` takes
// every matched pair. Eligibility (eligibility.ts) then removes what cannot be checked at all.

export type CandidateMode = 'outstanding' | 'again';

export interface CandidateQuery {
  agreementIds: string[];
  mode: CandidateMode;
  invoiceIds?: string[];
  issuedFrom?: string;
  issuedThrough?: string;
  topicId?: string;
  // Only these exact pairs (e.g. a previous run's unfinished items).
  pairs?: CheckPair[];
}

export interface CandidatePage {
  eligible: CheckPair[];
  excluded: PairExclusion[];
  hasMore: boolean;
}

const SCAN_BATCH = 2000;

function conditions(organizationId: string, query: CandidateQuery, after: CheckPair | null): Prisma.Sql[] {
  const parts = [
    Prisma.sql`m.organization_id = ${organizationId}::uuid`,
    Prisma.sql`m.active`,
    Prisma.sql`m.agreement_id = ANY(${query.agreementIds}::uuid[])`,
    Prisma.sql`i.deleted_at IS NULL`,
  ];
  if (query.invoiceIds) parts.push(Prisma.sql`m.invoice_id = ANY(${query.invoiceIds}::uuid[])`);
  if (query.issuedFrom) parts.push(Prisma.sql`i.issue_date >= ${query.issuedFrom}::date`);
  if (query.issuedThrough) parts.push(Prisma.sql`i.issue_date <= ${query.issuedThrough}::date`);
  if (query.topicId) {
    parts.push(
      Prisma.sql`EXISTS (SELECT 1 FROM alerts t WHERE t.invoice_id = m.invoice_id AND t.agreement_id = m.agreement_id AND t.topic_id = ${query.topicId}::uuid)`,
    );
  }
  if (query.pairs) {
    const invoiceIds = query.pairs.map((pair) => pair.invoiceId);
    const agreementIds = query.pairs.map((pair) => pair.agreementId);
    parts.push(
      Prisma.sql`(m.invoice_id, m.agreement_id) IN (SELECT * FROM unnest(${invoiceIds}::uuid[], ${agreementIds}::uuid[]))`,
    );
  }
  if (query.mode === 'outstanding') {
    parts.push(Prisma.sql`NOT EXISTS (
      SELECT 1 FROM compliance_checks c
       WHERE c.invoice_id = m.invoice_id AND c.agreement_id = m.agreement_id AND c.status = 'completed'
         AND c.invoice_version_at >= i.content_changed_at AND c.agreement_version_at >= a.terms_changed_at
         AND NOT EXISTS (SELECT 1 FROM compliance_checks f WHERE f.invoice_id = c.invoice_id AND f.agreement_id = c.agreement_id
                           AND f.status = 'failed' AND f.started_at > c.started_at))`);
  }
  if (after)
    parts.push(Prisma.sql`(m.agreement_id, m.invoice_id) > (${after.agreementId}::uuid, ${after.invoiceId}::uuid)`);
  return parts;
}

async function scan(
  db: Db,
  organizationId: string,
  query: CandidateQuery,
  after: CheckPair | null,
  limit: number,
): Promise<CheckPair[]> {
  const rows = await db.$queryRaw<{ invoice_id: string; agreement_id: string }[]>`
    SELECT m.invoice_id::text, m.agreement_id::text
      FROM invoice_agreement_matches m
      JOIN invoices i ON i.id = m.invoice_id
      JOIN agreements a ON a.id = m.agreement_id
     WHERE ${Prisma.join(conditions(organizationId, query, after), ' AND ')}
     ORDER BY m.agreement_id, m.invoice_id
     LIMIT ${limit}`;
  return rows.map((row) => ({ invoiceId: row.invoice_id, agreementId: row.agreement_id }));
}

// Up to `limit` eligible pairs in (agreement, invoice) order; `hasMore` when more remain.
export async function candidatePairs(
  db: Db,
  organizationId: string,
  query: CandidateQuery,
  limit: number,
): Promise<CandidatePage> {
  const page: CandidatePage = { eligible: [], excluded: [], hasMore: false };
  let after: CheckPair | null = null;
  for (;;) {
    const batch = await scan(db, organizationId, query, after, SCAN_BATCH);
    if (batch.length === 0) return page;
    for (const agreementId of new Set(batch.map((pair) => pair.agreementId))) {
      const invoiceIds = batch.filter((pair) => pair.agreementId === agreementId).map((pair) => pair.invoiceId);
      const eligibility = await pairEligibility(db, organizationId, invoiceIds, [agreementId]);
      page.excluded.push(...eligibility.excluded);
      for (const pair of eligibility.eligible) {
        if (page.eligible.length === limit) {
          page.hasMore = true;
          return page;
        }
        page.eligible.push(pair);
      }
    }
    if (batch.length < SCAN_BATCH) return page;
    after = batch[batch.length - 1]!;
  }
}
