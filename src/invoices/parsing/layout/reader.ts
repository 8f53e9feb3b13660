/**
 * The layout reader: positioned words in, a normalized invoice out, without templates. Labels
 * are found from dictionaries and their values by geometry; the line table by its header
 * words and column edges; the decimal mark and the date order are decided per document; and the
 * reading is checked against the invoice's own arithmetic, which gives each field and the lines
 * a confidence. A reading that does not add up is kept and marked for review.
 */
import {
  emptyParty,
  emptyTotals,
  missingKeyFields,
  notInvoice,
  type DecimalString,
  type InvoiceOutcome,
  type IsoDate,
  type NormalizedInvoice,
  type NotInvoiceOutcome,
} from '../model.js';
import { dateIn, type DateOrder } from './dates.js';
import {
  DECIMAL_COMMA_LANGUAGES,
  dateOrder,
  detectLanguage,
  documentCurrency,
  isCreditNote,
  notInvoiceReason,
} from './document.js';
import { FieldReader, isWeak, strength } from './field-reader.js';
import { findLabels, type LabelHit } from './fields.js';
import type { Language } from './labels.js';
import { buildLines, type Line } from '../../../shared/layout/lines.js';
import { parseAmount, voteDecimalMark, type DecimalMark } from '../../../shared/layout/numbers.js';
import { blockLines, buyerFromAddressBlock, supplierFromLayout } from './parties.js';
import { confidenceOf, reviewReasons, rowScore } from './review.js';
import { readTable, rowArithmetic } from './table.js';
import { tableLines } from './table-lines.js';
import { duePhrase, titleNumber } from './title.js';
import { repairNumberCells, repairOcrMisreads } from './ocr-misreads.js';
import { amountsOf, chooseTotals, equal, readVatRows, sum, type TotalsReading } from './totals.js';
import {
  currencyValue,
  dateValue,
  invoiceNumberValue,
  nameValue,
  orgNumberValue,
  referenceValue,
  vatIdFromOrg,
  vatIdValue,
} from './values.js';
import type { Word } from '../../../shared/layout/words.js';
import type { SupplierLayoutMemory } from './memory.js';
import { recall, type Recalled } from './recall.js';
import { RememberedValues, type RememberedTotals } from './remembered.js';
import { ibansOf, supplierKeysOf } from './supplier-keys.js';
import { SourceRecorder, wordsHolding, type PageSize } from './sources.js';

export interface LayoutOptions {
  pageCount?: number;
  /** Layout memories of the organization's suppliers: the one whose keys the document shows is used. */
  memories?: readonly SupplierLayoutMemory[];
  /** Each page's size in the words' units: with it, the reading says where each value was read from. */
  pageSizes?: ReadonlyMap<number, PageSize>;
  /** The words are OCR's: the line table's cells are put right where OCR misreads (ocr-misreads.ts). */
  ocr?: boolean;
}

export function readInvoiceFromWords(
  words: readonly Word[],
  options: LayoutOptions = {},
): InvoiceOutcome | NotInvoiceOutcome {
  const lines = buildLines(words);
  const language = detectLanguage(lines);
  const voted = voteDecimalMark(words.map((word) => word.text));
  const first: DecimalMark = voted ?? (DECIMAL_COMMA_LANGUAGES.has(language) ? ',' : '.');
  const sizes = options.pageSizes ?? new Map<number, PageSize>();
  const ocr = options.ocr ?? false;
  let reading = readBest(lines, first, language, null, sizes, ocr);
  const supplierKeys = supplierKeysOf(reading.invoice.supplier, ibansOf(lines));
  const memory = options.memories?.find((entry) => entry.supplierKeys.some((key) => supplierKeys.includes(key)));
  if (memory) reading = preferred(reading, readBest(lines, first, language, recall(memory.memory, lines), sizes, ocr));
  if (supplierKeys.length > 0) reading.invoice.extraction.supplierKeys = supplierKeys;
  const refusal = notInvoiceReason(lines, reading, options.pageCount ?? 1);
  if (refusal) return notInvoice(refusal);
  return { kind: 'invoice', invoice: reading.invoice, format: 'pdf_text', warnings: reading.warnings };
}

