// The lines whose price the agreement fixes: matched to an amount price item that applies on the
// invoice date and is priced in the line's unit (or one side gives no unit, or one of the item's
// unit conversions leads to the line's unit). Shared by the unit price checker, the missing
// exchange rate checker and the discount checker.
//
// What a line charges per unit is its NET price: the price per unit after the line's own
// allowances and charges (EN 16931 BG-27/BG-28), so a line discount that brings the price down to
// the agreed one is no overcharge. When the line's allowances are not known (lines stored before
// they were kept) and the line nets less than quantity x price, its net amount / quantity.
import { convertToInvoiceCurrency, type Conversion } from './currency.js';
import { matchPriceItem, type PriceItemMatch } from './match.js';
import { decOrNull, lineFigures, sumOf, ZERO, type Dec } from './money.js';
import type { CheckInput, CheckLine } from './types.js';

export interface PricedLine {
  line: CheckLine;
  match: PriceItemMatch;
  quantity: Dec;
  unitPrice: Dec;
  /** null when the line gives none (the price is per one unit). */
  baseQuantity: Dec | null;
  /** The line's price for one unit: unit price / base quantity. */
  pricePerUnit: Dec;
  /** What one unit costs on this line: the price per unit after line allowances and charges. */
  chargedPerUnit: Dec;
  /** Where chargedPerUnit comes from: the price alone, the price and the line's allowances and charges, or the net amount. */
  chargedFrom: 'price' | 'line_allowances' | 'net_amount';
  /** Line charges - line allowances (zero when none or unknown). */
  lineAdjustment: Dec;
  /** The agreed price for one line unit (through the item's unit conversion, if any), in the price item's currency. */
  agreedPerUnit: Dec;
  /** The agreed price for one unit, in the invoice currency (or why it cannot be). */
  conversion: Conversion;
}

// Three checkers read the priced lines of the same input (runCheckers hands each the same
// object): each line is matched and converted once, not three times (a third of a
// 50,000-line invoice's check).
const pricedByInput = new WeakMap<CheckInput, PricedLine[]>();

export function pricedLines(input: CheckInput): PricedLine[] {
  let priced = pricedByInput.get(input);
  if (!priced) {
    priced = priceLines(input);
    pricedByInput.set(input, priced);
  }
  return priced;
}

function priceLines(input: CheckInput): PricedLine[] {
  const { invoice, agreement, rates } = input;
  return invoice.lines.flatMap((line) => {
    const match = matchPriceItem(line, agreement.priceItems, { invoiceDate: invoice.issueDate, priceType: 'amount' });
    if (!match || !match.applies || match.unitsAgree === false) return [];
    const { quantity, unitPrice, baseQuantity: base, netAmount } = lineFigures(line);
    const agreedPerItemUnit = decOrNull(match.priceItem.amount);
    if (quantity === null || unitPrice === null || agreedPerItemUnit === null) return [];
    if (base !== null && base.lte(0)) return [];
    const agreedPerUnit = agreedPerItemUnit.times(match.unitFactor);
    const pricePerUnit = base === null ? unitPrice : unitPrice.div(base);
    const net = netPerUnit(line, quantity, pricePerUnit, netAmount);
    const conversion = convertToInvoiceCurrency(agreedPerUnit, match.priceItem.currencyCode, invoice, rates);
    return [{ line, match, quantity, unitPrice, baseQuantity: base, pricePerUnit, ...net, agreedPerUnit, conversion }];
  });
}

/** Line charges - line allowances; null when the line's allowances and charges are not known. */
export function lineAdjustment(line: CheckLine): Dec | null {
  if (line.allowanceCharges === undefined || line.allowanceCharges === null) return null;
  return sumOf(
    line.allowanceCharges.map((entry) => {
      const amount = decOrNull(entry.amount)?.abs() ?? ZERO;
      return entry.isCharge ? amount : amount.neg();
    }),
  );
}

function netPerUnit(
  line: CheckLine,
  quantity: Dec,
  pricePerUnit: Dec,
  netAmount: Dec | null,
): Pick<PricedLine, 'chargedPerUnit' | 'chargedFrom' | 'lineAdjustment'> {
  const adjustment = lineAdjustment(line);
  if (quantity.isZero())
    return { chargedPerUnit: pricePerUnit, chargedFrom: 'price', lineAdjustment: adjustment ?? ZERO };
  if (adjustment !== null) {
    if (adjustment.isZero()) return { chargedPerUnit: pricePerUnit, chargedFrom: 'price', lineAdjustment: ZERO };
    return {
      chargedPerUnit: pricePerUnit.plus(adjustment.div(quantity)),
      chargedFrom: 'line_allowances',
      lineAdjustment: adjustment,
    };
  }
  // Unknown allowances: a line that nets less than its price gives is charged what it nets.
  if (netAmount !== null && quantity.gt(0) && netAmount.lt(pricePerUnit.times(quantity))) {
    return { chargedPerUnit: netAmount.div(quantity), chargedFrom: 'net_amount', lineAdjustment: ZERO };
  }
  return { chargedPerUnit: pricePerUnit, chargedFrom: 'price', lineAdjustment: ZERO };
}
