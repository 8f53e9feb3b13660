/**
 * The normalized invoice model shared by every supported input format.
 *
 * Everything here is plain JSON (strings, booleans, arrays, null) because the
 * model crosses Temporal activity boundaries. Money, quantities and rates are
 * decimal strings ("1656.25", "-56.75", "25"), never JS numbers, so no value
 * is ever rounded through binary floating point.
 */

import type { DecimalString } from '../../shared/money.js';
import type { SupplierLayoutMemory } from './layout/memory.js';

export type { DecimalString };
/** A calendar date as "YYYY-MM-DD". */
export type IsoDate = string;

export type InvoiceFormat =
  | 'peppol_bis_3'
  | 'ehf_2'
  | 'finvoice_3'
  /** UN/CEFACT Cross Industry Invoice: Factur-X, ZUGFeRD 1.0/2.x, XRechnung CII. */
  | 'cii'
  | 'pdf_text'
  /** A scanned (image-only) PDF read by OCR and the layout reader. */
  | 'pdf_ocr';

export type DocumentType = 'invoice' | 'credit_note';

export interface Address {
  lines: string[];
  city: string | null;
  postalCode: string | null;
  countryCode: string | null;
}

export interface Party {
  /** Trading name as printed (UBL PartyName, CII/Finvoice seller or buyer name). */
  name: string | null;
  /** Registered legal name (UBL RegistrationName; CII and Finvoice only carry one name). */
  legalName: string | null;
  /** Legal registration number (e.g. Norwegian org. number, Finnish business ID). */
  orgNumber: string | null;
  vatId: string | null;
  countryCode: string | null;
  address: Address | null;
}

export interface Period {
  start: IsoDate | null;
  end: IsoDate | null;
}

export interface AllowanceCharge {
  /** true = charge (adds to the amount), false = allowance/discount (subtracts). */
  isCharge: boolean;
  amount: DecimalString | null;
  baseAmount: DecimalString | null;
  reason: string | null;
  reasonCode: string | null;
  /** VAT category of a document-level allowance/charge; null on line level. */
  vatCategory: string | null;
  vatPercent: DecimalString | null;
}

export interface InvoiceLine {
  id: string | null;
  /** Item name, or the item description / free text when the line has no name. */
  description: string | null;
  sellerItemId: string | null;
  buyerItemId: string | null;
  /** GTIN or other standard item identifier. */
  standardItemId: string | null;
  quantity: DecimalString | null;
  /** UN/ECE Rec. 20 unit code where the format gives one (else the unit as written). */
  unitCode: string | null;
  /** Net price per `priceBaseQuantity` units (1 when absent). */
  unitPrice: DecimalString | null;
  priceBaseQuantity: DecimalString | null;
  /** Line net amount (excl. VAT), after line allowances and charges. */
  netAmount: DecimalString | null;
  vatCategory: string | null;
  vatPercent: DecimalString | null;
  period: Period | null;
  allowanceCharges: AllowanceCharge[];
}

export interface VatBreakdownEntry {
  category: string | null;
  vatPercent: DecimalString | null;
  taxableAmount: DecimalString | null;
  taxAmount: DecimalString | null;
}

export interface InvoiceTotals {
  /** Sum of line net amounts. */
  lineExtension: DecimalString | null;
  /** Total excl. VAT (after document-level allowances and charges). */
  taxExclusive: DecimalString | null;
  /** Total incl. VAT. */
  taxInclusive: DecimalString | null;
  allowanceTotal: DecimalString | null;
  chargeTotal: DecimalString | null;
  prepaid: DecimalString | null;
  payableRounding: DecimalString | null;
  /** Amount due for payment. */
  payable: DecimalString | null;
  /** VAT total in the document currency. */
  vatTotal: DecimalString | null;
  /** VAT total in the tax currency, when the document states it separately. */
  vatTotalInTaxCurrency: DecimalString | null;
}

export interface ExchangeRate {
  sourceCurrencyCode: string | null;
  targetCurrencyCode: string | null;
  /** Multiply an amount in the source currency by this rate to get the target currency. */
  rate: DecimalString | null;
}

export interface ExtractionInfo {
  /**
   * 'structured' = read from e-invoice XML; 'pdf_text' = the layout reader on the PDF text layer;
   * 'ocr' = the layout reader on the words OCR found in a scanned PDF.
   */
  method: 'structured' | 'pdf_text' | 'ocr';
  /** false when `lines` is empty or the lines did not pass their arithmetic checks. */
  linesReliable: boolean;
  /** Key fields that could not be read (e.g. "issueDate", "totals.payable", "lines"). */
  missing: string[];
  /**
   * true when the reading does not add up (totals, lines, line arithmetic) or lacks a key field:
   * a person should look at it, and no finding from it may claim certainty. Absent = false
   * (structured readings and invoices stored before the layout reader).
   */
  needsReview?: boolean;
  /** Why it needs review, in words. */
  reviewReasons?: string[];
  /** How sure the reader is, 0..1; absent or null for structured (XML) readings, which are exact. */
  confidence?: ExtractionConfidence | null;
  /**
   * How the layout reader recognises the supplier ("org:…", "vat:…", "iban:…"): what a
   * correction's layout memory is keyed by (docs/invoice-parsing.md, "Learning from a correction").
   */
  supplierKeys?: string[];
  /** Present when the supplier's remembered layout was used: the fields it gave. */
  layoutMemory?: { fields: string[] };
  /**
   * Where each header field was read from, named as in `confidence.fields`; absent for
   * structured (XML) readings and for fields read without a position.
   */
  sources?: Record<string, ValueSource>;
  /** The box of each line's table row, in the order of `lines` (null: not known). */
  lineSources?: Array<ValueSource | null>;
}

