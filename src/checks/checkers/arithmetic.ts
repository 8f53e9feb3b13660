// 6. Arithmetic: each line, then the totals (EN 16931 BR-CO-10 .. BR-CO-16).
//
// Line: quantity * unit price / base quantity + line charges - line allowances (BG-27/BG-28, when
// the caller has them) should be the line net amount, to within the organization's line rounding
// tolerance (one cent by default: 7 x 145.00 billed as 1015.01 is rounding, not an error; a
// supplier's system that rounds each unit or each step can land a cent off). docs/checks.md.
//
// Totals: each rule is checked on the invoice's own stated figures (the line total as stated, not
// as we would compute it), so one wrong figure gives one finding, not a cascade.
//
// Sign: impact is what the buyer pays too much. On an invoice that is stated - computed (or
// computed - stated for subtractions). On a credit note (amounts usually positive, money coming
// back) a smaller credit than computed is against the buyer, so the sign flips; when a credit
// note's amounts are negative it does not. In practice credit notes are not checked.
import {
  decOrNull,
  halfMinorUnit,
  lineFigures,
  lineRoundingTolerance,
  money,
  priceString,
  showMoney,
  sumOf,
  ZERO,
  type Dec,
} from './money.js';
import { capitalize, fingerprint, invoiceSource, lineKey, lineLabel, numbered, quoteLine } from './findings.js';
import type { CheckInput, CheckInvoice, CheckLine, Checker, Confidence, Finding } from './types.js';

const LINE_CODE = 'line_arithmetic';
const TOTALS_CODE = 'totals_arithmetic';

/** Turns "stated is this much above computed" into "the buyer pays this much more". */
function againstBuyer(invoice: CheckInvoice, statedMinusComputed: Dec, computed: Dec): Dec {
  if (invoice.documentType !== 'credit_note') return statedMinusComputed;
  return computed.lt(0) ? statedMinusComputed : statedMinusComputed.neg();
}

export const lineArithmeticChecker: Checker = {
  code: LINE_CODE,
  title: 'Line amount does not add up',
  run(input) {
    return input.invoice.lines.flatMap((line) => {
      const finding = lineFinding(input, line);
      return finding ? [finding] : [];
    });
  },
};

function lineFinding(input: CheckInput, line: CheckLine): Finding | null {
  const { invoice } = input;
  const currency = invoice.currencyCode;
  const { quantity, unitPrice: price, netAmount: net, baseQuantity: base } = lineFigures(line);
  if (quantity === null || price === null || net === null || (base !== null && base.lte(0))) return null;
  const gross = base === null ? quantity.times(price) : quantity.times(price).div(base);
  const known = line.allowanceCharges !== undefined && line.allowanceCharges !== null;
  const adjustments = sumOf(
    (line.allowanceCharges ?? []).map((entry) => {
      const amount = decOrNull(entry.amount) ?? ZERO;
      return entry.isCharge ? amount : amount.neg();
    }),
  );
  const computed = gross.plus(adjustments);
  const difference = net.minus(computed);
  const tolerance = lineRoundingTolerance(input.settings, currency);
  if (difference.abs().lte(tolerance)) return null;

  let impact = againstBuyer(invoice, difference, computed);
  let confidence: Confidence = known ? 'certain' : 'high';
  let note = known ? '' : ' The line allowances and charges are not known; one of them may explain the difference.';
  // Less than the arithmetic gives, with line allowances unknown: most likely an unrecorded line
  // discount, and in any case nothing the buyer overpays.
  if (!known && impact.lt(0)) {
    impact = ZERO;
    confidence = 'low';
    note =
      ' The line nets less than its quantity and price give, probably a line discount the invoice data does not show; no amount is claimed.';
  }
  const formula =
    `${quantity.toFixed()} x ${priceString(price)}${base !== null && !base.eq(1) ? ` / ${base.toFixed()}` : ''}` +
    (known && !adjustments.isZero() ? ` ${adjustments.gt(0) ? '+' : '-'} ${adjustments.abs().toFixed(2)}` : '');
  return {
    checker: LINE_CODE,
    fingerprint: fingerprint(LINE_CODE, lineKey(line)),
    title: `Line amount does not add up: ${line.description ?? `line ${line.lineNumber ?? line.position + 1}`}`,
    explanation:
      `${capitalize(lineLabel(line))} [1]: ${formula} = ${showMoney(computed, currency)}, but the line states ${showMoney(net, currency)} ` +
      `(${difference.gt(0) ? '+' : '-'}${money(difference.abs(), currency)}; up to ${money(tolerance, currency)} a line is taken as rounding).${note}`,
    citations: numbered([{ source: invoiceSource(), quote: quoteLine(invoice, line) }]),
    impactAmount: money(impact, currency),
    expected: null,
    confidence,
    invoiceItemId: line.id,
    correctionType: 'modify_item',
  };
}

