// 3. Rate terms: price items of type rate (a fraction of a basis).
//
// Kind of term, read from the price item's description and basis (folded; the words of all eight
// languages we read are in `vocabulary.ts`):
// - not per invoice, and so skipped: bonuses, annual terms, cash or early-payment discounts
//   (skonto, kontantrabatt, escompte), which are settled outside the invoice;
// - discount: discount, rebate, rabatt/rabat, alennus, Nachlass, remise, korting...;
// - fee: a kind of charge (freight: Frakt, Fragttillæg, rahti, Fracht, frais de port, vracht...;
//   invoice fee, handling, packing, small order, fuel, environmental, insurance...) or a fee word
//   (fee, gebyr, avgift, tillæg, maksu, Gebühr, frais, toeslag...);
// - anything else: not checked (what the rate means would be a guess).
// Which charges a fee term covers (document charges and charge lines, by kind of charge) is
// `charges.ts`; a fee term without any basis is taken of the invoice subtotal, at medium.
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
import { appliesOn, lessSure, lowerOf } from './match.js';
import { D, decOrNull, halfMinorUnit, lineFigures, money, showMoney, sumOf, ZERO, type Dec } from './money.js';
import { pricedLines } from './pricing.js';
import {
  agreedFees,
  assignFee,
  chargeLineIds,
  invoiceCharges,
  type FeeAssignment,
  type InvoiceCharge,
} from './charges.js';
import {
  DISCOUNT_WORDS,
  LINE_BASIS_WORDS,
  mentions,
  namesCharge,
  NOT_PER_INVOICE_WORDS,
  SUBTOTAL_BASIS_WORDS,
} from './vocabulary.js';
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
import type {
  CheckAllowanceCharge,
  CheckInput,
  CheckLine,
  CheckPriceItem,
  Checker,
  Confidence,
  Finding,
} from './types.js';

export type RateBasis = 'invoice_subtotal' | 'line_total';
export type RateTermKind = 'discount' | 'fee' | 'not_per_invoice' | 'unknown';

export function rateTermKind(item: Pick<CheckPriceItem, 'description' | 'basis'>): RateTermKind {
  const text = `${item.description} ${item.basis ?? ''}`;
  if (mentions(text, NOT_PER_INVOICE_WORDS)) return 'not_per_invoice';
  if (mentions(text, DISCOUNT_WORDS)) return 'discount';
  if (namesCharge(item.description)) return 'fee';
  return 'unknown';
}

export function rateBasis(basis: string | null): { basis: RateBasis; confidence: Confidence } | null {
  if (!basis) return null;
  const folded = foldText(basis);
  if (folded === 'invoice subtotal' || folded === 'subtotal') return { basis: 'invoice_subtotal', confidence: 'high' };
  if (folded === 'line total') return { basis: 'line_total', confidence: 'high' };
  if (mentions(basis, LINE_BASIS_WORDS)) return { basis: 'line_total', confidence: 'medium' };
  if (mentions(basis, SUBTOTAL_BASIS_WORDS)) return { basis: 'invoice_subtotal', confidence: 'medium' };
  return null;
}

interface RateTerm {
  item: CheckPriceItem;
  fraction: Dec;
  basis: RateBasis;
  confidence: Confidence;
  /** The agreement names no basis: a fee is then taken of the invoice subtotal (said so). */
  basisAssumed: boolean;
}

function rateTerms(input: CheckInput, kind: RateTermKind): RateTerm[] {
  return input.agreement.priceItems.flatMap((item): RateTerm[] => {
    if (item.priceType !== 'rate' || rateTermKind(item) !== kind || !appliesOn(item, input.invoice.issueDate))
      return [];
    const fraction = decOrNull(item.fraction);
    if (fraction === null || fraction.lt(0)) return [];
    const basis = rateBasis(item.basis);
    // "Fragttillæg 2 %" with no basis: suppliers mean the goods on the invoice; a guess, so medium.
    if (basis === null && kind === 'fee' && !item.basis?.trim())
      return [{ item, fraction, basis: 'invoice_subtotal', confidence: 'medium', basisAssumed: true }];
    if (basis === null) return [];
    return [{ item, fraction, basis: basis.basis, confidence: basis.confidence, basisAssumed: false }];
  });
}

