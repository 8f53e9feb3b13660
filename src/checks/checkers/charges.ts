// Charges on an invoice and the agreed fees they are for. A charge comes as a document-level
// charge (cac:AllowanceCharge with ChargeIndicator true) or as a line that names a charge ("Frakt",
// "Invoice fee", quantity 1 or none) and is not priced as goods by the agreement. An agreed fee is
// a rate price item read as a fee ("Fragttillæg 2 %") or an amount price item whose description
// names a charge ("Fakturagebyr 29.00").
//
// A charge is for an agreed fee, in this order:
// 1. a line matched to the fee's price item (article number or description, `match.ts`);
// 2. the same kind of charge in the vocabulary (`vocabulary.ts`: "Frakt" and "Fragttillæg" are
//    both freight; a UNCL 7161 reason code such as FC counts as its kind);
// 3. names that start alike, the old way ("Emballering" and "Emballage"): a guess, said so;
// 4. a document charge with neither reason nor code, when the agreement has exactly one fee.
// Charges for no agreed fee are the agreement's business only when it has price items at all.
import { foldText } from '../../agreements/price-lists/normalize.js';
import { appliesOn, matchPriceItem } from './match.js';
import { decOrNull, lineFigures, ZERO, type Dec } from './money.js';
import {
  chargeConcepts,
  conceptName,
  DISCOUNT_WORDS,
  mentions,
  namesCharge,
  NOT_PER_INVOICE_WORDS,
  sharesConcept,
  type ChargeConcept,
} from './vocabulary.js';
import type { CheckAllowanceCharge, CheckInput, CheckLine, CheckPriceItem } from './types.js';

export interface InvoiceCharge {
  /** The charge line, or null for a document charge. */
  line: CheckLine | null;
  /** The document charge, or null for a line. */
  charge: CheckAllowanceCharge | null;
  /** The reason or line description as written. */
  text: string | null;
  amount: Dec;
  concepts: Set<ChargeConcept>;
}

export type FeeAssignmentKind = 'price_item' | 'vocabulary' | 'reason_code' | 'similar_name' | 'only_fee';

export interface FeeAssignment {
  item: CheckPriceItem;
  how: FeeAssignmentKind;
  /** In words, for the explanation: what was read, and whether it is a guess. */
  reading: string;
}

/** A rate item read as a fee (not a discount, not settled outside the invoice). */
export function isFeeRate(item: CheckPriceItem): boolean {
  if (item.priceType !== 'rate') return false;
  const text = `${item.description} ${item.basis ?? ''}`;
  if (mentions(text, NOT_PER_INVOICE_WORDS) || mentions(text, DISCOUNT_WORDS)) return false;
  return namesCharge(item.description);
}

/** An amount item that is a fee rather than goods: no article number, and its name is a charge. */
export function isFeeAmount(item: CheckPriceItem): boolean {
  return (
    item.priceType === 'amount' &&
    !item.sellerItemId &&
    namesCharge(item.description) &&
    !mentions(item.description, DISCOUNT_WORDS)
  );
}

/** The agreement's fees that apply on the invoice date. */
export function agreedFees(input: CheckInput): CheckPriceItem[] {
  return input.agreement.priceItems.filter(
    (item) => (isFeeRate(item) || isFeeAmount(item)) && appliesOn(item, input.invoice.issueDate),
  );
}

const linesByInput = new WeakMap<CheckInput, InvoiceCharge[]>();

/**
 * Lines that are charges: a positive net amount, quantity 1 or none, a description that names a
 * charge, and not priced as goods by the agreement (a line matched to an amount price item is
 * the unit price check's). A line matched to a fee rate item is a charge whatever its name.
 */
export function chargeLines(input: CheckInput): InvoiceCharge[] {
  const cached = linesByInput.get(input);
  if (cached) return cached;
  const { invoice, agreement } = input;
  const feeRates = agreement.priceItems.filter(isFeeRate);
  const found = invoice.lines.flatMap((line): InvoiceCharge[] => {
    const toRate = feeRates.length > 0 ? matchPriceItem(line, feeRates, { invoiceDate: invoice.issueDate }) : null;
    // The name first: it is looked up once per distinct text, and most lines are goods.
    if (!toRate && !namesCharge(line.description)) return [];
    const { netAmount: net, quantity } = lineFigures(line);
    if (net === null || net.lte(0)) return [];
    if (!toRate) {
      if (quantity !== null && !quantity.eq(1)) return [];
      const asGoods = matchPriceItem(line, agreement.priceItems, {
        invoiceDate: invoice.issueDate,
        priceType: 'amount',
      });
      if (asGoods) return [];
    }
    return [{ line, charge: null, text: line.description, amount: net, concepts: chargeConcepts(line.description) }];
  });
  linesByInput.set(input, found);
  return found;
}

