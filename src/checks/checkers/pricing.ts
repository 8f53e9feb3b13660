// The lines whose price the agreement fixes: matched to an amount price item that applies on the
// invoice date and is priced in the line's unit (or one side gives no unit). Shared by the unit
// price checker, the missing exchange rate checker and the discount checker.
import { convertToInvoiceCurrency, type Conversion } from './currency.js';
import { matchPriceItem, type PriceItemMatch } from './match.js';
import { decOrNull, type Dec } from './money.js';
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

export function pricedLines(input: CheckInput): PricedLine[] {
  const { invoice, agreement, rates } = input;
  return invoice.lines.flatMap((line) => {
    const match = matchPriceItem(line, agreement.priceItems, { invoiceDate: invoice.issueDate, priceType: 'amount' });
    if (!match || !match.applies || match.unitsAgree === false) return [];
    const quantity = decOrNull(line.quantity);
    const unitPrice = decOrNull(line.unitPrice);
    const base = decOrNull(line.priceBaseQuantity);
    const agreedPerUnit = decOrNull(match.priceItem.amount);
    if (quantity === null || unitPrice === null || agreedPerUnit === null) return [];
    if (base !== null && base.lte(0)) return [];
    const chargedPerUnit = base === null ? unitPrice : unitPrice.div(base);
    const conversion = convertToInvoiceCurrency(agreedPerUnit, match.priceItem.currencyCode, invoice, rates);
    return [{ line, match, quantity, unitPrice, baseQuantity: base, chargedPerUnit, agreedPerUnit, conversion }];
  });
}
