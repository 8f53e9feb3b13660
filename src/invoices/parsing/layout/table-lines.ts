/** The rows of a read line table as invoice lines. */
import { Decimal } from 'decimal.js';
import type { AllowanceCharge, InvoiceLine } from '../model.js';
import { parseNumber, parseRate, type DecimalMark } from '../../../shared/layout/numbers.js';
import { discountOf, lenientNumber, quantityOf, type ReadTable } from './table.js';

export function tableLines(table: ReadTable, mark: DecimalMark): InvoiceLine[] {
  return table.rows.map((row, index) => {
    const { cells } = row;
    const quantity = cells.quantity === undefined ? null : quantityOf(cells.quantity, mark);
    const unitPrice = cells.unitPrice === undefined ? null : lenientNumber(withoutCurrency(cells.unitPrice), mark);
    const netAmount = cells.amount === undefined ? null : parseNumber(cells.amount, mark);
    const allowanceCharges: AllowanceCharge[] = [];
    if (cells.discount !== undefined && quantity?.quantity && unitPrice) {
      const discount = discountOf(cells.discount, new Decimal(quantity.quantity).times(unitPrice), mark);
      if (discount && !discount.isZero()) {
        allowanceCharges.push({
          isCharge: false,
          amount: discount.toFixed(2),
          baseAmount: null,
          reason: cells.discount,
          reasonCode: null,
          vatCategory: null,
          vatPercent: null,
        });
      }
    }
    const position = cells.position === undefined ? null : cells.position.replace(/[.)]$/u, '');
    return {
      id: position && /^\d{1,6}$/u.test(position) ? position : String(index + 1),
      description: cells.description?.trim() || null,
      sellerItemId: cells.itemNumber?.trim() || null,
      buyerItemId: null,
      standardItemId: null,
      quantity: quantity?.quantity ?? null,
      unitCode: cells.unit?.trim() || quantity?.unit || null,
      unitPrice,
      priceBaseQuantity: null,
      netAmount,
      vatCategory: null,
      vatPercent: cells.vatRate === undefined ? null : parseRate(cells.vatRate, mark),
      period: null,
      allowanceCharges,
    };
  });
}

/** "160,00 €" / "9.90 EUR": the price without its currency word. */
function withoutCurrency(cell: string): string {
  const words = cell.split(' ');
  const last = words.at(-1) ?? '';
  return words.length > 1 && (/^[A-Z]{3}$/u.test(last) || ['€', '$', '£', 'kr', 'kr.'].includes(last))
    ? words.slice(0, -1).join(' ')
    : cell;
}
