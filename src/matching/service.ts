import { recordActivity, systemActor, type ActivityEntryInput, type Actor } from '../activity/record.js';
import type { Db } from '../db/client.js';
import { batchesOf, inBatches } from '../shared/batches.js';
import type { Party } from '../invoices/parsing/model.js';
import {
  matchInvoice,
  partyKeys,
  type AgreementFacts,
  type Applicability,
  type InvoiceFacts,
  type PartyFacts,
} from './rules.js';

// Recomputes the matches of the given invoices against every agreement of the organization and
// writes the difference: new matches, returning matches (restored), ended matches. Idempotent.

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

interface AgreementEntry {
  id: string;
  facts: AgreementFacts;
}

// Whether the organization matches smartly, and every live agreement of it with the parties it
// names, in one statement (a single-invoice refresh runs after every import, so its round trips
// count).
async function matchingContext(
  db: Db,
  organizationId: string,
): Promise<{ smartMatching: boolean; agreements: AgreementEntry[] }> {
  const rows = await db.$queryRaw<
    {
      smart_matching: boolean;
      id: string | null;
      status: AgreementFacts['status'];
      effective_date: string | null;
      expiration_date: string | null;
      applicability: Applicability | null;
      suppliers: PartyFacts[];
      recipients: PartyFacts[];
    }[]
  >`
    SELECT o.smart_matching, a.id, a.status::text AS status, to_char(a.effective_date, 'YYYY-MM-DD') AS effective_date,
           to_char(a.expiration_date, 'YYYY-MM-DD') AS expiration_date, a.applicability,
           COALESCE((SELECT json_agg(json_build_object('id', x.supplier_id, 'name', s.name, 'orgNumber', s.org_number, 'vatId', s.vat_id))
                       FROM agreement_suppliers x LEFT JOIN suppliers s ON s.id = x.supplier_id
                      WHERE x.agreement_id = a.id), '[]') AS suppliers,
           COALESCE((SELECT json_agg(json_build_object('id', y.recipient_id, 'name', r.name, 'orgNumber', r.org_number, 'vatId', r.vat_id))
                       FROM agreement_recipients y LEFT JOIN recipients r ON r.id = y.recipient_id
                      WHERE y.agreement_id = a.id), '[]') AS recipients
      FROM organizations o
      LEFT JOIN agreements a ON a.organization_id = o.id AND a.status <> 'archived'
     WHERE o.id = ${organizationId}::uuid`;
  if (rows.length === 0) throw new Error(`organization ${organizationId} does not exist`);
  const agreements = rows.flatMap((row) =>
    row.id === null
      ? []
      : [
          {
            id: row.id,
            facts: {
              status: row.status,
              suppliers: row.suppliers,
              recipients: row.recipients,
              effectiveDate: row.effective_date,
              expirationDate: row.expiration_date,
              applicability: row.applicability,
            },
          },
        ],
  );
  return { smartMatching: rows[0]!.smart_matching, agreements };
}

function partyFacts(id: string | null, party: unknown): PartyFacts {
  const p = party as Party | null;
  return { id, name: p?.name ?? p?.legalName ?? null, orgNumber: p?.orgNumber ?? null, vatId: p?.vatId ?? null };
}

// Only agreements naming a supplier that shares a key with the invoice's can match (partyKeys),
// so each invoice is tried against its supplier's few agreements rather than all of them.
function agreementsBySupplier(
  agreements: AgreementEntry[],
  smart: boolean,
): (supplier: PartyFacts) => Set<AgreementEntry> {
  const index = new Map<string, AgreementEntry[]>();
  for (const agreement of agreements) {
    for (const key of agreement.facts.suppliers.flatMap((supplier) => partyKeys(supplier, smart))) {
      const listed = index.get(key);
      if (listed) listed.push(agreement);
      else index.set(key, [agreement]);
    }
  }
  return (supplier) => new Set(partyKeys(supplier, smart).flatMap((key) => index.get(key) ?? []));
}

// What the rules read of an invoice.
const MATCHED_INVOICE_FIELDS = {
  id: true,
  deletedAt: true,
  processingStatus: true,
  supplierId: true,
  supplierParty: true,
  recipientId: true,
  recipientParty: true,
  issueDate: true,
  currencyCode: true,
  buyerReference: true,
  orderReference: true,
  contractReference: true,
  deliveryCountryCode: true,
} as const;

export interface RefreshResult {
  invoices: number;
  matches: number;
  ended: number;
}

// Matches made, changed or ended are recorded on the invoice and on the agreement (docs/activity.md)
// as the work of `actor` (the matching or import run), in the transaction that writes them.
function matchEntries(
  invoiceId: string,
  agreementId: string,
  action: 'matched' | 'match_updated' | 'unmatched',
  before: string[] | null,
  after: string[] | null,
): ActivityEntryInput[] {
  const [was, is] = action === 'matched' ? [false, true] : action === 'unmatched' ? [true, false] : [true, true];
  const side = (id: string) => ({ before: was ? id : null, after: is ? id : null });
  const reasons = { before, after };
  return [
    {
      entityType: 'invoice',
      entityId: invoiceId,
      action: `agreement_${action}`,
      changes: { agreement_id: side(agreementId), reasons },
    },
    {
      entityType: 'agreement',
      entityId: agreementId,
      action: `invoice_${action}`,
      changes: { invoice_id: side(invoiceId), reasons },
    },
  ];
}