function readBest(
  lines: readonly Line[],
  first: DecimalMark,
  language: Language,
  recalled: Recalled | null,
  sizes: ReadonlyMap<number, PageSize>,
  ocr: boolean,
): Reading {
  const reading = readWithMark(lines, first, language, recalled, sizes, ocr);
  if (reading.score >= 1) return reading;
  const other = readWithMark(lines, first === ',' ? '.' : ',', language, recalled, sizes, ocr);
  return other.score > reading.score + 0.5 ? other : reading;
}

/**
 * The reading with the supplier's remembered layout stands when it found what it remembered and
 * adds up at least as well as the reading without it, with no more reasons for review; otherwise
 * the layout changed and the generic reading stands.
 */
function preferred(generic: Reading, remembered: Reading): Reading {
  const used = remembered.invoice.extraction.layoutMemory?.fields ?? [];
  const reasons = (reading: Reading) => reading.invoice.extraction.reviewReasons?.length ?? 0;
  if (used.length > 0 && remembered.score >= generic.score && reasons(remembered) <= reasons(generic)) {
    remembered.warnings.push(
      `Read with the layout learned from a correction of this supplier's earlier invoice (${used.join(', ')}).`,
    );
    return remembered;
  }
  generic.warnings.push(
    "This supplier's remembered layout did not fit this document (not found, or it did not add up); it was read without it.",
  );
  return generic;
}

interface Reading {
  invoice: NormalizedInvoice;
  warnings: string[];
  /** How well the reading adds up: 0 nothing checks, 1 everything. */
  score: number;
  hasTotal: boolean;
  hasNumber: boolean;
  rowCount: number;
}

