/**
 * Reads the few values that can be read reliably from an invoice's printed text: number,
 * dates, supplier name, currency and totals. Every value comes from a labelled position
 * ("Rechnungsnummer:", "Brutto", "Due payable:") and amounts are cross-checked where the page
 * allows it (net + VAT = gross, base × rate = VAT). Invoice lines are not read: table layouts
 * vary too much to read them without guessing.
 */
import { trimCharsEnd } from '../../shared/text-scan.js';
import { parsePrintedDate } from './dates.js';
import { decimalsClose, multiplyPercent, sumDecimals } from './decimal.js';
import {
  emptyParty,
  emptyTotals,
  missingKeyFields,
  notInvoice,
  type DecimalString,
  type InvoiceOutcome,
  type NormalizedInvoice,
  type NotInvoiceOutcome,
  type VatBreakdownEntry,
} from './model.js';
import {
  AMOUNT_DUE_PATTERNS,
  ANY_PRINTED_DATE,
  COMPANY_NAME,
  CREDIT_NOTE_TITLE,
  CURRENCY_LABEL,
  CURRENCY_MENTION,
  DUE_DATE_PATTERNS,
  GENERIC_DATE_PATTERN,
  GROSS_TOTAL_PATTERNS,
  INVOICE_NUMBER_PATTERNS,
  ISSUE_DATE_PATTERNS,
  NET_TOTAL_PATTERNS,
  SENDER_LINE_SEPARATOR,
  SINGLE_VAT_LINE,
  SUPPLIER_LABEL,
  VAT_BREAKDOWN_ROW,
  VAT_TOTAL_PATTERNS,
  currencyCodeOf,
  parsePrintedAmount,
  parsePrintedRate,
  type LinePattern,
  pdfTextLine,
} from './pdf-text-patterns.js';

/** Bounds the work on pathological text layers (lines are cut by pdfTextLine). */
const MAX_LINES = 5000;
/** Printed amounts are rounded to cents; sums of rounded values may be off by a cent or two. */
const CENT_TOLERANCE = '0.02';
/** The title block of a document is at its top. */
const TITLE_LINES = 25;

interface LabelledAmount {
  amount: DecimalString;
  currencyCode: string | null;
}

export function readInvoiceFromText(rawLines: readonly string[]): InvoiceOutcome | NotInvoiceOutcome {
  const lines = rawLines.slice(0, MAX_LINES).map(pdfTextLine);
  const warnings = ['Read from the PDF text layer (no embedded e-invoice XML): values come from printed labels and invoice lines were not read.'];
  const number = findInvoiceNumber(lines);
  const totals = readTotals(lines, warnings);
  if (number === null || totals.anyTotal === null) return notInvoice(notInvoiceReason(number, totals.anyTotal));
  return { kind: 'invoice', invoice: assembleInvoice(lines, number, totals), format: 'pdf_text', warnings };
}

function assembleInvoice(lines: readonly string[], number: FoundNumber, totals: TextTotals): NormalizedInvoice {
  const invoice: Omit<NormalizedInvoice, 'extraction'> = {
    documentType: lines.slice(0, TITLE_LINES).some((line) => CREDIT_NOTE_TITLE.test(line)) ? 'credit_note' : 'invoice',
    typeCode: null,
    invoiceNumber: number.value,
    issueDate: findIssueDate(lines, number),
    dueDate: findFirstDate(lines, DUE_DATE_PATTERNS),
    currencyCode: findCurrency(lines, totals.currencyCode),
    taxCurrencyCode: null,
    exchangeRate: null,
    supplier: { ...emptyParty(), name: findSupplierName(lines) },
    recipient: emptyParty(),
    buyerReference: null,
    orderReference: null,
    contractReference: null,
    creditedInvoiceReference: null,
    deliveryAddress: null,
    deliveryCountryCode: null,
    deliveryDate: null,
    invoicePeriod: null,
    lines: [],
    allowanceCharges: [],
    vatBreakdown: totals.vatBreakdown,
    totals: { ...emptyTotals(), taxExclusive: totals.net, vatTotal: totals.vat, taxInclusive: totals.gross, payable: totals.due },
    notes: [],
  };
  return { ...invoice, extraction: { method: 'pdf_text', linesReliable: false, missing: [...missingKeyFields(invoice), 'lines'] } };
}

function notInvoiceReason(number: FoundNumber | null, total: DecimalString | null): string {
  const missing = [number === null ? 'no invoice number' : null, total === null ? 'no invoice total' : null].filter(Boolean).join(' and ');
  return `The PDF has no embedded e-invoice XML and its text shows ${missing}; it does not look like an invoice.`;
}