export async function refreshInvoiceMatches(
  db: Db,
  organizationId: string,
  invoiceIds: string[],
  actor: Actor = systemActor(null),
): Promise<RefreshResult> {
  const [{ smartMatching, agreements }, invoices, existing] = await Promise.all([
    matchingContext(db, organizationId),
    inBatches(invoiceIds, (ids) =>
      db.invoice.findMany({ where: { organizationId, id: { in: ids } }, select: MATCHED_INVOICE_FIELDS }),
    ),
    inBatches(invoiceIds, (ids) =>
      db.invoiceAgreementMatch.findMany({ where: { organizationId, invoiceId: { in: ids } } }),
    ),
  ]);
  const wanted = new Map<string, { invoiceId: string; agreementId: string; reasons: string[] }>();
  const candidatesFor = agreementsBySupplier(agreements, smartMatching);
  for (const invoice of invoices) {
    // Only processed, live invoices fall under agreements.
    if (invoice.deletedAt || invoice.processingStatus !== 'completed') continue;
    const facts: InvoiceFacts = {
      supplier: partyFacts(invoice.supplierId, invoice.supplierParty),
      recipient: partyFacts(invoice.recipientId, invoice.recipientParty),
      issueDate: day(invoice.issueDate),
      currencyCode: invoice.currencyCode,
      buyerReference: invoice.buyerReference,
      orderReference: invoice.orderReference,
      contractReference: invoice.contractReference,
      deliveryCountryCode: invoice.deliveryCountryCode,
    };
    for (const agreement of candidatesFor(facts.supplier)) {
      const verdict = matchInvoice(facts, agreement.facts, { smartMatching });
      if (verdict.matched)
        wanted.set(`${invoice.id}:${agreement.id}`, {
          invoiceId: invoice.id,
          agreementId: agreement.id,
          reasons: verdict.reasons,
        });
    }
  }
  const now = new Date();
  const current = new Map(existing.map((m) => [`${m.invoiceId}:${m.agreementId}`, m]));
  const toEnd = existing.filter((m) => m.active && !wanted.has(`${m.invoiceId}:${m.agreementId}`));
  // Writes only the difference, new matches in one statement: a refresh of thousands of
  // unchanged matches must not cost a statement each.
  const toCreate = [...wanted.entries()].filter(([key]) => !current.has(key)).map(([, m]) => m);
  const toRestore = [...wanted.entries()].filter(([key, m]) => {
    const row = current.get(key);
    return row !== undefined && (!row.active || row.reasons.join('\n') !== m.reasons.join('\n'));
  });
  const entries: ActivityEntryInput[] = [
    ...toCreate.flatMap((m) => matchEntries(m.invoiceId, m.agreementId, 'matched', null, m.reasons)),
    ...toRestore.flatMap(([key, m]) => {
      const row = current.get(key)!;
      return row.active
        ? matchEntries(m.invoiceId, m.agreementId, 'match_updated', row.reasons, m.reasons)
        : matchEntries(m.invoiceId, m.agreementId, 'matched', null, m.reasons);
    }),
    ...toEnd.flatMap((m) => matchEntries(m.invoiceId, m.agreementId, 'unmatched', m.reasons, null)),
  ];
  if (entries.length === 0) return { invoices: invoices.length, matches: wanted.size, ended: toEnd.length };
  await db.$transaction(async (tx) => {
    // A concurrent refresh may have created the same match meanwhile; it computed the same thing.
    // Rows a chunk at a time: one bind parameter per value would hit PostgreSQL's 65,535.
    for (const rows of batchesOf(toCreate, 5_000))
      await tx.invoiceAgreementMatch.createMany({
        data: rows.map((m) => ({ ...m, organizationId })),
        skipDuplicates: true,
      });
    for (const [, m] of toRestore) {
      await tx.invoiceAgreementMatch.updateMany({
        where: { invoiceId: m.invoiceId, agreementId: m.agreementId },
        data: { active: true, endedAt: null, reasons: m.reasons },
      });
    }
    if (toEnd.length > 0) {
      // The pairs as two array parameters: one bind parameter per pair would hit PostgreSQL's limit.
      await tx.$executeRaw`
        UPDATE invoice_agreement_matches SET active = false, ended_at = ${now}
         WHERE organization_id = ${organizationId}::uuid AND active
           AND (invoice_id, agreement_id) IN (SELECT * FROM unnest(${toEnd.map((m) => m.invoiceId)}::uuid[], ${toEnd.map((m) => m.agreementId)}::uuid[]))`;
    }
    await recordActivity(tx, organizationId, actor, entries);
  });
  return { invoices: invoices.length, matches: wanted.size, ended: toEnd.length };
}

export const REFRESH_BATCH_SIZE = 500;