function readWithMark(
  lines: readonly Line[],
  mark: DecimalMark,
  language: Language,
  recalled: Recalled | null,
  sizes: ReadonlyMap<number, PageSize>,
  ocr: boolean,
): Reading {
  const warnings: string[] = [];
  const memory = new RememberedValues(recalled);
  const read = readTable(lines, mark, ocr);
  const table = read && ocr ? repairNumberCells(read) : read;
  const skip = table?.tableLines ?? new Set<number>();
  const hits = findLabels(lines, skip);
  const labelled = new Set(hits.map((hit) => `${hit.line.index}:${hit.segmentIndex}`));
  const fields = new FieldReader(hits, lines, labelled);

  const title = titleNumber(lines);
  const labelledNumber = fields.first('invoiceNumber', invoiceNumberValue);
  // "Handelsrechnung (380) Nr. 471102 vom 05.03.2018": the title's number beats a bare "Nummer:".
  const invoiceNumber =
    memory.value('invoiceNumber', invoiceNumberValue) ??
    (title && (!labelledNumber || isWeak(labelledNumber.hit))
      ? { value: title.number, hit: title.hit, candidate: title.candidate }
      : labelledNumber);
  const labelledIssue = fields.first('issueDate', dateValue);
  const issue =
    memory.value('issueDate', dateValue) ??
    (title?.date && (!labelledIssue || isWeak(labelledIssue.hit))
      ? { value: title.date, hit: title.hit, candidate: title.candidate }
      : labelledIssue);
  const due = memory.value('dueDate', dateValue) ?? fields.first('dueDate', dateValue) ?? duePhrase(lines);
  const currencyLabel = fields.first('currency', currencyValue);
  const orderReference =
    memory.value('orderReference', referenceValue) ?? fields.first('orderReference', referenceValue);
  const contractReference =
    memory.value('contractReference', referenceValue) ?? fields.first('contractReference', referenceValue);
  const buyerReference =
    memory.value('buyerReference', referenceValue) ?? fields.first('buyerReference', referenceValue);
  const labelledBuyer = fields.first('buyer', nameValue);
  const buyerLines = labelledBuyer ? blockLines(lines, labelledBuyer.candidate) : new Set<number>();
  const orgNumber = fields.firstOutside('orgNumber', orgNumberValue, buyerLines);
  const vatId =
    fields.firstOutside('vatId', vatIdValue, buyerLines) ??
    vatIdFromOrg(orgNumber?.value ?? null, orgNumber?.candidate);
  const supplierName =
    fields.first('supplier', nameValue)?.value ??
    supplierFromLayout(lines, buyerLines, orgNumber?.candidate.line ?? null);
  const buyer = labelledBuyer ?? buyerFromAddressBlock(lines, supplierName);

  const order = dateOrder(lines, language, currencyLabel?.value ?? null);
  let issueDate = issue ? dateIn(issue.value, order) : null;
  let dueDate = due ? dateIn(due.value, order) : null;
  if (issue && due && issueDate && dueDate && dueDate < issueDate) {
    const other: DateOrder = order === 'dmy' ? 'mdy' : 'dmy';
    const [otherIssue, otherDue] = [dateIn(issue.value, other), dateIn(due.value, other)];
    if (otherIssue && otherDue && otherDue >= otherIssue) [issueDate, dueDate] = [otherIssue, otherDue];
  }

  const readLines = table ? tableLines(table, mark) : [];
  const invoiceLines = ocr ? repairOcrMisreads(readLines) : readLines;
  const linesSum = invoiceLines.length > 0 ? sum(invoiceLines.map((line) => line.netAmount ?? '0')) : null;
  const totalWords = new Map<string, Word[]>();
  const totals = readTotals(hits, lines, labelled, mark, skip, linesSum, memory.totals(mark), totalWords);
  const currencyCode = currencyLabel?.value ?? totals.currencyCode ?? documentCurrency(lines, language);
  const documentType = isCreditNote(lines, hits) ? 'credit_note' : 'invoice';

  const rowChecks = table ? table.rows.map((row) => rowArithmetic(row.cells, mark)) : [];
  const confidence = confidenceOf({
    invoiceNumber: invoiceNumber && strength(invoiceNumber.hit),
    issueDate: issue && strength(issue.hit),
    dueDate: due && strength(due.hit),
    supplierName: supplierName ? 0.7 : null,
    orgNumber: orgNumber ? 0.85 : null,
    vatId: vatId ? 0.85 : null,
    currencyCode: currencyLabel ? 0.95 : currencyCode ? 0.75 : null,
    totals,
    rowChecks,
    datesOrdered: issueDate !== null && dueDate !== null ? dueDate >= issueDate : null,
  });
  const review = reviewReasons(
    totals,
    linesSum,
    rowChecks,
    invoiceLines.length,
    table !== null,
    invoiceNumber !== null,
  );
  if (review.length > 0) warnings.push(...review);
  if (table && table.skippedRows > 0)
    warnings.push(
      `${table.skippedRows} page subtotal or carry-forward row(s) of the line table were not read as lines.`,
    );
  warnings.unshift(
    'Read from the PDF text layer by the layout reader (no embedded e-invoice XML); see extraction.confidence.',
  );

  const sources = new SourceRecorder(sizes);
  sources.found('invoiceNumber', invoiceNumber);
  sources.found('issueDate', issue);
  sources.found('dueDate', due);
  sources.found('currencyCode', currencyLabel);
  sources.found('orderReference', orderReference);
  sources.found('contractReference', contractReference);
  sources.found('buyerReference', buyerReference);
  sources.found('recipient.name', buyer);
  sources.found('supplier.orgNumber', orgNumber);
  sources.found('supplier.vatId', vatId);
  if (supplierName) sources.words('supplier.name', wordsHolding(lines, supplierName));
  for (const [field, words] of totalWords) sources.words(field, words);
  const lineSources = table ? table.rows.map((row) => sources.row(row.lines)) : [];

  const partial: Omit<NormalizedInvoice, 'extraction'> = {
    documentType,
    typeCode: null,
    invoiceNumber: invoiceNumber?.value ?? null,
    issueDate,
    dueDate,
    currencyCode,
    taxCurrencyCode: null,
    exchangeRate: null,
    supplier: { ...emptyParty(), name: supplierName, orgNumber: orgNumber?.value ?? null, vatId: vatId?.value ?? null },
    recipient: { ...emptyParty(), name: buyer?.value ?? null },
    buyerReference: buyerReference?.value ?? null,
    orderReference: orderReference?.value ?? null,
    contractReference: contractReference?.value ?? null,
    creditedInvoiceReference: null,
    deliveryAddress: null,
    deliveryCountryCode: null,
    deliveryDate: null,
    invoicePeriod: null,
    lines: invoiceLines,
    allowanceCharges: [],
    vatBreakdown: totals.vatBreakdown,
    totals: {
      ...emptyTotals(),
      lineExtension: linesSum,
      taxExclusive: totals.net,
      vatTotal: totals.vat,
      taxInclusive: totals.gross,
      payable: totals.due,
      prepaid: totals.prepaid,
      payableRounding: totals.rounding,
    },
    notes: [],
  };
  const missing = missingKeyFields(partial);
  if (invoiceLines.length === 0) missing.push('lines');
  const invoice: NormalizedInvoice = {
    ...partial,
    extraction: {
      method: 'pdf_text',
      linesReliable: invoiceLines.length > 0 && review.length === 0,
      missing,
      needsReview: review.length > 0,
      reviewReasons: review,
      confidence,
      ...(memory.used.length > 0 ? { layoutMemory: { fields: memory.used } } : {}),
      ...(sizes.size > 0 ? { sources: sources.fields, lineSources } : {}),
    },
  };
  const score =
    (totals.balanced ? 0.5 : 0) +
    (totals.linesMatch === true ? 0.5 : totals.linesMatch === null && totals.balanced ? 0.3 : 0) +
    rowScore(rowChecks) * 0.2;
  return {
    invoice,
    warnings,
    score,
    hasTotal: totals.gross !== null || totals.net !== null || totals.due !== null,
    hasNumber: invoiceNumber !== null,
    rowCount: invoiceLines.length,
  };
}