interface FoundNumber {
  value: string;
  lineIndex: number;
  /** Where on its line the number ends, to find "Rechnung # X von 09.05.2017". */
  endOffset: number;
}

function findInvoiceNumber(lines: readonly string[]): FoundNumber | null {
  for (const pattern of INVOICE_NUMBER_PATTERNS) {
    for (const [lineIndex, line] of lines.entries()) {
      const match = pattern.exec(line);
      const value = match?.[1] === undefined ? undefined : trimCharsEnd(match[1], '.,|/-');
      if (match && value && !parsePrintedDate(value)) return { value, lineIndex, endOffset: match.index + match[0].length };
    }
  }
  return null;
}

/** A labelled date; else a date following the invoice number on its line; else a "Date:" line. */
function findIssueDate(lines: readonly string[], number: FoundNumber): string | null {
  const labelled = findFirstDate(lines, ISSUE_DATE_PATTERNS);
  if (labelled) return labelled;
  const afterNumber = lines[number.lineIndex]?.slice(number.endOffset).match(ANY_PRINTED_DATE)?.[1];
  if (afterNumber) return parsePrintedDate(afterNumber);
  return findFirstDate(lines, [GENERIC_DATE_PATTERN]);
}

function findFirstDate(lines: readonly string[], patterns: readonly LinePattern[]): string | null {
  for (const pattern of patterns) {
    for (const line of lines) {
      const raw = pattern.exec(line)?.[1];
      const date = raw ? parsePrintedDate(raw) : null;
      if (date) return date;
    }
  }
  return null;
}

function findLabelledAmount(lines: readonly string[], patterns: readonly LinePattern[]): LabelledAmount | null {
  for (const pattern of patterns) {
    for (const line of lines) {
      const match = pattern.exec(line);
      const amount = match?.[2] ? parsePrintedAmount(match[2]) : null;
      if (match && amount !== null) return { amount, currencyCode: currencyCodeOf(match[1] ?? match[3]) };
    }
  }
  return null;
}

interface TextTotals {
  net: DecimalString | null;
  vat: DecimalString | null;
  gross: DecimalString | null;
  due: DecimalString | null;
  /** Any total at all, the evidence that this is an invoice. */
  anyTotal: DecimalString | null;
  vatBreakdown: VatBreakdownEntry[];
  currencyCode: string | null;
}

function readTotals(lines: readonly string[], warnings: string[]): TextTotals {
  const net = findLabelledAmount(lines, NET_TOTAL_PATTERNS);
  const gross = findLabelledAmount(lines, GROSS_TOTAL_PATTERNS);
  const due = findLabelledAmount(lines, AMOUNT_DUE_PATTERNS);
  const vatBreakdown = readVatBreakdown(lines, net?.amount ?? null);
  const vat = findLabelledAmount(lines, VAT_TOTAL_PATTERNS)?.amount ?? sumOfTaxAmounts(vatBreakdown) ?? findUnlabelledRateVat(lines);
  const taxInclusive = gross?.amount ?? grossFromAmountDue(net?.amount ?? null, vat, due?.amount ?? null, warnings);
  checkNetPlusVat(net?.amount ?? null, vat, taxInclusive, warnings);
  return {
    net: net?.amount ?? null,
    vat,
    gross: taxInclusive,
    due: due?.amount ?? null,
    anyTotal: taxInclusive ?? due?.amount ?? net?.amount ?? null,
    vatBreakdown,
    currencyCode: gross?.currencyCode ?? due?.currencyCode ?? net?.currencyCode ?? null,
  };
}

/**
 * Without an explicit gross label, the amount due is the total incl. VAT unless net + VAT
 * says otherwise (a prepayment, for instance).
 */
function grossFromAmountDue(net: DecimalString | null, vat: DecimalString | null, due: DecimalString | null, warnings: string[]): DecimalString | null {
  if (due === null) return null;
  if (net !== null && vat !== null) {
    const computed = sumDecimals([net, vat]);
    return computed !== null && decimalsClose(computed, due, CENT_TOLERANCE) ? due : null;
  }
  warnings.push('The total incl. VAT was taken from the amount due; net and VAT totals could not be read to confirm it.');
  return due;
}

function checkNetPlusVat(net: DecimalString | null, vat: DecimalString | null, gross: DecimalString | null, warnings: string[]): void {
  if (net === null || vat === null || gross === null) return;
  const computed = sumDecimals([net, vat]);
  if (computed !== null && !decimalsClose(computed, gross, CENT_TOLERANCE)) {
    warnings.push(`The printed totals do not add up: net ${net} + VAT ${vat} ≠ total ${gross}.`);
  }
}

