// 3. Rate terms: price items of type rate (a fraction of a basis).
//
// Kind of term, read from the price item's description and basis (folded, any language we know):
// - discount: mentions discount, rebate, rabatt/rabat, alennus, Nachlass. Not per invoice, and so
//   skipped: bonuses, annual/yearly terms, cash or early-payment discounts (skonto, kontantrabatt),
//   which are settled outside the invoice.
// - fee: mentions fee, charge, surcharge, gebyr, avgift, tillegg/tillägg, maksu, lisä-, Gebühr,
//   Zuschlag, freight/frakt/rahti/Fracht, shipping, handling.
// - anything else: not checked (what the rate means would be a guess).
//
// Basis vocabulary (what the fraction applies to):
// - `invoice_subtotal`: the goods and services on the invoice before document-level allowances
//   and charges, i.e. the sum of the positive line net amounts, leaving out lines that are
//   themselves fees of the agreement. Free text saying subtotal, invoice total/amount/value, net
//   total, total excl. VAT, order value, delsum, fakturabeløp, välisumma, Zwischensumme,
//   Nettobetrag, Rechnungsbetrag... means the same.
// - `line_total`: each line's net amount, for a term applied line by line. Summed over the same
//   lines it is the same amount; it differs in where the supplier may put a discount (in the
//   line prices), which the discount check accepts for either basis. Free text: line total,
//   line amount, each/per/every line, linjebeløp, radbelopp, rivisumma, Positionsbetrag...
// The exact tokens (`invoice_subtotal`, `line_total`, or those words alone) give high
// confidence; a basis recognised from a longer free text gives medium. A basis in none of these
// words (e.g. "annual purchases", "list price of toner") is not checked.
import { foldText } from '../../agreements/price-lists/normalize.js';
import { appliesOn, lessSure, lowerOf, matchPriceItem } from './match.js';
import { D, decOrNull, halfMinorUnit, lineFigures, money, showMoney, sumOf, ZERO, type Dec } from './money.js';
import { pricedLines } from './pricing.js';
import { mentionsAny } from './text.js';
import {
  fingerprint,
  invoiceSource,
  lineLabel,
  numbered,
  percent,
  priceItemSource,
  quoteLine,
  quotePriceItem,
} from './findings.js';
import type { CheckAllowanceCharge, CheckInput, CheckLine, CheckPriceItem, Checker, Confidence, Finding } from './types.js';

export type RateBasis = 'invoice_subtotal' | 'line_total';
export type RateTermKind = 'discount' | 'fee' | 'not_per_invoice' | 'unknown';

const DISCOUNT_WORDS = ['discount', 'rebate', 'rabatt', 'rabat', 'alennus', 'nachlass'];
const NOT_PER_INVOICE_WORDS = ['bonus', 'annual', 'yearly', 'arlig', 'vuosi', 'jahres', 'skonto', 'cash discount', 'early payment', 'prompt payment', 'kontant', 'kateis'];
const FEE_WORDS = ['fee', 'charge', 'surcharge', 'gebyr', 'avgift', 'tillegg', 'tillagg', 'maksu', 'lisa', 'gebuhr', 'zuschlag', 'freight', 'frakt', 'rahti', 'fracht', 'shipping', 'handling'];
const LINE_BASIS_WORDS = ['line total', 'line amount', 'line net', 'each line', 'per line', 'every line', 'linjebelop', 'linjesum', 'radbelopp', 'rivisumma', 'positionsbetrag', 'zeilenbetrag'];
const SUBTOTAL_BASIS_WORDS = [
  'subtotal', 'sub total', 'invoice total', 'invoice amount', 'invoice value', 'net total', 'total excl', 'total excluding', 'order value', 'order total',
  'delsum', 'nettosum', 'fakturabelop', 'fakturasum', 'fakturatotal', 'ordresum', 'valisumma', 'laskun summa', 'zwischensumme', 'nettobetrag',
  'rechnungsbetrag', 'warenwert', 'goods value',
];

export function rateTermKind(item: Pick<CheckPriceItem, 'description' | 'basis'>): RateTermKind {
  const text = `${item.description} ${item.basis ?? ''}`;
  if (mentionsAny(text, NOT_PER_INVOICE_WORDS)) return 'not_per_invoice';
  if (mentionsAny(text, DISCOUNT_WORDS)) return 'discount';
  if (mentionsAny(text, FEE_WORDS)) return 'fee';
  return 'unknown';
}

