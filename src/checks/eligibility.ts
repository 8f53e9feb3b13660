import type { Invoice } from '../generated/prisma/client.js';
import type { Db } from '../db/client.js';
import { inBatches } from '../shared/batches.js';
import { readinessOf, withLinks, type AgreementWithLinks } from '../agreements/service.js';

// Which (invoice, agreement) pairs a check may run on, exactly as the interface specification
// puts it: the invoice is imported, has its original document, is not a credit note and is not
// credited by one; the agreement is active with a title, a supplier, usable terms and processed
// documents; the pair is actively matched and not held by an open claim (an alert of the pair
// in a pending or in-progress claim: what the supplier is being asked to pay back must not
// change under the claim).

export type InvoiceExclusion =
  'invoice_not_imported' | 'no_original_document' | 'credit_note' | 'credited_by_credit_note' | 'deleted';
export type AgreementExclusion = 'agreement_not_ready';
export type PairHeldExclusion = 'held_by_open_claim';

export interface EligibilityInvoice {
  id: string;
  processingStatus: Invoice['processingStatus'];
  classification: string | null;
  documentType: Invoice['documentType'];
  primaryDocumentId: string | null;
  deletedAt: Date | null;
  creditedByCount: number;
}

export function invoiceExclusion(invoice: EligibilityInvoice): InvoiceExclusion | null {
  if (invoice.deletedAt) return 'deleted';
  if (invoice.processingStatus !== 'completed' || invoice.classification === 'not_invoice')
    return 'invoice_not_imported';
  if (!invoice.primaryDocumentId) return 'no_original_document';
  if (invoice.documentType === 'credit_note') return 'credit_note';
  if (invoice.creditedByCount > 0) return 'credited_by_credit_note';
  return null;
}

export function agreementExclusion(
  agreement: AgreementWithLinks,
): { reason: AgreementExclusion; missing: string[] } | null {
  const readiness = readinessOf(agreement);
  return readiness.ready ? null : { reason: 'agreement_not_ready', missing: readiness.missing };
}

export interface CheckPair {
  invoiceId: string;
  agreementId: string;
}

export interface PairExclusion extends CheckPair {
  reason: InvoiceExclusion | AgreementExclusion | PairHeldExclusion;
  detail?: string[];
}

export interface Eligibility {
  eligible: CheckPair[];
  excluded: PairExclusion[];
}

const ELIGIBILITY_SELECT = {
  id: true,
  processingStatus: true,
  classification: true,
  documentType: true,
  primaryDocumentId: true,
  deletedAt: true,
} as const;

export async function loadEligibilityInvoices(
  db: Db,
  organizationId: string,
  invoiceIds: string[],
): Promise<EligibilityInvoice[]> {
  const [invoices, credited] = await Promise.all([
    inBatches(invoiceIds, (ids) =>
      db.invoice.findMany({ where: { organizationId, id: { in: ids } }, select: ELIGIBILITY_SELECT }),
    ),
    inBatches(invoiceIds, (ids) =>
      db.invoice.groupBy({
        by: ['creditedInvoiceId'],
        where: { organizationId, creditedInvoiceId: { in: ids }, deletedAt: null, documentType: 'credit_note' },
        _count: { _all: true },
      }),
    ),
  ]);
  const creditCounts = new Map(credited.map((row) => [row.creditedInvoiceId, row._count._all]));
  return invoices.map((invoice) => ({ ...invoice, creditedByCount: creditCounts.get(invoice.id) ?? 0 }));
}

// Splits the active matches of the given invoices (optionally limited to some agreements) into
// pairs a check may run on and pairs it may not, with the reason.
export async function pairEligibility(
  db: Db,
  organizationId: string,
  invoiceIds: string[],
  agreementIds?: string[],
): Promise<Eligibility> {
  // Batches in invoice order, each ordered by (invoice, agreement): the whole list keeps that order.
  const sortedIds = [...new Set(invoiceIds)].sort();
  const matches = await inBatches(sortedIds, (ids) =>
    db.invoiceAgreementMatch.findMany({
      where: {
        organizationId,
        active: true,
        invoiceId: { in: ids },
        ...(agreementIds ? { agreementId: { in: agreementIds } } : {}),
      },
      select: { invoiceId: true, agreementId: true },
      orderBy: [{ invoiceId: 'asc' }, { agreementId: 'asc' }],
    }),
  );
  if (matches.length === 0) return { eligible: [], excluded: [] };
  const matchedInvoiceIds = [...new Set(matches.map((m) => m.invoiceId))];
  const [invoices, agreements, held] = await Promise.all([
    loadEligibilityInvoices(db, organizationId, matchedInvoiceIds),
    inBatches([...new Set(matches.map((m) => m.agreementId))], (ids) =>
      db.agreement.findMany({ where: { organizationId, id: { in: ids } } }),
    ).then((rows) => withLinks(db, rows)),
    pairsHeldByOpenClaims(db, organizationId, matchedInvoiceIds),
  ]);
  const invoiceReasons = new Map(invoices.map((i) => [i.id, invoiceExclusion(i)]));
  const agreementReasons = new Map(agreements.map((a) => [a.id, agreementExclusion(a)]));
  const result: Eligibility = { eligible: [], excluded: [] };
  for (const pair of matches) {
    // An invoice the query did not find was permanently removed meanwhile.
    const invoiceReason = invoiceReasons.has(pair.invoiceId) ? invoiceReasons.get(pair.invoiceId)! : 'deleted';
    const agreementReason = agreementReasons.get(pair.agreementId) ?? null;
    if (invoiceReason) result.excluded.push({ ...pair, reason: invoiceReason });
    else if (held.has(pairKey(pair))) result.excluded.push({ ...pair, reason: 'held_by_open_claim' });
    else if (agreementReason)
      result.excluded.push({ ...pair, reason: agreementReason.reason, detail: agreementReason.missing });
    else result.eligible.push(pair);
  }
  return result;
}

const pairKey = (pair: CheckPair) => `${pair.invoiceId}:${pair.agreementId}`;

// Pairs of these invoices with an alert in a pending or in-progress claim.
async function pairsHeldByOpenClaims(db: Db, organizationId: string, invoiceIds: string[]): Promise<Set<string>> {
  const rows = await inBatches(invoiceIds, (ids) =>
    db.alert.findMany({
      where: { organizationId, invoiceId: { in: ids }, claim: { status: { in: ['pending', 'in_progress'] } } },
      select: { invoiceId: true, agreementId: true },
      distinct: ['invoiceId', 'agreementId'],
    }),
  );
  return new Set(rows.map(pairKey));
}