interface TotalsRule {
  key: string;
  /** The stated figure the rule checks, in words. */
  stated: string;
  title: string;
  /** null when the invoice does not state what the rule needs. */
  evaluate(invoice: CheckInvoice): { stated: Dec; computed: Dec; formula: string; statedIsSubtracted?: boolean } | null;
}

const stated = (value: Parameters<typeof decOrNull>[0]) => decOrNull(value);
const documentEntries = (invoice: CheckInvoice, isCharge: boolean) =>
  invoice.allowanceCharges
    .filter((entry) => entry.isCharge === isCharge)
    .map((entry) => decOrNull(entry.amount) ?? ZERO);
const show = (value: Dec) => value.toFixed(Math.max(2, value.decimalPlaces()));

// Document allowances or charges against their stated total (an allowance total is subtracted).
function documentTotalRule(kind: 'allowance' | 'charge'): TotalsRule {
  return {
    key: `${kind}_total`,
    stated: `${kind} total`,
    title: `Document ${kind}s do not add up to the ${kind} total`,
    evaluate(invoice) {
      const total = stated(kind === 'charge' ? invoice.totals.chargeTotal : invoice.totals.allowanceTotal);
      const entries = documentEntries(invoice, kind === 'charge');
      if (total === null || entries.length === 0) return null;
      const computed = sumOf(entries);
      const formula = `the ${entries.length} document ${kind}s add up to ${show(computed)}`;
      return kind === 'charge'
        ? { stated: total, computed, formula }
        : { stated: total, computed, formula, statedIsSubtracted: true };
    },
  };
}

