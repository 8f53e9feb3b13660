// Inputs and outputs of the compliance checkers. Plain data only: the caller loads the invoice,
// the agreement, the rates and the supplier's earlier charges, and stores the findings.
// Money, quantities and rates are decimal strings (or decimal.js values), never JS numbers.
// The output shapes are type aliases (not interfaces) so they pass as JSON values to Prisma.
import type { Decimal } from 'decimal.js';
import type { UnitConversion } from '../../agreements/units/conversion.js';

export type DecimalInput = string | Decimal;
/** A calendar date, "YYYY-MM-DD". */
export type IsoDate = string;

export interface CheckLine {
  id: string;
  position: number;
  lineNumber: string | null;
  description: string | null;
  sellerItemId: string | null;
  quantity: DecimalInput | null;
  unitCode: string | null;
  /** Net price per `priceBaseQuantity` units (per 1 unit when the base quantity is null). */
  unitPrice: DecimalInput | null;
  priceBaseQuantity: DecimalInput | null;
  /** After line-level allowances and charges. */
  netAmount: DecimalInput | null;
  periodStart: IsoDate | null;
  periodEnd: IsoDate | null;
  /**
   * Line-level allowances and charges when the caller has them. Absent or null means unknown
   * (the stored invoice line does not keep them), which lowers the line arithmetic's confidence.
   */
  allowanceCharges?: { isCharge: boolean; amount: DecimalInput | null }[] | null;
}

export interface CheckAllowanceCharge {
  /** true = charge (adds), false = allowance (subtracts). */
  isCharge: boolean;
  amount: DecimalInput | null;
  baseAmount: DecimalInput | null;
  reason: string | null;
  reasonCode: string | null;
}

export interface CheckTotals {
  lineExtension: DecimalInput | null;
  allowanceTotal: DecimalInput | null;
  chargeTotal: DecimalInput | null;
  taxExclusive: DecimalInput | null;
  vatTotal: DecimalInput | null;
  taxInclusive: DecimalInput | null;
  prepaid: DecimalInput | null;
  payableRounding: DecimalInput | null;
  payable: DecimalInput | null;
}

/** amount_in_target = amount_in_source * rate (the invoice's own rate, as parsed). */
export interface CheckExchangeRate {
  sourceCurrencyCode: string | null;
  targetCurrencyCode: string | null;
  rate: DecimalInput | null;
}

export interface CheckInvoice {
  id: string;
  invoiceNumber: string | null;
  documentType: 'invoice' | 'credit_note';
  currencyCode: string | null;
  issueDate: IsoDate | null;
  periodStart: IsoDate | null;
  periodEnd: IsoDate | null;
  supplierId: string | null;
  /** The buyer's order number (BT-13); absent means unknown. */
  orderReference?: string | null;
  /** The actual delivery date (BT-72); absent means unknown. */
  deliveryDate?: IsoDate | null;
  /** How the figures were read: from structured data (UBL, CII...) or from a PDF's text. */
  readFrom?: 'structured' | 'pdf_text';
  exchangeRate: CheckExchangeRate | null;
  lines: CheckLine[];
  /** Document-level allowances and charges. */
  allowanceCharges: CheckAllowanceCharge[];
  totals: CheckTotals;
  /**
   * How the invoice was read. `needsReview` true: the reading of a PDF did not add up, so no
   * finding from its lines may claim certainty. Absent for invoices read from e-invoice XML.
   */
  extraction?: CheckExtraction;
}

export interface CheckExtraction {
  method: 'structured' | 'pdf_text' | 'ocr';
  needsReview: boolean;
  /** 0..1 for the lines as a whole; null when the reading is exact (XML). */
  linesConfidence: number | null;
}

