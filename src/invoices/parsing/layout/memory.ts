/**
 * A supplier's layout as one person's correction taught it (docs/invoice-parsing.md, "Learning
 * from a correction"): where each confirmed value stood relative to its nearest label and to the
 * page, and the x-ranges of the line table's columns. Plain JSON: it is stored per organization
 * and supplier and crosses into the parser's helper process. Never written by hand.
 */
// Not from ../model.js: the model names these memories, so importing it back would be a cycle.
import type { DecimalString } from '../../../shared/money.js';

/** A calendar date as "YYYY-MM-DD" (the model's IsoDate). */
type IsoDate = string;

/** The fields a memory can hold, named as in `extraction.missing` and `confidence.fields`. */
export const REMEMBERED_FIELDS = [
  'invoiceNumber',
  'issueDate',
  'dueDate',
  'orderReference',
  'contractReference',
  'buyerReference',
  'totals.taxExclusive',
  'totals.vatTotal',
  'totals.taxInclusive',
  'totals.payable',
] as const;
export type RememberedField = (typeof REMEMBERED_FIELDS)[number];

export type FieldKind = 'text' | 'date' | 'amount';

export function kindOf(field: RememberedField): FieldKind {
  if (field === 'issueDate' || field === 'dueDate') return 'date';
  return field.startsWith('totals.') ? 'amount' : 'text';
}

/** Where a value stood: after its label on the label's line, or under it. */
export interface ValueAnchor {
  /** The label's words, normalized (`normalizeLabel`): "ledger key", "settle the sum of". */
  label: string;
  direction: 'right' | 'below';
  /** From the label's left edge and baseline to the value's, in the label's font sizes. */
  dx: number;
  dy: number;
  /** The value's position on its page (page units from the top left); picks among repeated labels. */
  page: number;
  x: number;
  y: number;
}

export interface ColumnRange {
  x0: number;
  x1: number;
}

export type RememberedColumn = 'description' | 'quantity' | 'unitPrice' | 'amount';

export interface LayoutMemory {
  version: 1;
  fields: Partial<Record<RememberedField, ValueAnchor[]>>;
  /** The line table's columns, from the corrected lines' values; null when none were found. */
  columns: Partial<Record<RememberedColumn, ColumnRange>> | null;
  /** The fields the person changed: what the first reading got wrong. */
  misread: RememberedField[];
}

/** The values a person confirmed (or corrected) on an invoice read from a PDF. */
export interface ConfirmedValues {
  invoiceNumber: string | null;
  issueDate: IsoDate | null;
  dueDate: IsoDate | null;
  orderReference: string | null;
  contractReference: string | null;
  buyerReference: string | null;
  totals: {
    taxExclusive: DecimalString | null;
    vatTotal: DecimalString | null;
    taxInclusive: DecimalString | null;
    payable: DecimalString | null;
  };
  lines: Array<{
    description: string | null;
    quantity: DecimalString | null;
    unitPrice: DecimalString | null;
    netAmount: DecimalString | null;
  }>;
  /** The fields the correction changed (`lines` when the line list was replaced). */
  corrected: Array<RememberedField | 'lines'>;
}

export function confirmedValueOf(values: ConfirmedValues, field: RememberedField): string | null {
  switch (field) {
    case 'totals.taxExclusive':
      return values.totals.taxExclusive;
    case 'totals.vatTotal':
      return values.totals.vatTotal;
    case 'totals.taxInclusive':
      return values.totals.taxInclusive;
    case 'totals.payable':
      return values.totals.payable;
    default:
      return values[field];
  }
}

/** A memory as the reader is handed it: the supplier keys it was learned under, and what it holds. */
export interface SupplierLayoutMemory {
  supplierKeys: string[];
  memory: LayoutMemory;
}