/** A value's place on its document: page (1-based), box as fractions of the page (origin top left), text. */
export interface ValueSource {
  page: number;
  box: { x: number; y: number; width: number; height: number };
  text: string;
}

export interface ExtractionConfidence {
  /** The lowest of the key fields' and the lines' confidence. */
  overall: number;
  /** The lines as a whole: share of rows whose arithmetic holds, lowered when they do not sum to the net total. */
  lines: number;
  /** Per field read, named as in `missing` ("invoiceNumber", "totals.taxInclusive", "supplier.vatId"). */
  fields: Record<string, number>;
}

export interface NormalizedInvoice {
  documentType: DocumentType;
  /** Type code as written: "380", "381", "Z02", Finvoice "INV01"... */
  typeCode: string | null;
  invoiceNumber: string | null;
  issueDate: IsoDate | null;
  dueDate: IsoDate | null;
  currencyCode: string | null;
  taxCurrencyCode: string | null;
  exchangeRate: ExchangeRate | null;
  supplier: Party;
  recipient: Party;
  buyerReference: string | null;
  orderReference: string | null;
  contractReference: string | null;
  /** For credit notes: the number of the invoice being credited. */
  creditedInvoiceReference: string | null;
  deliveryAddress: Address | null;
  deliveryCountryCode: string | null;
  deliveryDate: IsoDate | null;
  invoicePeriod: Period | null;
  lines: InvoiceLine[];
  /** Document-level allowances and charges. */
  allowanceCharges: AllowanceCharge[];
  vatBreakdown: VatBreakdownEntry[];
  totals: InvoiceTotals;
  notes: string[];
  extraction: ExtractionInfo;
}

export type ParseOutcome =
  | { kind: 'invoice'; invoice: NormalizedInvoice; format: InvoiceFormat; warnings: string[] }
  | { kind: 'not_invoice'; reason: string }
  | { kind: 'failed'; code: ParseFailureCode; message: string };

/** Stable machine-readable failure codes; messages are for humans and may change. */
export type ParseFailureCode =
  | 'empty_file'
  | 'file_too_large'
  | 'unsupported_format'
  | 'malformed_xml'
  | 'xml_entities_rejected'
  | 'xml_too_deep'
  | 'xml_too_many_elements'
  | 'unsupported_encoding'
  | 'invalid_encoding'
  | 'malformed_pdf'
  | 'truncated_pdf'
  | 'encrypted_pdf'
  | 'no_text_layer'
  | 'pdf_timeout'
  | 'pdf_too_large_inflated'
  | 'xml_timeout'
  | 'xml_too_large_expanded'
  | 'internal_error';

export interface ParseInput {
  bytes: Uint8Array;
  /** Only a hint; the content decides the format. */
  fileName?: string;
  /** Only a hint; the content decides the format. */
  mimeType?: string;
  /**
   * Remembered layouts of the organization's suppliers (learned from corrections), for PDFs read
   * by the layout reader; the one whose supplier keys the document shows is used.
   */
  layoutMemories?: SupplierLayoutMemory[];
}

export type FailedOutcome = Extract<ParseOutcome, { kind: 'failed' }>;
export type NotInvoiceOutcome = Extract<ParseOutcome, { kind: 'not_invoice' }>;
export type InvoiceOutcome = Extract<ParseOutcome, { kind: 'invoice' }>;

export function failed(code: ParseFailureCode, message: string): FailedOutcome {
  return { kind: 'failed', code, message };
}

export function notInvoice(reason: string): NotInvoiceOutcome {
  return { kind: 'not_invoice', reason };
}

export function emptyParty(): Party {
  return { name: null, legalName: null, orgNumber: null, vatId: null, countryCode: null, address: null };
}

export function emptyTotals(): InvoiceTotals {
  return {
    lineExtension: null,
    taxExclusive: null,
    taxInclusive: null,
    allowanceTotal: null,
    chargeTotal: null,
    prepaid: null,
    payableRounding: null,
    payable: null,
    vatTotal: null,
    vatTotalInTaxCurrency: null,
  };
}

/** Key fields every importer relies on; listed in `extraction.missing` when null. */
export function missingKeyFields(invoice: Omit<NormalizedInvoice, 'extraction'>): string[] {
  const checks: Array<[string, unknown]> = [
    ['invoiceNumber', invoice.invoiceNumber],
    ['issueDate', invoice.issueDate],
    ['dueDate', invoice.dueDate],
    ['currencyCode', invoice.currencyCode],
    ['supplier.name', invoice.supplier.name],
    ['totals.taxExclusive', invoice.totals.taxExclusive],
    ['totals.vatTotal', invoice.totals.vatTotal],
    ['totals.taxInclusive', invoice.totals.taxInclusive],
    ['totals.payable', invoice.totals.payable],
  ];
  return checks.filter(([, value]) => value === null).map(([name]) => name);
}

/** A header field of a read invoice by its dotted name ("supplier.vatId", "totals.payable", "invoiceNumber"). */
export function invoiceFieldValue(invoice: NormalizedInvoice, name: string): string | null {
  switch (name) {
    case 'supplier.name':
      return invoice.supplier.name;
    case 'supplier.orgNumber':
      return invoice.supplier.orgNumber;
    case 'supplier.vatId':
      return invoice.supplier.vatId;
    case 'recipient.name':
      return invoice.recipient.name;
    case 'totals.taxExclusive':
      return invoice.totals.taxExclusive;
    case 'totals.vatTotal':
      return invoice.totals.vatTotal;
    case 'totals.taxInclusive':
      return invoice.totals.taxInclusive;
    case 'totals.payable':
      return invoice.totals.payable;
    default: {
      const value = (invoice as unknown as Record<string, unknown>)[name];
      return typeof value === 'string' ? value : null;
    }
  }
}