export function rateBasis(basis: string | null): { basis: RateBasis; confidence: Confidence } | null {
  if (!basis) return null;
  const folded = foldText(basis);
  if (folded === 'invoice subtotal' || folded === 'subtotal') return { basis: 'invoice_subtotal', confidence: 'high' };
  if (folded === 'line total') return { basis: 'line_total', confidence: 'high' };
  if (LINE_BASIS_WORDS.some((word) => folded.includes(word))) return { basis: 'line_total', confidence: 'medium' };
  if (SUBTOTAL_BASIS_WORDS.some((word) => folded.includes(word))) return { basis: 'invoice_subtotal', confidence: 'medium' };
  return null;
}

interface RateTerm {
  item: CheckPriceItem;
  fraction: Dec;
  basis: RateBasis;
  confidence: Confidence;
}

function rateTerms(input: CheckInput, kind: RateTermKind): RateTerm[] {
  return input.agreement.priceItems.flatMap((item) => {
    if (item.priceType !== 'rate' || rateTermKind(item) !== kind || !appliesOn(item, input.invoice.issueDate)) return [];
    const fraction = decOrNull(item.fraction);
    const basis = rateBasis(item.basis);
    if (fraction === null || fraction.lt(0) || basis === null) return [];
    return [{ item, fraction, basis: basis.basis, confidence: basis.confidence }];
  });
}

/** Lines that are the agreement's fees (matched to a fee rate item), by line id. */
function feeLines(input: CheckInput): Map<string, CheckPriceItem> {
  const fees = input.agreement.priceItems.filter((item) => item.priceType === 'rate' && rateTermKind(item) === 'fee');
  const result = new Map<string, CheckPriceItem>();
  for (const line of input.invoice.lines) {
    const match = matchPriceItem(line, fees, { invoiceDate: input.invoice.issueDate });
    if (match) result.set(line.id, match.priceItem);
  }
  return result;
}

/** The goods and services the basis is taken of: positive lines that are not fees. */
function chargedLines(input: CheckInput, fees: Map<string, CheckPriceItem>): { line: CheckLine; net: Dec }[] {
  return input.invoice.lines.flatMap((line) => {
    const net = lineFigures(line).netAmount;
    return net !== null && net.gt(0) && !fees.has(line.id) ? [{ line, net }] : [];
  });
}

const amountOf = (entry: CheckAllowanceCharge) => decOrNull(entry.amount)?.abs() ?? ZERO;

// ---------------------------------------------------------------------------------------------
// Agreed discounts

const DISCOUNT_CODE = 'agreed_discount_missing';

export const discountChecker: Checker = {
  code: DISCOUNT_CODE,
  title: 'Agreed discount missing or too small',
  run(input) {
    if (input.invoice.documentType === 'credit_note') return [];
    const terms = rateTerms(input, 'discount');
    if (terms.length === 0) return [];
    const finding = discountShortfall(input, terms);
    return finding ? [finding] : [];
  },
};

