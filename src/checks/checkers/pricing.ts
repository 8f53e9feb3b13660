// The lines whose price the agreement fixes: matched to an amount price item that applies on the
// invoice date and is priced in the line's unit (or one side gives no unit). Shared by the unit
// price checker, the missing exchange rate checker and the discount checker.
import { convertToInvoiceCurrency, type Conversion } from './currency.js';
import { matchPriceItem, type PriceItemMatch } from './match.js';
import { decOrNull, lineFigures, type Dec } from './money.js';
import type { CheckInput, CheckLine } from './types.js';

export interface PricedLine {
  line: CheckLine;
  match: PriceItemMatch;
  quantity: Dec;
  unitPrice: Dec;
  /** null when the line gives none (the price is per one unit). */
  baseQuantity: Dec | null;
  /** The line's price for one unit: unit price / base quantity. */
  chargedPerUnit: Dec;
  /** The agreed price for one unit, in the price item's currency. */
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
    const { quantity, unitPrice, baseQuantity: base } = lineFigures(line);
    const agreedPerUnit = decOrNull(match.priceItem.amount);
    if (quantity === null || unitPrice === null || agreedPerUnit === null) return [];
    if (base !== null && base.lte(0)) return [];
    const chargedPerUnit = base === null ? unitPrice : unitPrice.div(base);
    const conversion = convertToInvoiceCurrency(agreedPerUnit, match.priceItem.currencyCode, invoice, rates);
    return [{ line, match, quantity, unitPrice, baseQuantity: base, chargedPerUnit, agreedPerUnit, conversion }];
  });
}