/** Rows "rate % base tax" whose tax really is base × rate; a single "USt. (19 %) x" line when it matches the net total. */
function readVatBreakdown(lines: readonly string[], net: DecimalString | null): VatBreakdownEntry[] {
  const entries = new Map<string, VatBreakdownEntry>();
  for (const line of lines) {
    const entry = breakdownRow(line) ?? singleRateRow(line, net);
    if (entry) entries.set(`${entry.vatPercent}|${entry.taxableAmount}|${entry.taxAmount}`, entry);
  }
  return [...entries.values()];
}

function breakdownRow(line: string): VatBreakdownEntry | null {
  const match = VAT_BREAKDOWN_ROW.exec(line);
  if (!match?.[1] || !match[2] || !match[3]) return null;
  return verifiedEntry(parsePrintedRate(match[1]), parsePrintedAmount(match[2]), parsePrintedAmount(match[3]));
}

function singleRateRow(line: string, net: DecimalString | null): VatBreakdownEntry | null {
  const match = SINGLE_VAT_LINE.exec(line);
  if (!match?.[1] || !match[3] || net === null) return null;
  return verifiedEntry(parsePrintedRate(match[1]), net, parsePrintedAmount(match[3]));
}

function verifiedEntry(rate: DecimalString | null, base: DecimalString | null, tax: DecimalString | null): VatBreakdownEntry | null {
  if (rate === null || base === null || tax === null) return null;
  if (!decimalsClose(multiplyPercent(base, rate), tax, CENT_TOLERANCE)) return null;
  // The category is not printed; "S" would be a guess for non-zero rates.
  return { category: null, vatPercent: rate, taxableAmount: base, taxAmount: tax };
}

function sumOfTaxAmounts(entries: readonly VatBreakdownEntry[]): DecimalString | null {
  return entries.length === 0 ? null : sumDecimals(entries.map((entry) => entry.taxAmount));
}

/** "USt. 16,61 €" / "VAT (20%) 20.00" when no breakdown could be verified. */
function findUnlabelledRateVat(lines: readonly string[]): DecimalString | null {
  for (const line of lines) {
    const raw = SINGLE_VAT_LINE.exec(line)?.[3];
    const amount = raw ? parsePrintedAmount(raw) : null;
    if (amount !== null) return amount;
  }
  return null;
}

function findCurrency(lines: readonly string[], totalsCurrency: string | null): string | null {
  if (totalsCurrency) return totalsCurrency;
  for (const line of lines) {
    const labelled = CURRENCY_LABEL.exec(line)?.[1];
    if (labelled) return labelled;
  }
  return mostFrequentCurrency(lines);
}

function mostFrequentCurrency(lines: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const line of lines) {
    for (const token of line.match(CURRENCY_MENTION) ?? []) {
      const code = currencyCodeOf(token);
      if (code) counts.set(code, (counts.get(code) ?? 0) + 1);
    }
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  return ranked[0]?.[0] ?? null;
}

/**
 * The seller's name: after a seller label; else the first part of the one-line sender
 * address above the address window ("Hetzner Online GmbH • Industriestr. 25 • ..."); else the
 * company name printed most often (letterhead and footer), if it appears at least twice.
 */
function findSupplierName(lines: readonly string[]): string | null {
  return supplierFromLabel(lines) ?? supplierFromSenderLine(lines) ?? mostRepeatedCompany(lines);
}

function supplierFromLabel(lines: readonly string[]): string | null {
  for (const [index, line] of lines.entries()) {
    const label = SUPPLIER_LABEL.exec(line);
    const rest = label ? line.slice(label[0].length).trim() : undefined;
    if (rest === undefined) continue;
    const candidate = rest !== '' ? rest : (lines[index + 1]?.trim() ?? '');
    if (COMPANY_NAME.test(candidate)) return candidate;
  }
  return null;
}

function supplierFromSenderLine(lines: readonly string[]): string | null {
  for (const line of lines) {
    const segments = line.split(SENDER_LINE_SEPARATOR).map((segment) => segment.trim());
    const first = segments[0];
    if (segments.length >= 3 && first !== undefined && COMPANY_NAME.test(first)) return first;
  }
  return null;
}

function mostRepeatedCompany(lines: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const line of lines) {
    for (const segment of line.split(SENDER_LINE_SEPARATOR)) {
      const name = segment.trim();
      if (COMPANY_NAME.test(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  const [best] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  return best && best[1] >= 2 ? best[0] : null;
}
