import type { Db } from '../db/client.js';
import type { Party } from '../invoices/parsing/model.js';
import { matchInvoice, partyKeys, type AgreementFacts, type Applicability, type InvoiceFacts, type PartyFacts } from './rules.js';

// Recomputes the matches of the given invoices against every agreement of the organization and
// writes the difference: new matches, returning matches (restored), ended matches. Idempotent.

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

async function agreementFacts(db: Db, organizationId: string): Promise<{ id: string; facts: AgreementFacts }[]> {
  const agreements = await db.agreement.findMany({
    where: { organizationId, status: { not: 'archived' } },
    include: { suppliers: true, recipients: true },
  });
  const supplierIds = [...new Set(agreements.flatMap((a) => a.suppliers.map((s) => s.supplierId)))];
  const recipientIds = [...new Set(agreements.flatMap((a) => a.recipients.map((r) => r.recipientId)))];
  const [suppliers, recipients] = await Promise.all([
    db.supplier.findMany({ where: { id: { in: supplierIds } } }),
    db.recipient.findMany({ where: { id: { in: recipientIds } } }),
  ]);
  const partyOf = (rows: typeof suppliers, id: string): PartyFacts => {
    const row = rows.find((r) => r.id === id);
    return { id, name: row?.name ?? null, orgNumber: row?.orgNumber ?? null, vatId: row?.vatId ?? null };
  };
  return agreements.map((agreement) => ({
    id: agreement.id,
    facts: {
      status: agreement.status,
      suppliers: agreement.suppliers.map((s) => partyOf(suppliers, s.supplierId)),
      recipients: agreement.recipients.map((r) => partyOf(recipients, r.recipientId)),
      effectiveDate: day(agreement.effectiveDate),
      expirationDate: day(agreement.expirationDate),
      applicability: agreement.applicability as Applicability | null,
    },
  }));
}

function partyFacts(id: string | null, party: unknown): PartyFacts {
  const p = party as Party | null;
  return { id, name: p?.name ?? p?.legalName ?? null, orgNumber: p?.orgNumber ?? null, vatId: p?.vatId ?? null };
}

type AgreementEntry = Awaited<ReturnType<typeof agreementFacts>>[number];

// Only agreements naming a supplier that shares a key with the invoice's can match (partyKeys),
// so each invoice is tried against its supplier's few agreements rather than all of them.
function agreementsBySupplier(agreements: AgreementEntry[], smart: boolean): (supplier: PartyFacts) => Set<AgreementEntry> {
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

export interface RefreshResult {
  invoices: number;
  matches: number;
  ended: number;
}

export async function refreshInvoiceMatches(db: Db, organizationId: string, invoiceIds: string[]): Promise<RefreshResult> {
  const [organization, agreements, invoices, existing] = await Promise.all([
    db.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { smartMatching: true } }),
    agreementFacts(db, organizationId),
    db.invoice.findMany({ where: { organizationId, id: { in: invoiceIds } } }),
    db.invoiceAgreementMatch.findMany({ where: { organizationId, invoiceId: { in: invoiceIds } } }),
  ]);
  const wanted = new Map<string, { invoiceId: string; agreementId: string; reasons: string[] }>();
  const candidatesFor = agreementsBySupplier(agreements, organization.smartMatching);
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
      const verdict = matchInvoice(facts, agreement.facts, { smartMatching: organization.smartMatching });
      if (verdict.matched) wanted.set(`${invoice.id}:${agreement.id}`, { invoiceId: invoice.id, agreementId: agreement.id, reasons: verdict.reasons });
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
  const writes = [
    // A concurrent refresh may have created the same match meanwhile; it computed the same thing.
    ...(toCreate.length === 0 ? [] : [db.invoiceAgreementMatch.createMany({ data: toCreate.map((m) => ({ ...m, organizationId })), skipDuplicates: true })]),
    ...toRestore.map(([, m]) =>
      db.invoiceAgreementMatch.updateMany({ where: { invoiceId: m.invoiceId, agreementId: m.agreementId }, data: { active: true, endedAt: null, reasons: m.reasons } }),
    ),
    ...(toEnd.length === 0
      ? []
      : [
          db.invoiceAgreementMatch.updateMany({
            where: { organizationId, OR: toEnd.map((m) => ({ invoiceId: m.invoiceId, agreementId: m.agreementId })), active: true },
            data: { active: false, endedAt: now },
          }),
        ]),
  ];
  if (writes.length > 0) await db.$transaction(writes);
  return { invoices: invoices.length, matches: wanted.size, ended: toEnd.length };
}

export const REFRESH_BATCH_SIZE = 500;