/** Document-level charges with an amount above zero. */
export function documentCharges(input: CheckInput): InvoiceCharge[] {
  return input.invoice.allowanceCharges.flatMap((charge) => {
    const amount = decOrNull(charge.amount)?.abs() ?? ZERO;
    if (!charge.isCharge || amount.isZero()) return [];
    return [
      { line: null, charge, text: charge.reason, amount, concepts: chargeConcepts(charge.reason, charge.reasonCode) },
    ];
  });
}

/** Every charge of the invoice: document charges, then charge lines. */
export function invoiceCharges(input: CheckInput): InvoiceCharge[] {
  if (input.invoice.documentType === 'credit_note') return [];
  return [...documentCharges(input), ...chargeLines(input)];
}

// Words set aside when comparing names: they say "a fee", not which one.
const GENERIC_WORDS = new Set([
  'fee',
  'fees',
  'charge',
  'charges',
  'surcharge',
  'gebyr',
  'avgift',
  'tillegg',
  'tillagg',
  'tillaeg',
  'maksu',
  'lisa',
  'gebuhr',
  'zuschlag',
  'kosten',
  'frais',
  'toeslag',
  'of',
  'on',
  'the',
  'and',
  'per',
  'pa',
  'av',
  'for',
  'til',
  'og',
  'percent',
  '%',
]);

function stems(text: string | null): string[] {
  return text
    ? foldText(text)
        .split(' ')
        .filter((word) => word.length >= 4 && !GENERIC_WORDS.has(word))
    : [];
}

// Two words are about the same thing when they start alike ("emballering"/"emballage").
function related(a: string, b: string): boolean {
  const length = Math.min(5, a.length, b.length);
  return length >= 4 && a.slice(0, length) === b.slice(0, length);
}

function quoted(text: string | null, code: string | null | undefined): string {
  return text ? `"${text}"` : `reason code ${code ?? '?'}`;
}

/** The agreed fee a charge is for, and how that was read; null when it is for none of them. */
export function assignFee(
  input: CheckInput,
  charge: InvoiceCharge,
  fees: CheckPriceItem[] = agreedFees(input),
): FeeAssignment | null {
  if (fees.length === 0) return null;
  const { line } = charge;
  if (line) {
    const match = matchPriceItem(
      line,
      fees.filter((item) => item.priceType === 'rate'),
      { invoiceDate: input.invoice.issueDate },
    );
    if (match)
      return {
        item: match.priceItem,
        how: 'price_item',
        reading: `"${line.description ?? line.sellerItemId ?? ''}" is the agreed "${match.priceItem.description}"`,
      };
  }
  for (const item of fees) {
    const concept = sharesConcept(charge.concepts, chargeConcepts(item.description));
    if (concept === null) continue;
    const byCode = charge.charge?.reasonCode && !chargeConcepts(charge.text).has(concept);
    return {
      item,
      how: byCode ? 'reason_code' : 'vocabulary',
      reading: `${quoted(charge.text, charge.charge?.reasonCode)} is read as ${conceptName(concept)}, like the agreed "${item.description}"`,
    };
  }
  const words = stems(charge.text);
  for (const item of fees) {
    if (stems(item.description).some((a) => words.some((b) => related(a, b)))) {
      return {
        item,
        how: 'similar_name',
        reading: `"${charge.text}" is taken to be the agreed "${item.description}" because the names start alike (a guess)`,
      };
    }
  }
  const rates = fees.filter((item) => item.priceType === 'rate');
  if (charge.charge && !charge.charge.reason && !charge.charge.reasonCode && rates.length === 1) {
    return {
      item: rates[0]!,
      how: 'only_fee',
      reading: `a charge without a reason is taken to be "${rates[0]!.description}", the only fee the agreement has (a guess)`,
    };
  }
  return null;
}

/** Ids of the lines that are charges, left out of the goods a rate is taken of. */
export function chargeLineIds(input: CheckInput): Set<string> {
  return new Set(chargeLines(input).map((entry) => entry.line!.id));
}