function readTotals(
  hits: readonly LabelHit[],
  lines: readonly Line[],
  labelled: ReadonlySet<string>,
  mark: DecimalMark,
  skip: ReadonlySet<number>,
  linesSum: DecimalString | null,
  remembered: RememberedTotals,
  words: Map<string, Word[]>,
): TotalsReading {
  const pools = {
    net: [] as string[],
    vat: [] as string[],
    gross: [] as string[],
    due: [] as string[],
    prepaid: [] as string[],
    rounding: [] as string[],
    currency: null as string | null,
  };
  // Where each amount was printed, per total: the chosen total's words are its source.
  const printed = new Map<string, Array<{ amount: DecimalString; word: Word }>>();
  const ordered = [...hits].sort((a, b) => b.line.index - a.line.index);
  for (const hit of ordered) {
    const keys = hit.keys.filter((key): key is 'net' | 'vat' | 'gross' | 'due' | 'prepaid' | 'rounding' =>
      ['net', 'vat', 'gross', 'due', 'prepaid', 'rounding'].includes(key),
    );
    if (keys.length === 0) continue;
    const { amounts, words: amountWords, currency } = amountsOf(hit, lines, labelled, mark);
    const amount = amounts.at(-1);
    const word = amountWords.at(-1);
    if (amount === undefined || word === undefined) continue;
    pools.currency ??= currency;
    const where = [...keys, ...(keys.includes('gross') && isWeak(hit) ? (['net'] as const) : [])];
    for (const key of keys) pools[key].push(amount);
    // "Total" alone may be the net (before a VAT line) as well as the gross.
    if (keys.includes('gross') && isWeak(hit)) pools.net.push(amount);
    for (const key of where) printed.set(key, [...(printed.get(key) ?? []), { amount, word }]);
  }
  // Remembered totals are tried first; the arithmetic still has to agree with them.
  for (const key of ['net', 'vat', 'gross', 'due'] as const) {
    const amount = remembered.amounts[key];
    if (amount !== undefined) pools[key].unshift(amount);
  }
  // Labels read bottom-up: the last total on the document is the one that counts.
  const breakdown = readVatRows(lines, skip, mark);
  const totals = chooseTotals(pools, breakdown, linesSum);
  remembered.confirm(totals);
  for (const [key, field] of TOTAL_SOURCES) {
    const chosen = totals[key];
    if (chosen === null || totals.inferred.includes(field)) continue;
    const word =
      printed.get(key)?.find((entry) => equal(entry.amount, chosen))?.word ??
      amountWordOutside(lines, skip, chosen, mark);
    if (word) words.set(field, [word]);
  }
  return totals;
}

export { equal as amountsEqual };
export type { IsoDate };

const TOTAL_SOURCES = [
  ['net', 'totals.taxExclusive'],
  ['vat', 'totals.vatTotal'],
  ['gross', 'totals.taxInclusive'],
  ['due', 'totals.payable'],
] as const;

/** The last word outside the line table printing the amount (a total the remembered layout gave). */
function amountWordOutside(
  lines: readonly Line[],
  skip: ReadonlySet<number>,
  amount: DecimalString,
  mark: DecimalMark,
): Word | null {
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index];
    if (!line || skip.has(line.index)) continue;
    const word = line.words.findLast((candidate) => {
      const parsed = parseAmount(candidate.text, mark);
      return parsed !== null && equal(parsed, amount);
    });
    if (word) return word;
  }
  return null;
}
