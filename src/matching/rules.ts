// Whether an invoice falls under an agreement, and why. Pure: records in, a verdict out.
// The rules are documented in docs/matching.md.

export interface PartyFacts {
  id: string | null;
  name: string | null;
  orgNumber: string | null;
  vatId: string | null;
}

export interface InvoiceFacts {
  supplier: PartyFacts;
  recipient: PartyFacts;
  issueDate: string | null;
  currencyCode: string | null;
  buyerReference: string | null;
  orderReference: string | null;
  contractReference: string | null;
  deliveryCountryCode: string | null;
}

export interface Applicability {
  buyer_references?: string[];
  order_reference_prefixes?: string[];
  contract_references?: string[];
  delivery_country_codes?: string[];
  currency_codes?: string[];
}

export interface AgreementFacts {
  status: 'draft' | 'active' | 'archived';
  suppliers: PartyFacts[];
  recipients: PartyFacts[];
  effectiveDate: string | null;
  expirationDate: string | null;
  applicability: Applicability | null;
}

export type Verdict = { matched: true; reasons: string[] } | { matched: false; reason: string };

// Legal-form words that differ between how a supplier writes its name and how we saved it.
const LEGAL_FORMS =
  /\b(as|asa|ab|oy|oyj|aps|a\/s|gmbh|ag|ltd|limited|inc|llc|plc|bv|nv|sa|sarl|srl|co|company|corp|corporation)\b\.?/g;

export function comparableName(name: string | null): string | null {
  if (!name) return null;
  const cleaned = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(LEGAL_FORMS, ' ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  return cleaned || null;
}

const squashed = (identifier: string) => identifier.replace(/\s/g, '').toUpperCase();
const same = (a: string | null, b: string | null) => a !== null && b !== null && squashed(a) === squashed(b);

// The keys partyMatch compares: a party can match a candidate only if they share one. Lets a
// caller index many agreements by supplier instead of trying every agreement on every invoice.
export function partyKeys(party: PartyFacts, smart: boolean): string[] {
  const keys = party.id ? [`id:${party.id}`] : [];
  if (!smart) return keys;
  if (party.orgNumber !== null) keys.push(`org:${squashed(party.orgNumber)}`);
  if (party.vatId !== null) keys.push(`vat:${squashed(party.vatId)}`);
  const name = comparableName(party.name);
  if (name) keys.push(`name:${name}`);
  return keys;
}

// The linked record first; with smart matching, the identifiers and name on the invoice too.
function partyMatch(party: PartyFacts, candidates: PartyFacts[], smart: boolean, role: string): string | null {
  for (const candidate of candidates) {
    if (party.id && party.id === candidate.id) return `${role} is ${candidate.name ?? candidate.id}`;
  }
  if (!smart) return null;
  for (const candidate of candidates) {
    if (same(party.orgNumber, candidate.orgNumber))
      return `${role} identified by org number ${candidate.orgNumber} (smart matching)`;
    if (same(party.vatId, candidate.vatId)) return `${role} identified by VAT id ${candidate.vatId} (smart matching)`;
  }
  for (const candidate of candidates) {
    const name = comparableName(party.name);
    if (name && name === comparableName(candidate.name))
      return `${role} identified by its name "${party.name}" (smart matching)`;
  }
  return null;
}

function applicabilityProblem(invoice: InvoiceFacts, rules: Applicability | null): string | null {
  if (!rules) return null;
  const oneOf = (value: string | null, allowed: string[] | undefined, what: string) =>
    allowed && !(value !== null && allowed.some((a) => a.toLowerCase() === value.toLowerCase()))
      ? `${what} ${value ?? '(none)'} is not one the agreement covers`
      : null;
  const prefix =
    rules.order_reference_prefixes &&
    !(invoice.orderReference && rules.order_reference_prefixes.some((p) => invoice.orderReference!.startsWith(p)))
      ? `order reference ${invoice.orderReference ?? '(none)'} starts with none of the agreement's prefixes`
      : null;
  return (
    oneOf(invoice.buyerReference, rules.buyer_references, 'buyer reference') ??
    prefix ??
    oneOf(invoice.contractReference, rules.contract_references, 'contract reference') ??
    oneOf(invoice.deliveryCountryCode, rules.delivery_country_codes, 'delivery country') ??
    oneOf(invoice.currencyCode, rules.currency_codes, 'currency')
  );
}

export function matchInvoice(
  invoice: InvoiceFacts,
  agreement: AgreementFacts,
  options: { smartMatching: boolean },
): Verdict {
  if (agreement.status === 'archived') return { matched: false, reason: 'the agreement is archived' };
  if (agreement.suppliers.length === 0) return { matched: false, reason: 'the agreement names no supplier' };
  const supplier = partyMatch(invoice.supplier, agreement.suppliers, options.smartMatching, 'supplier');
  if (!supplier) return { matched: false, reason: "the invoice's supplier is not one of the agreement's" };
  const reasons = [supplier];
  if (agreement.recipients.length > 0) {
    const recipient = partyMatch(invoice.recipient, agreement.recipients, options.smartMatching, 'recipient');
    if (!recipient) return { matched: false, reason: "the invoice's recipient is not one of the agreement's" };
    reasons.push(recipient);
  }
  if (!invoice.issueDate) return { matched: false, reason: 'the invoice has no issue date' };
  if (agreement.effectiveDate && invoice.issueDate < agreement.effectiveDate)
    return { matched: false, reason: 'issued before the agreement took effect' };
  if (agreement.expirationDate && invoice.issueDate > agreement.expirationDate)
    return { matched: false, reason: 'issued after the agreement expired' };
  reasons.push('issued within the agreement period');
  const problem = applicabilityProblem(invoice, agreement.applicability);
  if (problem) return { matched: false, reason: problem };
  if (agreement.applicability && Object.keys(agreement.applicability).length > 0)
    reasons.push('within the agreement applicability');
  return { matched: true, reasons };
}