/** The goods and services the basis is taken of: positive lines that are not charges. */
function chargedLines(input: CheckInput): { line: CheckLine; net: Dec }[] {
  const charges = chargeLineIds(input);
  return input.invoice.lines.flatMap((line) => {
    const net = lineFigures(line).netAmount;
    return net !== null && net.gt(0) && !charges.has(line.id) ? [{ line, net }] : [];
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
  const charged = chargedLines(input);
  if (charged.length === 0) return null;
  const netTotal = sumOf(charged.map((entry) => entry.net));
  const listValue = agreedValueOfAll(
    input,
    charged.map((entry) => entry.line),
  );
  const basisAmount = listValue ?? netTotal;
  const allowances = sumOf(invoice.allowanceCharges.filter((entry) => !entry.isCharge).map(amountOf));
  const discountLines = sumOf(
    invoice.lines.map((line) => lineFigures(line).netAmount ?? ZERO).filter((net) => net.lt(0)),
  ).abs();
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
  const termRefs = terms
    .map((term, index) => `${percent(term.fraction)} "${term.item.description}" [${index + 1}]`)
    .join(' and ');
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
  const reasons = invoice.allowanceCharges
    .filter((entry) => !entry.isCharge)
    .map((entry) => `${entry.reason ?? entry.reasonCode ?? 'allowance'} ${amountOf(entry).toFixed(2)}`);
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
    const fees = agreedFees(input);
    if (fees.length === 0) return [];
    const assigned = invoiceCharges(input).flatMap((charge) => {
      const assignment = assignFee(input, charge, fees);
      return assignment ? [{ charge, assignment }] : [];
    });
    const terms = rateTerms(input, 'fee');
    const basisAmount = sumOf(chargedLines(input).map((entry) => entry.net));
    const byRate = terms.flatMap((term) => {
      const finding = rateFeeExcess(
        input,
        term,
        assigned.filter((entry) => entry.assignment.item.id === term.item.id),
        basisAmount,
      );
      return finding ? [finding] : [];
    });
    const byAmount = fees
      .filter((item) => item.priceType === 'amount')
      .flatMap((item) =>
        amountFeeExcess(
          input,
          item,
          assigned.filter((entry) => entry.assignment.item.id === item.id),
        ),
      );
    return [...byRate, ...byAmount];
  },
};

interface AssignedCharge {
  charge: InvoiceCharge;
  assignment: FeeAssignment;
}

const GUESSES: FeeAssignment['how'][] = ['similar_name', 'only_fee'];

function readingsOf(assigned: AssignedCharge[]): { text: string; confidence: Confidence } {
  const readings = assigned
    .filter((entry) => entry.assignment.how !== 'price_item')
    .map((entry) => entry.assignment.reading);
  const guessed = assigned.some((entry) => GUESSES.includes(entry.assignment.how));
  const unique = [...new Set(readings)];
  return { text: unique.length > 0 ? ` (${unique.join('; ')})` : '', confidence: guessed ? 'medium' : 'high' };
}

function chargeCitations(input: CheckInput, assigned: AssignedCharge[]) {
  return assigned.map(({ charge }) => ({
    source: invoiceSource(),
    quote: charge.line ? quoteLine(input.invoice, charge.line) : quoteCharge(input, charge.charge!),
  }));
}

function rateFeeExcess(
  input: CheckInput,
  term: RateTerm,
  assigned: AssignedCharge[],
  basisAmount: Dec,
): Finding | null {
  const { invoice } = input;
  const currency = invoice.currencyCode;
  const chargedAmount = sumOf(assigned.map((entry) => entry.charge.amount));
  if (chargedAmount.isZero()) return null;
  const allowed = basisAmount.times(term.fraction);
  const excess = chargedAmount.minus(allowed);
  if (excess.lte(halfMinorUnit(currency))) return null;

  const citations = [
    { source: priceItemSource(term.item), quote: quotePriceItem(term.item) },
    ...chargeCitations(input, assigned),
  ];
  const whereRefs = citations
    .slice(1)
    .map((_, index) => `[${index + 2}]`)
    .join(' ');
  const onlyLine = assigned.length === 1 && assigned[0]!.charge.line ? assigned[0]!.charge.line : null;
  const readings = readingsOf(assigned);
  return {
    checker: FEE_CODE,
    fingerprint: fingerprint(FEE_CODE, term.item.id),
    title: `Fee above the agreed rate: ${term.item.description}`,
    explanation:
      `The agreement allows ${percent(term.fraction)} "${term.item.description}" [1] of the invoice subtotal of ${showMoney(basisAmount, currency)}: ` +
      `${showMoney(allowed, currency)}. The invoice charges ${showMoney(chargedAmount, currency)} for it ${whereRefs}` +
      `${onlyLine ? ` (${lineLabel(onlyLine)})` : ''}${readings.text}, ${money(excess, currency)}${currency ? ` ${currency}` : ''} more.` +
      (term.basisAssumed
        ? ' The agreement names no basis for the rate; it is taken of the invoice subtotal (a guess).'
        : ''),
    citations: numbered(citations),
    impactAmount: money(excess, currency),
    expected: [
      {
        description: term.item.description,
        unit: null,
        currency_code: currency,
        price: { type: 'rate', fraction: term.fraction.toFixed(), basis: term.item.basis ?? term.basis },
      },
    ],
    confidence: lowerOf(term.confidence, readings.confidence),
    invoiceItemId: onlyLine?.id ?? null,
    correctionType: onlyLine ? 'modify_item' : 'modify_invoice',
  };
}

// A fee agreed as an amount ("Fakturagebyr 29.00"), charged under another name or as a document
// charge (a line with the agreed name is the unit price check's). Each charge may be the agreed
// amount (times the line's quantity, one when it gives none).
function amountFeeExcess(input: CheckInput, item: CheckPriceItem, assigned: AssignedCharge[]): Finding[] {
  const { invoice } = input;
  const currency = invoice.currencyCode;
  const agreed = decOrNull(item.amount);
  // Only an agreed amount in the invoice currency (or none named) is compared here.
  if (agreed === null || assigned.length === 0 || (item.currencyCode && currency && item.currencyCode !== currency))
    return [];
  const allowed = sumOf(
    assigned.map(({ charge }) =>
      agreed.times(charge.line ? (lineFigures(charge.line).quantity ?? new D(1)) : new D(1)),
    ),
  );
  const chargedAmount = sumOf(assigned.map((entry) => entry.charge.amount));
  const excess = chargedAmount.minus(allowed);
  if (excess.lte(halfMinorUnit(currency))) return [];
  const citations = [
    { source: priceItemSource(item), quote: quotePriceItem(item) },
    ...chargeCitations(input, assigned),
  ];
  const whereRefs = citations
    .slice(1)
    .map((_, index) => `[${index + 2}]`)
    .join(' ');
  const onlyLine = assigned.length === 1 && assigned[0]!.charge.line ? assigned[0]!.charge.line : null;
  const readings = readingsOf(assigned);
  return [
    {
      checker: FEE_CODE,
      fingerprint: fingerprint(FEE_CODE, item.id),
      title: `Fee above the agreed amount: ${item.description}`,
      explanation:
        `The agreement allows "${item.description}" [1] at ${showMoney(allowed, currency)}. The invoice charges ${showMoney(chargedAmount, currency)} for it ${whereRefs}` +
        `${readings.text}, ${money(excess, currency)}${currency ? ` ${currency}` : ''} more.`,
      citations: numbered(citations),
      impactAmount: money(excess, currency),
      expected: [
        {
          description: item.description,
          unit: item.unit,
          currency_code: item.currencyCode ?? currency,
          price: { type: 'amount', amount: agreed.toFixed() },
        },
      ],
      confidence: lowerOf(item.currencyCode ? 'high' : 'medium', readings.confidence),
      invoiceItemId: onlyLine?.id ?? null,
      correctionType: onlyLine ? 'modify_item' : 'modify_invoice',
    },
  ];
}

export function quoteCharge(input: CheckInput, charge: CheckAllowanceCharge): string {
  const base = decOrNull(charge.baseAmount);
  return (
    `Invoice ${input.invoice.invoiceNumber ?? input.invoice.id}, document charge: ${charge.reason ?? charge.reasonCode ?? '(no reason)'} ` +
    `${amountOf(charge).toFixed(2)}${base ? ` on ${base.toFixed(2)}` : ''}`
  );
}
