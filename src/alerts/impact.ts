import { Decimal } from 'decimal.js';
import { toDecimal, type DecimalLike } from '../shared/money.js';

// The money impact of a line alert from the price the agreement expects: what the line charges
// per unit above the expected price, times the quantity. Positive when the invoice charges more.

export interface ExpectedPrice {
  description?: string | null;
  unit?: string | null;
  currency_code?: string | null;
  price: { type: 'amount'; amount: string } | { type: 'rate'; fraction: string; basis: string };
}

export interface LinePrice {
  quantity: DecimalLike | null;
  unitPrice: DecimalLike | null;
  priceBaseQuantity: DecimalLike | null;
  netAmount: DecimalLike | null;
}

export type ImpactResult = { ok: true; amount: string } | { ok: false; reason: string };

// The line's price per one unit: the unit price per its base quantity, else net amount / quantity.
function unitPriceOf(line: LinePrice): Decimal | null {
  if (line.unitPrice !== null) {
    const base = line.priceBaseQuantity === null ? new Decimal(1) : toDecimal(line.priceBaseQuantity);
    return base.isZero() ? null : toDecimal(line.unitPrice).div(base);
  }
  if (line.netAmount !== null && line.quantity !== null && !toDecimal(line.quantity).isZero()) {
    return toDecimal(line.netAmount).div(toDecimal(line.quantity));
  }
  return null;
}

export function lineImpact(line: LinePrice, expected: ExpectedPrice[], invoiceCurrency: string | null): ImpactResult {
  const entry = expected.find((e) => e.price.type === 'amount');
  if (!entry || entry.price.type !== 'amount') return { ok: false, reason: 'expected has no price of type amount' };
  if (entry.currency_code && invoiceCurrency && entry.currency_code !== invoiceCurrency) {
    return { ok: false, reason: `the expected price is in ${entry.currency_code}, the invoice in ${invoiceCurrency}` };
  }
  const unitPrice = unitPriceOf(line);
  if (unitPrice === null || line.quantity === null)
    return { ok: false, reason: 'the invoice line has no unit price and quantity' };
  const impact = unitPrice.minus(toDecimal(entry.price.amount)).times(toDecimal(line.quantity));
  return { ok: true, amount: impact.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2) };
}
