// How a reading is compared with its ground truth, shared by bench:extraction and bench:ocr so
// their figures mean the same: amounts by value, ids without separators, text by its words.
import { Decimal } from 'decimal.js';
import { invoiceFieldValue, type InvoiceLine } from '../../src/invoices/parsing/model.js';
import { numberShape } from '../../src/shared/layout/numbers.js';

const DECIMAL_FIELDS = new Set([
  'totals.taxExclusive',
  'totals.vatTotal',
  'totals.taxInclusive',
  'totals.payable',
  'quantity',
  'unitPrice',
  'netAmount',
  'vatPercent',
  'discountPercent',
]);
const ID_FIELDS = new Set(['supplier.orgNumber', 'supplier.vatId']);

export const headerValue = invoiceFieldValue;

export function lineValue(line: InvoiceLine, key: string): string | null {
  if (key === 'discountPercent') {
    const reason = line.allowanceCharges.find((charge) => !charge.isCharge)?.reason ?? null;
    const shape = reason ? numberShape(reason) : null;
    return shape ? shape.body.replace(',', '.') : null;
  }
  return (line as unknown as Record<string, string | null>)[key] ?? null;
}

export function same(key: string, expected: string | null, actual: string | null): boolean {
  if (expected === null) return actual === null;
  if (actual === null) return false;
  if (DECIMAL_FIELDS.has(key)) {
    try {
      return new Decimal(expected).equals(new Decimal(actual));
    } catch {
      return false;
    }
  }
  if (ID_FIELDS.has(key))
    return expected.replace(/[^0-9A-Za-z]/g, '').toUpperCase() === actual.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
  return expected.replace(/\s+/g, ' ').trim() === actual.replace(/\s+/g, ' ').trim();
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0;
}
