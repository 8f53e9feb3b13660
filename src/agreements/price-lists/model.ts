import type { Decimal } from 'decimal.js';

// Public shapes of the price-list reader, and the limits it enforces.

export interface PriceListReadInput {
  bytes: Uint8Array;
  fileName: string;
  mimeType?: string;
  /** ISO 4217 code used for rows that name no currency of their own. */
  defaultCurrency: string;
  /** XLSX only: read just these worksheets (by name). Ignored for CSV. */
  worksheets?: string[];
}

export type PriceListFailureCode =
  | 'unsupported_format'
  | 'unreadable'
  | 'no_header_row'
  | 'too_large'
  | 'too_large_inflated'
  | 'timeout'
  | 'extraction_incomplete'
  /** A scanned PDF read without OCR (the preview); the import OCRs it. */
  | 'scanned';

export interface PriceListFailure {
  code: PriceListFailureCode;
  message: string;
}

/** Our field names; `columns` maps each one found to the header as written in the file. */
export type PriceListField =
  'description' | 'sellerItemId' | 'unit' | 'price' | 'currency' | 'validFrom' | 'validUntil' | 'rate' | 'basis';

export interface PriceListSheet {
  name: string;
  headerRowNumber: number | null;
  columns: Partial<Record<PriceListField, string>>;
}

export type PriceItemPrice = { type: 'amount'; amount: string } | { type: 'rate'; fraction: string; basis: string };

export interface PriceItem {
  description: string;
  sellerItemId: string | null;
  unit: string | null;
  currencyCode: string;
  price: PriceItemPrice;
  validFrom: string | null;
  validUntil: string | null;
}

export interface PriceListRow {
  sheet: string;
  /** 1-based, as the user sees it: the Excel row number or the CSV line where the record starts. */
  rowNumber: number;
  /** Cells as written, keyed by their column's header. */
  raw: Record<string, string>;
  outcome: 'accepted' | 'rejected';
  reason: string | null;
  item: PriceItem | null;
}

export interface PriceListReadResult {
  kind: 'read' | 'failed';
  failure?: PriceListFailure;
  sheets: PriceListSheet[];
  rows: PriceListRow[];
  complete: boolean;
  /**
   * A PDF without a text layer (a scan): its words need OCR, which runs page by page in the
   * parser pool (readPriceListIsolated), not inside the helper that found this.
   */
  scanned?: boolean;
}

export const LIMITS = {
  maxInputBytes: 20 * 1024 * 1024,
  maxDataRows: 50_000,
  /** Header search depth: title rows above the header are common, 30 rows of them are not. */
  headerScanRows: 30,
  /** An XLSX is a zip; this bounds what it may inflate to, so a zip bomb cannot exhaust memory. */
  maxUnzippedBytes: 150 * 1024 * 1024,
  maxZipEntries: 10_000,
} as const;

// ---- Internal: what the CSV and XLSX readers hand to the row interpreter ----

/** One cell after format-specific decoding. `text` is always set: it is what `raw` shows. */
export interface SourceCell {
  text: string;
  /** Exact value of an Excel numeric cell (already cleaned of binary noise). */
  number?: Decimal;
  /** Calendar date of an Excel date cell, YYYY-MM-DD. */
  date?: string;
  /** Excel number format shows a percent: the stored number is already a fraction. */
  percentFormat?: boolean;
  /** Currency token taken from an Excel number format, e.g. "€" or "NOK". */
  formatCurrency?: string;
  /** A formula whose result was never saved (file written by a program that does not calculate). */
  formulaWithoutResult?: boolean;
}

export interface SourceRow {
  rowNumber: number;
  /** Index 0 is the first column; holes are empty cells. */
  cells: (SourceCell | undefined)[];
}

export interface SourceSheet {
  name: string;
  /** How messages name it: "sheet 'Prices'" for a worksheet, "the file" for a CSV. */
  label: string;
  rows: SourceRow[];
  /** Problems met while reading this sheet that lost data (e.g. a CSV quote never closed). */
  problems: string[];
}
