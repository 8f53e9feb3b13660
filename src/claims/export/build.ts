import { Decimal } from 'decimal.js';
import { batchesOf, inBatches } from '../../shared/batches.js';
import type { Db } from '../../db/client.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { errors } from '../../http/errors.js';
import { formatAmount, formatDecimal } from '../../shared/money.js';
import { countedAlertsWhere } from '../summary.js';
import type { ClaimLetter, ClaimLetterLine, ClaimLetterParty, ClaimLetterTotal } from './letter.js';

// Builds the letter a supplier receives from the database: the claim's claimed alerts always;
// with include_pending, the pending alerts of the claim's invoices (same agreement) that no
// claim holds; with include_credited, the claim's credited alerts and the credited alerts of its
// invoices no claim holds. Totals count the claimed lines only; refunds are the claim's.

export interface LetterOptions {
  includePending: boolean;
  includeCredited: boolean;
  now?: Date;
  // The most lines the letter may have; beyond it TooManyLetterLines is thrown before any line
  // is loaded (only alert ids, at most maxLines + 1 of them, are read to tell).
  maxLines?: number;
}

export class TooManyLetterLines extends Error {
  constructor(readonly maxLines: number) {
    super(`the claim's letter has more than ${maxLines} lines`);
    this.name = 'TooManyLetterLines';
  }
}

const isoDate = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

type AddressJson = {
  lines?: unknown;
  street?: unknown;
  city?: unknown;
  postalCode?: unknown;
  postal_code?: unknown;
  countryCode?: unknown;
  country_code?: unknown;
} | null;

// Address lines as recorded (parsed invoices store {lines, city, postalCode, countryCode}).
function addressLines(address: AddressJson): string[] {
  if (!address || typeof address !== 'object') return [];
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);
  const lines = Array.isArray(address.lines)
    ? address.lines.map(text).filter((l): l is string => l !== null)
    : [text(address.street)].filter((l): l is string => l !== null);
  const city = [text(address.postalCode) ?? text(address.postal_code), text(address.city)].filter(Boolean).join(' ');
  if (city) lines.push(city);
  const country = text(address.countryCode) ?? text(address.country_code);
  if (country) lines.push(country);
  return lines;
}

interface PriceEntry {
  description?: string | null;
  unit?: string | null;
  currency_code?: string | null;
  price?: { type?: string; amount?: string; fraction?: string; basis?: string };
}

interface CitationEntry {
  source_ref?: number;
  citation?: { source?: { source_type?: string }; quote?: string | null };
}

// What was agreed, in words: the expected price entry, else the quoted passages.
function citationText(expected: PriceEntry[] | null, citations: CitationEntry[] | null): string | null {
  const first = expected?.[0];
  if (first?.price?.type === 'amount' && first.price.amount) {
    const what = first.description ? `"${first.description}": ` : '';
    const per = first.unit ? ` per ${first.unit}` : '';
    return `Agreed price ${what}${first.price.amount}${first.currency_code ? ` ${first.currency_code}` : ''}${per}`;
  }
  if (first?.price?.type === 'rate' && first.price.fraction)
    return `Agreed rate ${first.price.fraction} of ${first.price.basis ?? 'the basis'}`;
  const quotes = (citations ?? []).map((c) => c.citation?.quote?.trim()).filter((q): q is string => Boolean(q));
  return quotes.length > 0 ? quotes.map((q) => `"${q}"`).join(' ') : null;
}

function agreedUnitPrice(expected: PriceEntry[] | null): string | null {
  const first = expected?.[0];
  return first?.price?.type === 'amount' && first.price.amount ? first.price.amount : null;
}

const LINE_SELECT = {
  id: true,
  status: true,
  title: true,
  explanation: true,
  impactAmount: true,
  currencyCode: true,
  expected: true,
  citations: true,
  invoiceId: true,
  invoiceLineId: true,
  match: { select: { invoice: { select: { invoiceNumber: true, issueDate: true, currencyCode: true } } } },
} satisfies Prisma.AlertSelect;