// What the invoice gives: document-level allowances, negative (discount) lines, and, when every
// charged line is priced by the agreement, how far the lines are below the agreed prices (a
// discount put into the prices). Several discount terms are checked together, as one total.
function discountShortfall(input: CheckInput, terms: RateTerm[]): Finding | null {
  const { invoice } = input;
  const currency = invoice.currencyCode;
  const charged = chargedLines(input, feeLines(input));
  if (charged.length === 0) return null;
  const netTotal = sumOf(charged.map((entry) => entry.net));
  const listValue = agreedValueOfAll(input, charged.map((entry) => entry.line));
  const basisAmount = listValue ?? netTotal;
  const allowances = sumOf(invoice.allowanceCharges.filter((entry) => !entry.isCharge).map(amountOf));
  const discountLines = sumOf(invoice.lines.map((line) => lineFigures(line).netAmount ?? ZERO).filter((net) => net.lt(0))).abs();
  const inPrices = listValue === null ? ZERO : D.max(ZERO, listValue.minus(netTotal));
  const given = allowances.plus(discountLines).plus(inPrices);
  const fractions = sumOf(terms.map((term) => term.fraction));
  const expected = basisAmount.times(fractions);
  const shortfall = expected.minus(given);
  if (shortfall.lte(halfMinorUnit(currency))) return null;

  const nothingGiven = given.isZero();
  let confidence = terms.map((term) => term.confidence).reduce(lowerOf);
  // With lines the agreement does not price, a discount could sit in prices we cannot compare.
  if (nothingGiven && listValue === null) confidence = lessSure(confidence);
  const citations = [
    ...terms.map((term) => ({ source: priceItemSource(term.item), quote: quotePriceItem(term.item) })),
    { source: invoiceSource(), quote: invoiceDiscountQuote(input, netTotal, allowances, discountLines) },
  ];
  const termRefs = terms.map((term, index) => `${percent(term.fraction)} "${term.item.description}" [${index + 1}]`).join(' and ');
  const invoiceRef = `[${terms.length + 1}]`;
  const basisText =
    listValue === null
      ? `the invoice subtotal of ${showMoney(netTotal, currency)}`
      : `the agreed prices of the lines, ${showMoney(listValue, currency)}`;
  const givenText = nothingGiven
    ? `the invoice gives no discount ${invoiceRef}`
    : `the invoice gives ${showMoney(given, currency)} ${invoiceRef}${inPrices.gt(0) ? ` (${showMoney(inPrices, currency)} of it in prices below the agreed ones)` : ''}`;
  return {
    checker: DISCOUNT_CODE,
    fingerprint: fingerprint(DISCOUNT_CODE, ...terms.map((term) => term.item.id).sort()),
    title: nothingGiven ? 'Agreed discount not given' : 'Agreed discount too small',
    explanation:
      `The agreement gives ${termRefs} of ${basisText}: ${showMoney(expected, currency)}; ${givenText}. ` +
      `The shortfall is ${money(shortfall, currency)}${currency ? ` ${currency}` : ''}.`,
    citations: numbered(citations),
    impactAmount: money(shortfall, currency),
    expected: terms.map((term) => ({
      description: term.item.description,
      unit: null,
      currency_code: currency,
      price: { type: 'rate', fraction: term.fraction.toFixed(), basis: term.item.basis ?? term.basis },
    })),
    confidence,
    invoiceItemId: null,
    correctionType: nothingGiven ? 'add_item' : 'modify_invoice',
  };
}

/** The lines' value at the agreed prices, when the agreement prices every one of them. */
function agreedValueOfAll(input: CheckInput, lines: CheckLine[]): Dec | null {
  const priced = new Map(pricedLines(input).map((entry) => [entry.line.id, entry]));
  let total = ZERO;
  for (const line of lines) {
    const entry = priced.get(line.id);
    if (!entry || entry.conversion.kind === 'missing') return null;
    total = total.plus(entry.conversion.amount.times(entry.quantity));
  }
  return total;
}

function invoiceDiscountQuote(input: CheckInput, netTotal: Dec, allowances: Dec, discountLines: Dec): string {
  const { invoice } = input;
  const reasons = invoice.allowanceCharges.filter((entry) => !entry.isCharge).map((entry) => `${entry.reason ?? entry.reasonCode ?? 'allowance'} ${amountOf(entry).toFixed(2)}`);
  return (
    `Invoice ${invoice.invoiceNumber ?? invoice.id}: lines ${netTotal.toFixed(2)}; ` +
    `document allowances ${reasons.length > 0 ? reasons.join(', ') : 'none'}` +
    (discountLines.gt(0) ? `; discount lines ${discountLines.toFixed(2)}` : '')
  );
}

// ---------------------------------------------------------------------------------------------
// Agreed fees

const FEE_CODE = 'fee_above_agreed';

export const feeChecker: Checker = {
  code: FEE_CODE,
  title: 'Fee above the agreed rate',
  run(input) {
    if (input.invoice.documentType === 'credit_note') return [];
    const terms = rateTerms(input, 'fee');
    if (terms.length === 0) return [];
    const fees = feeLines(input);
    const basisAmount = sumOf(chargedLines(input, fees).map((entry) => entry.net));
    return terms.flatMap((term) => {
      const finding = feeExcess(input, term, terms.length, fees, basisAmount);
      return finding ? [finding] : [];
    });
  },
};

// UNCL 7161 charge reason codes that name what a fee is for.
const CHARGE_REASON_CODES: Record<string, string> = { FC: 'freight', PC: 'packing', ABW: 'handling' };
const GENERIC_FEE_WORDS = new Set(['fee', 'fees', 'charge', 'charges', 'surcharge', 'gebyr', 'avgift', 'tillegg', 'tillagg', 'maksu', 'lisa', 'gebuhr', 'zuschlag', 'of', 'on', 'the', 'and', 'per', 'pa', 'av', 'for', 'til', 'og', 'percent', '%']);

