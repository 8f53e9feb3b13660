import type { ClaimLetterLine } from './letter.js';

// The columns of the claim's table as the spreadsheet exports (XLSX, CSV) write it: the PDF
// letter's table (invoice, date, line, quantity, unit, charged and agreed unit price with the
// citation, difference) plus what a supplier's system needs to match rows (alert id and status,
// the line amounts, the finding in words). One list, so XLSX and CSV cannot drift apart.

/**
 * `number`: a decimal string written as a typed number in XLSX and as the plain string in CSV,
 * never neutralised (a negative amount stays `-12.50`). `date`: YYYY-MM-DD, a date cell in XLSX.
 * `text`: free text, which a spreadsheet must never execute.
 */
export type ColumnKind = 'text' | 'number' | 'date';

export interface ClaimColumn {
  key: string;
  header: string;
  kind: ColumnKind;
  /** Least decimals an XLSX number cell shows (more when the value has more). */
  minDecimals?: number;
  /** XLSX column width, in characters. */
  width: number;
  value(line: ClaimLetterLine): string | null;
}

export const CLAIM_COLUMNS: readonly ClaimColumn[] = [
  { key: 'invoice_number', header: 'Invoice number', kind: 'text', width: 18, value: (l) => l.invoiceNumber },
  { key: 'invoice_date', header: 'Invoice date', kind: 'date', width: 12, value: (l) => l.issueDate },
  { key: 'line', header: 'Line', kind: 'text', width: 8, value: (l) => l.lineReference },
  { key: 'description', header: 'Description', kind: 'text', width: 40, value: (l) => l.description },
  { key: 'quantity', header: 'Quantity', kind: 'number', minDecimals: 0, width: 10, value: (l) => l.quantity },
  { key: 'unit', header: 'Unit', kind: 'text', width: 8, value: (l) => l.unit },
  {
    key: 'charged_unit_price',
    header: 'Charged unit price',
    kind: 'number',
    minDecimals: 2,
    width: 16,
    value: (l) => l.chargedUnitPrice,
  },
  {
    key: 'agreed_unit_price',
    header: 'Agreed unit price',
    kind: 'number',
    minDecimals: 2,
    width: 16,
    value: (l) => l.agreedUnitPrice,
  },
  { key: 'agreed_per', header: 'Agreed per (citation)', kind: 'text', width: 50, value: (l) => l.citation },
  {
    key: 'charged_amount',
    header: 'Charged amount',
    kind: 'number',
    minDecimals: 2,
    width: 14,
    value: (l) => l.chargedAmount,
  },
  {
    key: 'agreed_amount',
    header: 'Agreed amount',
    kind: 'number',
    minDecimals: 2,
    width: 14,
    value: (l) => l.agreedAmount,
  },
  { key: 'difference', header: 'Difference', kind: 'number', minDecimals: 2, width: 14, value: (l) => l.difference },
  { key: 'currency', header: 'Currency', kind: 'text', width: 9, value: (l) => l.currencyCode },
  { key: 'finding', header: 'Finding', kind: 'text', width: 30, value: (l) => l.title },
  { key: 'explanation', header: 'Explanation', kind: 'text', width: 60, value: (l) => l.explanation },
  { key: 'alert_id', header: 'Alert id', kind: 'text', width: 38, value: (l) => l.alertId },
  { key: 'alert_status', header: 'Alert status', kind: 'text', width: 12, value: (l) => l.alertStatus },
];

/** Characters that make a spreadsheet read a cell as a formula (or DDE command) when first. */
const EXECUTABLE_FIRST = new Set(['=', '+', '-', '@', '\t', '\r']);

/**
 * A text cell as a spreadsheet must show it: one starting with a formula character gets a leading
 * apostrophe (OWASP's advice for CSV injection), so `=HYPERLINK(...)` is shown, not run.
 */
export function neutraliseFormula(text: string): string {
  return EXECUTABLE_FIRST.has(text.charAt(0)) ? `'${text}` : text;
}