export interface CheckPriceItem {
  id: string;
  description: string;
  sellerItemId: string | null;
  unit: string | null;
  /** null: taken to be the invoice currency (with less confidence). */
  currencyCode: string | null;
  priceType: 'amount' | 'rate';
  /** Per one `unit` (type amount). */
  amount: DecimalInput | null;
  /** 0.05 is 5 % (type rate). */
  fraction: DecimalInput | null;
  /** What the rate applies to (type rate); see `rate-terms.ts` for the words understood. */
  basis: string | null;
  /** The first day the price applies (null: from the agreement's start). */
  validFrom?: IsoDate | null;
  validUntil: IsoDate | null;
  /** Other units the price converts to: one `fromUnit` is `quantity` `toUnit` (one side is `unit`). */
  unitConversions?: UnitConversion[] | null;
  sourceDocumentId: string | null;
}

// A price item's unit conversions belong to the agreement (src/agreements/units).
export type { UnitConversion };

export interface CheckAgreement {
  id: string;
  title: string | null;
  effectiveDate: IsoDate | null;
  expirationDate: IsoDate | null;
  priceItems: CheckPriceItem[];
}

/** A central bank rate: amount_in_to = amount_in_from * rate. */
export interface RateQuote {
  rate: string;
  /** The day the rate was published for (may be before the asked date, e.g. a weekend). */
  date: IsoDate;
  /** Who publishes it, e.g. "ECB" or "Norges Bank"; quoted in the explanation. */
  source: string;
}

/** Rates preloaded by the caller; null when it has none for that pair and date. */
export type RateLookup = (from: string, to: string, date: IsoDate) => RateQuote | null;

/**
 * A line of another invoice of the same supplier. The caller leaves out credit notes, credited
 * invoices, semantic duplicates and deleted invoices, and fills the period with the line's own
 * period, falling back to its invoice's period (the rule these checkers use for the checked line).
 */
export interface PriorCharge {
  invoiceId: string;
  invoiceNumber: string | null;
  lineId: string;
  sellerItemId: string | null;
  description: string | null;
  unitCode: string | null;
  periodStart: IsoDate | null;
  periodEnd: IsoDate | null;
  quantity: DecimalInput | null;
  netAmount: DecimalInput | null;
  issueDate: IsoDate | null;
  /** Its invoice's order reference and delivery date, when known. */
  orderReference?: string | null;
  deliveryDate?: IsoDate | null;
}

/** The organization's settings the checks read. */
export interface CheckSettings {
  /**
   * How far a line's net amount may be from its quantity x price (after line allowances and
   * charges) and still be rounding, in the currency's smallest unit: 1 is one cent. Default 1.
   */
  lineRoundingMinorUnits: number;
}

export interface CheckInput {
  invoice: CheckInvoice;
  agreement: CheckAgreement;
  rates: RateLookup;
  priorCharges: PriorCharge[];
  /** Absent: the defaults (DEFAULT_CHECK_SETTINGS). */
  settings?: CheckSettings;
}

export type Confidence = 'certain' | 'high' | 'medium' | 'low';
export type CorrectionType = 'modify_invoice' | 'modify_item' | 'add_item';

export type CitationSource = {
  source_type: 'agreement_prices' | 'document_quote' | 'supplied_text' | 'invoice';
  document_id: string | null;
  price_item_id?: string | null;
};

export type Citation = {
  source_ref: number;
  citation: { source: CitationSource; quote: string };
};

export type ExpectedPrice = { type: 'amount'; amount: string } | { type: 'rate'; fraction: string; basis: string };

export type ExpectedEntry = {
  description: string;
  unit: string | null;
  currency_code: string | null;
  price: ExpectedPrice;
};

export type Finding = {
  checker: string;
  /** Stable across re-runs of the same problem: no amounts, no run-specific ids in it. */
  fingerprint: string;
  title: string;
  /** Text with [1], [2] markers referring to `citations`. */
  explanation: string;
  citations: Citation[];
  /** Invoice currency; positive = the invoice charges more than agreed; rounded half-up to the currency's minor unit, 2+ decimals. */
  impactAmount: string;
  expected: ExpectedEntry[] | null;
  confidence: Confidence;
  invoiceItemId: string | null;
  correctionType: CorrectionType;
};

export interface Checker {
  code: string;
  title: string;
  run(input: CheckInput): Finding[];
}