export async function buildClaimLetter(
  db: Db,
  organizationId: string,
  claimId: string,
  options: LetterOptions,
): Promise<ClaimLetter> {
  const claim = await db.claim.findFirst({
    where: { id: claimId, organizationId },
    include: { refunds: { orderBy: [{ date: 'asc' }, { createdAt: 'asc' }] } },
  });
  if (!claim) throw errors.notFound('claim');
  const [organization, supplier, agreement] = await Promise.all([
    db.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { name: true } }),
    claim.supplierId ? db.supplier.findFirst({ where: { id: claim.supplierId, organizationId } }) : null,
    db.agreement.findUniqueOrThrow({
      where: { id: claim.agreementId },
      select: { id: true, title: true, effectiveDate: true, expirationDate: true },
    }),
  ]);

  const statuses: ('claimed' | 'credited')[] = options.includeCredited ? ['claimed', 'credited'] : ['claimed'];
  // Ids first, then the lines with their invoices in batches: Prisma loads a relation with one
  // bind parameter per parent row, past PostgreSQL's 65,535 on a claim of many invoices.
  const limit = options.maxLines ?? Number.MAX_SAFE_INTEGER;
  const tooMany = (count: number) => {
    if (count > limit) throw new TooManyLetterLines(limit);
  };
  const ownRows = await db.alert.findMany({
    where: { claimId: claim.id, status: { in: statuses }, ...countedAlertsWhere },
    select: { id: true, invoiceId: true },
    orderBy: { id: 'asc' },
    ...(options.maxLines !== undefined ? { take: limit + 1 } : {}),
  });
  tooMany(ownRows.length);
  const ownIds = ownRows.map((a) => a.id);
  const invoiceIds = [...new Set(ownRows.map((a) => a.invoiceId))];
  const otherStatuses = [
    ...(options.includePending ? ['pending' as const] : []),
    ...(options.includeCredited ? ['credited' as const] : []),
  ];
  // Alerts of the same invoices no (live) claim holds: open findings and earlier credits. Their
  // ids first, counted against the limit batch by batch, then their lines.
  const otherIds: string[] = [];
  if (otherStatuses.length > 0) {
    for (const ids of batchesOf(invoiceIds)) {
      const found = await db.alert.findMany({
        where: {
          organizationId,
          agreementId: claim.agreementId,
          invoiceId: { in: ids },
          status: { in: otherStatuses },
          OR: [{ claimId: null }, { claim: { status: 'cancelled' } }],
          ...countedAlertsWhere,
        },
        select: { id: true },
        ...(options.maxLines !== undefined ? { take: limit - ownIds.length - otherIds.length + 1 } : {}),
      });
      otherIds.push(...found.map((a) => a.id));
      tooMany(ownIds.length + otherIds.length);
    }
  }
  const own = await inBatches(ownIds, (ids) =>
    db.alert.findMany({ where: { id: { in: ids } }, select: LINE_SELECT, orderBy: { id: 'asc' } }),
  );
  const others = await inBatches(otherIds, (ids) =>
    db.alert.findMany({ where: { id: { in: ids } }, select: LINE_SELECT }),
  );
  const alerts = [...own, ...others];
  const lineIds = alerts.map((a) => a.invoiceLineId).filter((id): id is string => id !== null);
  const invoiceLines = new Map(
    (await inBatches(lineIds, (ids) => db.invoiceLine.findMany({ where: { id: { in: ids } } }))).map((l) => [l.id, l]),
  );

  const lines: ClaimLetterLine[] = alerts.map((alert) => {
    const line = alert.invoiceLineId ? invoiceLines.get(alert.invoiceLineId) : undefined;
    const difference = formatAmount(alert.impactAmount)!;
    const chargedAmount = formatAmount(line?.netAmount ?? null);
    const expected = alert.expected as PriceEntry[] | null;
    return {
      alertId: alert.id,
      alertStatus: alert.status,
      invoiceId: alert.invoiceId,
      invoiceNumber: alert.match.invoice.invoiceNumber ?? '',
      issueDate: isoDate(alert.match.invoice.issueDate),
      // Positions count from 0; an invoice prints lines from 1.
      lineReference: line ? (line.lineNumber ?? String(line.position + 1)) : null,
      description: line?.description ?? null,
      quantity: formatDecimal(line?.quantity ?? null),
      unit: line?.unitCode ?? null,
      chargedUnitPrice: formatDecimal(line?.unitPrice ?? null),
      agreedUnitPrice: line ? agreedUnitPrice(expected) : null,
      chargedAmount,
      // What the line would have cost as agreed: the charge less the alert's difference.
      agreedAmount: chargedAmount !== null ? formatAmount(new Decimal(chargedAmount).minus(difference)) : null,
      difference,
      currencyCode: alert.currencyCode ?? alert.match.invoice.currencyCode ?? '',
      title: alert.title,
      explanation: alert.explanation,
      citation: citationText(expected, alert.citations as CitationEntry[] | null),
    };
  });
  lines.sort(
    (a, b) =>
      (a.issueDate ?? '').localeCompare(b.issueDate ?? '') ||
      a.invoiceNumber.localeCompare(b.invoiceNumber) ||
      compareLineReference(a.lineReference, b.lineReference) ||
      a.alertId.localeCompare(b.alertId),
  );

  return {
    reference: claim.reference,
    title: claim.title,
    status: claim.status,
    createdAt: claim.createdAt.toISOString(),
    generatedAt: (options.now ?? new Date()).toISOString(),
    organization: { name: organization.name, organizationNumber: null, vatId: null, address: [] },
    supplier: supplierParty(supplier),
    supplierContact:
      claim.supplierContactName !== null || claim.supplierContactEmail !== null
        ? { name: claim.supplierContactName, email: claim.supplierContactEmail }
        : null,
    agreement: {
      id: agreement.id,
      title: agreement.title ?? '',
      startDate: isoDate(agreement.effectiveDate),
      endDate: isoDate(agreement.expirationDate),
    },
    note: claim.note,
    lines,
    totals: totalsOf(lines, claim.refunds),
    refunds: claim.refunds.map((r) => ({
      date: isoDate(r.date)!,
      amount: formatAmount(r.amount)!,
      currencyCode: r.currencyCode,
      reference: r.reference,
    })),
  };
}