function stems(text: string | null): string[] {
  return text ? foldText(text).split(' ').filter((word) => word.length >= 4 && !GENERIC_FEE_WORDS.has(word)) : [];
}

// Two words are about the same thing when they start alike ("invoice"/"invoicing",
// "fakturagebyr"/"faktura").
function related(a: string, b: string): boolean {
  const length = Math.min(5, a.length, b.length);
  return length >= 4 && a.slice(0, length) === b.slice(0, length);
}

function chargeIsFor(charge: CheckAllowanceCharge, item: CheckPriceItem): boolean {
  const itemWords = stems(item.description);
  const chargeWords = stems(`${charge.reason ?? ''} ${CHARGE_REASON_CODES[charge.reasonCode?.toUpperCase() ?? ''] ?? ''}`);
  return itemWords.some((a) => chargeWords.some((b) => related(a, b)));
}

function feeExcess(input: CheckInput, term: RateTerm, termCount: number, fees: Map<string, CheckPriceItem>, basisAmount: Dec): Finding | null {
  const { invoice } = input;
  const currency = invoice.currencyCode;
  const charges = invoice.allowanceCharges.filter((entry) => entry.isCharge);
  const named = charges.filter((charge) => chargeIsFor(charge, term.item));
  // A charge that says nothing about itself is this fee only when the agreement has one fee.
  const unnamed = termCount === 1 ? charges.filter((charge) => !charge.reason && !charge.reasonCode) : [];
  const lines = invoice.lines.filter((line) => fees.get(line.id)?.id === term.item.id);
  const chargedAmount = sumOf([...named, ...unnamed].map(amountOf)).plus(sumOf(lines.map((line) => lineFigures(line).netAmount ?? ZERO)));
  if (chargedAmount.isZero()) return null;
  const allowed = basisAmount.times(term.fraction);
  const excess = chargedAmount.minus(allowed);
  if (excess.lte(halfMinorUnit(currency))) return null;

  const citations = [
    { source: priceItemSource(term.item), quote: quotePriceItem(term.item) },
    ...lines.map((line) => ({ source: invoiceSource(), quote: quoteLine(invoice, line) })),
    ...[...named, ...unnamed].map((charge) => ({ source: invoiceSource(), quote: quoteCharge(input, charge) })),
  ];
  const whereRefs = citations.slice(1).map((_, index) => `[${index + 2}]`).join(' ');
  const onlyLine = lines.length === 1 && named.length + unnamed.length === 0 ? lines[0]! : null;
  return {
    checker: FEE_CODE,
    fingerprint: fingerprint(FEE_CODE, term.item.id),
    title: `Fee above the agreed rate: ${term.item.description}`,
    explanation:
      `The agreement allows ${percent(term.fraction)} "${term.item.description}" [1] of the invoice subtotal of ${showMoney(basisAmount, currency)}: ` +
      `${showMoney(allowed, currency)}. The invoice charges ${showMoney(chargedAmount, currency)} for it ${whereRefs}` +
      `${onlyLine ? ` (${lineLabel(onlyLine)})` : ''}, ${money(excess, currency)}${currency ? ` ${currency}` : ''} more.` +
      (unnamed.length > 0 ? ' A charge without a reason is taken to be this fee, the only one the agreement has.' : ''),
    citations: numbered(citations),
    impactAmount: money(excess, currency),
    expected: [{ description: term.item.description, unit: null, currency_code: currency, price: { type: 'rate', fraction: term.fraction.toFixed(), basis: term.item.basis ?? term.basis } }],
    confidence: unnamed.length > 0 ? lowerOf(term.confidence, 'medium') : term.confidence,
    invoiceItemId: onlyLine?.id ?? null,
    correctionType: onlyLine ? 'modify_item' : 'modify_invoice',
  };
}

function quoteCharge(input: CheckInput, charge: CheckAllowanceCharge): string {
  const base = decOrNull(charge.baseAmount);
  return (
    `Invoice ${input.invoice.invoiceNumber ?? input.invoice.id}, document charge: ${charge.reason ?? charge.reasonCode ?? '(no reason)'} ` +
    `${amountOf(charge).toFixed(2)}${base ? ` on ${base.toFixed(2)}` : ''}`
  );
}