const TOTALS_RULES: TotalsRule[] = [
  {
    key: 'line_extension',
    stated: 'line total',
    title: 'Line amounts do not add up to the line total',
    evaluate(invoice) {
      const total = stated(invoice.totals.lineExtension);
      const nets = invoice.lines.map((line) => lineFigures(line).netAmount);
      if (total === null || invoice.lines.length === 0 || nets.some((net) => net === null)) return null;
      const computed = sumOf(nets as Dec[]);
      return {
        stated: total,
        computed,
        formula: `the ${invoice.lines.length} line net amounts add up to ${show(computed)}`,
      };
    },
  },
  documentTotalRule('allowance'),
  documentTotalRule('charge'),
  {
    key: 'tax_exclusive',
    stated: 'total excluding VAT',
    title: 'Total excluding VAT does not add up',
    evaluate(invoice) {
      const total = stated(invoice.totals.taxExclusive);
      const lineTotal =
        stated(invoice.totals.lineExtension) ??
        (invoice.lines.length > 0 ? sumOf(invoice.lines.map((line) => lineFigures(line).netAmount ?? ZERO)) : null);
      if (total === null || lineTotal === null) return null;
      const allowances = stated(invoice.totals.allowanceTotal) ?? sumOf(documentEntries(invoice, false));
      const charges = stated(invoice.totals.chargeTotal) ?? sumOf(documentEntries(invoice, true));
      const computed = lineTotal.minus(allowances).plus(charges);
      return {
        stated: total,
        computed,
        formula: `line total ${show(lineTotal)} - allowances ${show(allowances)} + charges ${show(charges)} = ${show(computed)}`,
      };
    },
  },
  {
    key: 'tax_inclusive',
    stated: 'total including VAT',
    title: 'Total including VAT does not add up',
    evaluate(invoice) {
      const total = stated(invoice.totals.taxInclusive);
      const taxExclusive = stated(invoice.totals.taxExclusive);
      const vat = stated(invoice.totals.vatTotal);
      if (total === null || taxExclusive === null || vat === null) return null;
      const computed = taxExclusive.plus(vat);
      return {
        stated: total,
        computed,
        formula: `total excluding VAT ${show(taxExclusive)} + VAT ${show(vat)} = ${show(computed)}`,
      };
    },
  },
  {
    key: 'payable',
    stated: 'amount due',
    title: 'Amount due does not add up',
    evaluate(invoice) {
      const total = stated(invoice.totals.payable);
      const taxInclusive = stated(invoice.totals.taxInclusive);
      if (total === null || taxInclusive === null) return null;
      const prepaid = stated(invoice.totals.prepaid) ?? ZERO;
      const rounding = stated(invoice.totals.payableRounding) ?? ZERO;
      const computed = taxInclusive.minus(prepaid).plus(rounding);
      return {
        stated: total,
        computed,
        formula: `total including VAT ${show(taxInclusive)} - prepaid ${show(prepaid)} + rounding ${show(rounding)} = ${show(computed)}`,
      };
    },
  },
];

export const totalsArithmeticChecker: Checker = {
  code: TOTALS_CODE,
  title: 'Invoice totals do not add up',
  run(input) {
    const { invoice } = input;
    const currency = invoice.currencyCode;
    return TOTALS_RULES.flatMap((rule): Finding[] => {
      const result = rule.evaluate(invoice);
      if (!result) return [];
      const difference = result.stated.minus(result.computed);
      if (difference.abs().lte(halfMinorUnit(currency))) return [];
      // An allowance total larger than its allowances takes more off: the buyer pays less.
      const statedMinusComputed = result.statedIsSubtracted ? difference.neg() : difference;
      const impact = againstBuyer(invoice, statedMinusComputed, result.computed);
      return [
        {
          checker: TOTALS_CODE,
          fingerprint: fingerprint(TOTALS_CODE, rule.key),
          title: rule.title,
          explanation: `The invoice states ${/^[aeiou]/.test(rule.stated) ? 'an' : 'a'} ${rule.stated} of ${show(result.stated)} [1], but ${result.formula} (difference ${difference.gt(0) ? '+' : '-'}${money(difference.abs(), currency)}).`,
          citations: numbered([{ source: invoiceSource(), quote: quoteTotals(invoice) }]),
          impactAmount: money(impact, currency),
          expected: null,
          confidence: 'certain',
          invoiceItemId: null,
          correctionType: 'modify_invoice',
        },
      ];
    });
  },
};

function quoteTotals(invoice: CheckInvoice): string {
  const labels: [keyof CheckInvoice['totals'], string][] = [
    ['lineExtension', 'line total'],
    ['allowanceTotal', 'allowances'],
    ['chargeTotal', 'charges'],
    ['taxExclusive', 'total excl. VAT'],
    ['vatTotal', 'VAT'],
    ['taxInclusive', 'total incl. VAT'],
    ['prepaid', 'prepaid'],
    ['payableRounding', 'rounding'],
    ['payable', 'amount due'],
  ];
  const figures = labels.flatMap(([key, label]) => {
    const value = decOrNull(invoice.totals[key]);
    return value === null ? [] : [`${label} ${show(value)}`];
  });
  return `Invoice ${invoice.invoiceNumber ?? invoice.id} (${invoice.currencyCode ?? 'no currency'}): ${figures.join(', ')}`;
}