// Whole-invoice lines (no reference) first, then numeric references in number order.
function compareLineReference(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a.localeCompare(b, 'en', { numeric: true });
}

function supplierParty(
  supplier: { name: string; orgNumber: string | null; vatId: string | null; address: unknown } | null,
): ClaimLetterParty {
  if (!supplier) return { name: '', organizationNumber: null, vatId: null, address: [] };
  return {
    name: supplier.name,
    organizationNumber: supplier.orgNumber,
    vatId: supplier.vatId,
    address: addressLines(supplier.address as AddressJson),
  };
}

// Per currency: the claimed lines' differences, the refunds received, and what is outstanding.
function totalsOf(
  lines: ClaimLetterLine[],
  refunds: { currencyCode: string; amount: { toString(): string } }[],
): ClaimLetterTotal[] {
  const claimed = new Map<string, Decimal>();
  const refunded = new Map<string, Decimal>();
  for (const line of lines) {
    if (line.alertStatus !== 'claimed') continue;
    claimed.set(line.currencyCode, (claimed.get(line.currencyCode) ?? new Decimal(0)).plus(line.difference));
  }
  for (const refund of refunds)
    refunded.set(
      refund.currencyCode,
      (refunded.get(refund.currencyCode) ?? new Decimal(0)).plus(refund.amount.toString()),
    );
  const currencies = [...new Set([...claimed.keys(), ...refunded.keys()])].sort();
  return currencies.map((currency) => {
    const claim = claimed.get(currency) ?? new Decimal(0);
    const refund = refunded.get(currency) ?? new Decimal(0);
    // What is still owed: never below zero (a refund beyond the claim leaves nothing outstanding).
    return {
      currencyCode: currency,
      claimed: formatAmount(claim)!,
      refunded: formatAmount(refund)!,
      outstanding: formatAmount(Decimal.max(claim.minus(refund), 0))!,
    };
  });
}
