/**
 * The layout reader: positioned words in, a normalized invoice out, without templates. Labels
 * are found from dictionaries and their values by geometry; the line table by its header
 * words and column edges; the decimal mark and the date order are decided per document; and the
 * reading is checked against the invoice's own arithmetic, which gives each field and the lines
 * a confidence. A reading that does not add up is kept and marked for review.
 */
import { Decimal } from 'decimal.js';
import {
  emptyParty,
  emptyTotals,
  missingKeyFields,
  notInvoice,
  type AllowanceCharge,
  type DecimalString,
  type ExtractionConfidence,
  type InvoiceLine,
  type InvoiceOutcome,
  type IsoDate,
  type NormalizedInvoice,
  type NotInvoiceOutcome,
} from '../model.js';
import { dateIn, findDate, type DateOrder, type FoundDate } from './dates.js';
import { findLabels, textOf, valuesOf, type LabelHit, type LabelKey, type ValueCandidate } from './fields.js';
import { LEGAL_FORMS, TITLES, normalizeLabel, type Language } from './labels.js';
import { buildLines, type Line } from '../../../shared/layout/lines.js';
import { parseNumber, parseRate, voteDecimalMark, type DecimalMark } from '../../../shared/layout/numbers.js';
import { discountOf, lenientNumber, quantityOf, readTable, rowArithmetic, type ReadTable } from './table.js';
import { amountsOf, chooseTotals, equal, readVatRows, sum, type TotalsReading } from './totals.js';
import type { Word } from '../../../shared/layout/words.js';

export interface LayoutOptions {
  pageCount?: number;
}

/** Labels too common to trust before a specific one ("No", "Date", "Total"). */
const WEAK_TERMS = new Set([
  'no',
  'nr',
  'n°',
  'number',
  'nummer',
  'numero',
  'numéro',
  'date',
  'dato',
  'datum',
  'pvm',
  'to',
  'til',
  'till',
  'an',
  'aan',
  'de',
  'van',
  'from',
  'fra',
  'från',
  'von',
  'invoice',
  'faktura',
  'lasku',
  'rechnung',
  'facture',
  'factuur',
  'kreditnota',
  'creditnota',
  'gutschrift',
  'avoir',
  'order',
  'ordre',
  'commande',
  'po',
  'org',
  'vat',
  'btw',
  'tax',
  'due',
  'contract',
  'contrat',
  'vertrag',
  'avtale',
  'avtal',
  'aftale',
  'sopimus',
  'kunde',
  'kund',
  'customer',
  'client',
  'klant',
  'asiakas',
]);

const DECIMAL_COMMA_LANGUAGES: ReadonlySet<Language> = new Set(['no', 'sv', 'da', 'fi', 'de', 'fr', 'nl']);
const KRONE: Partial<Record<Language, string>> = { no: 'NOK', sv: 'SEK', da: 'DKK' };
const ISO_CURRENCIES = new Set([
  'EUR',
  'USD',
  'GBP',
  'SEK',
  'NOK',
  'DKK',
  'CHF',
  'PLN',
  'CZK',
  'HUF',
  'ISK',
  'CAD',
  'AUD',
  'JPY',
]);

export function readInvoiceFromWords(
  words: readonly Word[],
  options: LayoutOptions = {},
): InvoiceOutcome | NotInvoiceOutcome {
  const lines = buildLines(words);
  const language = detectLanguage(lines);
  const voted = voteDecimalMark(words.map((word) => word.text));
  const first: DecimalMark = voted ?? (DECIMAL_COMMA_LANGUAGES.has(language) ? ',' : '.');
  let reading = readWithMark(lines, first, language);
  if (reading.score < 1) {
    const other = readWithMark(lines, first === ',' ? '.' : ',', language);
    if (other.score > reading.score + 0.5) reading = other;
  }
  const refusal = notInvoiceReason(lines, reading, options.pageCount ?? 1);
  if (refusal) return notInvoice(refusal);
  return { kind: 'invoice', invoice: reading.invoice, format: 'pdf_text', warnings: reading.warnings };
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

function readWithMark(lines: readonly Line[], mark: DecimalMark, language: Language): Reading {
  const warnings: string[] = [];
  const table = readTable(lines, mark);
  const skip = table?.tableLines ?? new Set<number>();
  const hits = findLabels(lines, skip);
  const labelled = new Set(hits.map((hit) => `${hit.line.index}:${hit.segmentIndex}`));
  const fields = new FieldReader(hits, lines, labelled);

  const title = titleNumber(lines);
  const labelledNumber = fields.first('invoiceNumber', invoiceNumberValue);
  // "Handelsrechnung (380) Nr. 471102 vom 05.03.2018": the title's number beats a bare "Nummer:".
  const invoiceNumber =
    title && (!labelledNumber || isWeak(labelledNumber.hit))
      ? { value: title.number, hit: title.hit, candidate: title.candidate }
      : labelledNumber;
  const labelledIssue = fields.first('issueDate', dateValue);
  const issue =
    title?.date && (!labelledIssue || isWeak(labelledIssue.hit))
      ? { value: title.date, hit: title.hit, candidate: title.candidate }
      : labelledIssue;
  const due = fields.first('dueDate', dateValue) ?? duePhrase(lines);
  const currencyLabel = fields.first('currency', currencyValue);
  const orderReference = fields.first('orderReference', referenceValue);
  const contractReference = fields.first('contractReference', referenceValue);
  const buyerReference = fields.first('buyerReference', referenceValue);
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

  const invoiceLines = table ? tableLines(table, mark) : [];
  const linesSum = invoiceLines.length > 0 ? sum(invoiceLines.map((line) => line.netAmount ?? '0')) : null;
  const totals = readTotals(hits, lines, labelled, mark, skip, linesSum);
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

interface Found<T> {
  value: T;
  hit: LabelHit;
  candidate: ValueCandidate;
}

class FieldReader {
  constructor(
    private readonly hits: readonly LabelHit[],
    private readonly lines: readonly Line[],
    private readonly labelled: ReadonlySet<string>,
  ) {}

  first<T>(key: LabelKey, read: (candidate: ValueCandidate) => T | null): Found<T> | null {
    return this.firstOutside(key, read, new Set());
  }

  firstOutside<T>(
    key: LabelKey,
    read: (candidate: ValueCandidate) => T | null,
    outside: ReadonlySet<number>,
  ): Found<T> | null {
    const ranked = this.hits
      .filter((hit) => hit.keys.includes(key) && !outside.has(hit.line.index))
      .sort((a, b) => rank(a) - rank(b) || a.line.index - b.line.index);
    for (const hit of ranked) {
      for (const candidate of valuesOf(hit, this.lines, this.labelled)) {
        const value = read(candidate);
        if (value !== null) return { value, hit, candidate };
      }
    }
    return null;
  }
}

function rank(hit: LabelHit): number {
  return isWeak(hit) ? 1 : 0;
}

function isWeak(hit: LabelHit): boolean {
  return WEAK_TERMS.has(hit.term);
}

function strength(hit: LabelHit): number {
  return isWeak(hit) ? 0.7 : 0.9;
}

const DOCUMENT_NUMBER = /^[\p{L}\d][\p{L}\d\-/._]{0,39}$/u;

const TITLE_WORDS: readonly string[] = [...TITLES.invoice, ...TITLES.creditNote].filter(
  (title) => !title.includes(' '),
);
const NUMBER_WORDS = new Set(['nr', 'no', 'n°', '#', 'nummer', 'number', 'numero', 'numéro', 'nro']);
const DATE_WORDS = new Set([
  'vom',
  'von',
  'dated',
  'date',
  'du',
  'van',
  'av',
  'af',
  'den',
  'of',
  'dd',
  'päivätty',
  'at',
  'on',
  'am',
  'le',
  'issued',
]);

/**
 * A number printed in the document's title: "Rechnung Nr. 471102 vom 05.03.2018",
 * "Handelsrechnung (380) Nr. 471102", "INVOICE 2025-0042", "Faktura 1234 av 8. juli 2025".
 */
function titleNumber(
  lines: readonly Line[],
): { number: string; date: FoundDate | null; hit: LabelHit; candidate: ValueCandidate } | null {
  for (const line of lines.slice(0, 40)) {
    if (line.page !== 1) break;
    const words = line.words;
    for (let index = 0; index < words.length; index += 1) {
      const word = normalizeLabel(words[index]?.text ?? '');
      if (!TITLE_WORDS.some((title) => word === title || (word.length > title.length + 2 && word.endsWith(title))))
        continue;
      let next = index + 1;
      while (
        next < words.length &&
        next <= index + 3 &&
        (/^\(.*\)$/u.test(words[next]?.text ?? '') ||
          NUMBER_WORDS.has(normalizeLabel(words[next]?.text ?? '')) ||
          words[next]?.text === ':')
      )
        next += 1;
      const valueWord = words[next];
      if (!valueWord) continue;
      const candidate: ValueCandidate = { text: valueWord.text, words: words.slice(next), where: 'inline', line };
      const number = invoiceNumberValue(candidate);
      if (!number) continue;
      let date: FoundDate | null = null;
      for (let at = next + 1; at < words.length && at <= next + 3; at += 1) {
        if (DATE_WORDS.has(normalizeLabel(words[at]?.text ?? ''))) {
          const found = findDate(words.slice(at + 1, at + 5).map((entry) => entry.text));
          if (found && found.start === 0) date = found;
        }
      }
      const first = words[index] as Word;
      const hit: LabelHit = {
        keys: ['invoiceNumber'],
        languages: [],
        wordCount: 2,
        term: 'title',
        line,
        segmentIndex: 0,
        x0: first.x,
        x1: first.x + first.width,
        rest: words.slice(next),
      };
      return { number, date, hit, candidate };
    }
  }
  return null;
}

function invoiceNumberValue(candidate: ValueCandidate): string | null {
  const word = (candidate.words[0]?.text ?? '').replace(/[:,;]$/u, '');
  if (!DOCUMENT_NUMBER.test(word) || !/\d/u.test(word)) return null;
  if (findDate([word])) return null;
  if (/^\d{1,3}(?:[.,]\d{3})*[.,]\d{2}$/u.test(word)) return null;
  return word;
}

function dateValue(candidate: ValueCandidate): FoundDate | null {
  const found = findDate(candidate.words.slice(0, 5).map((word) => word.text));
  return found && found.start <= 1 ? found : null;
}

function currencyValue(candidate: ValueCandidate): string | null {
  for (const word of candidate.words.slice(0, 3)) {
    const code = word.text.replace(/[^A-Za-z]/gu, '').toUpperCase();
    if (ISO_CURRENCIES.has(code)) return code;
  }
  return null;
}

function referenceValue(candidate: ValueCandidate): string | null {
  const text = candidate.text.trim();
  if (text === '' || text.length > 60) return null;
  const first = candidate.words[0]?.text.replace(/[:,;]$/u, '') ?? '';
  if (/\d/u.test(first) && DOCUMENT_NUMBER.test(first)) return first;
  return /\p{L}/u.test(text) && candidate.words.length <= 4 ? text : null;
}

function nameValue(candidate: ValueCandidate): string | null {
  const text = candidate.text.trim();
  if (text.length < 2 || text.length > 80 || !/\p{L}{2}/u.test(text)) return null;
  if (findDate(candidate.words.map((word) => word.text))) return null;
  return text;
}

/** "123 456 789", "556677-8899", "DE 123/456/78901", "HRB 12345": the digits of a registration number. */
function orgNumberValue(candidate: ValueCandidate): string | null {
  const parts: string[] = [];
  for (const word of candidate.words.slice(0, 5)) {
    const text = word.text.replace(/[:,;]$/u, '');
    if (/^[\d\-./ ]+$/u.test(text) || (parts.length === 0 && /^[A-Z]{2,4}$/u.test(text) && text !== 'MVA'))
      parts.push(text);
    else break;
  }
  const joined = parts.join(' ').replace(/^(?:NO|SE|DK|FI|DE|FR|NL)\s/u, '');
  const digits = joined.replace(/\D/gu, '');
  const prefixed = /^[A-Z]/u.test(joined);
  if (digits.length < (prefixed ? 3 : 5) || digits.length > 14) return null;
  return joined.replace(/[ .]/gu, '');
}

/** "NO 123 456 789 MVA", "SE556677889901", "DE123456789", "FR 12 345678901", "NL123456789B01". */
function vatIdValue(candidate: ValueCandidate): string | null {
  const joined = candidate.words
    .slice(0, 6)
    .map((word) => word.text.replace(/[:,;]$/u, ''))
    .join('')
    .replace(/[.-]/gu, '')
    .toUpperCase();
  const match =
    /^([A-Z]{2})(\d[\dA-Z]{6,13}?)(MVA)?$/u.exec(joined) ??
    /^([A-Z]{2})(\d[\dA-Z]{6,13}?)(MVA)?(?=[A-Z]{3,})/u.exec(joined);
  if (!match) return null;
  return `${match[1]}${match[2]}${match[3] ?? ''}`;
}

/** Norwegian registrations print "Org.nr 123 456 789 MVA": the MVA says the VAT id is NO + the number + MVA. */
function vatIdFromOrg(org: string | null, candidate: ValueCandidate | undefined): Found<string> | null {
  if (!org || !candidate) return null;
  const registered = candidate.words
    .slice(0, 6)
    .some((word) => word.text.replace(/[^A-Za-z]/gu, '').toUpperCase() === 'MVA');
  if (!registered) return null;
  const digits = org.replace(/\D/gu, '');
  return digits.length === 9 ? { value: `NO${digits}MVA`, hit: undefined as unknown as LabelHit, candidate } : null;
}

const PAYMENT_WORDS = new Set([
  'zahlbar',
  'remit',
  'payable',
  'pay',
  'payment',
  'due',
  'fällig',
  'betales',
  'betalas',
  'betalbar',
  'maksettava',
  'maksetaan',
  'payer',
  'payable',
  'betalen',
  'betaling',
  'betalning',
  'überweisen',
]);
const UNTIL_WORDS = new Set([
  'bis',
  'until',
  'by',
  'before',
  'zum',
  'senest',
  'senast',
  'viimeistään',
  'avant',
  'voor',
  'uiterlijk',
  'innen',
  'on',
]);

/** "Zahlbar innerhalb 21 Tagen bis 30.05.2017", "Please remit until 2020-12-12": a due date inside a sentence. */
function duePhrase(lines: readonly Line[]): Found<FoundDate> | null {
  for (const line of lines) {
    const words = line.words.map((word) => normalizeLabel(word.text));
    const trigger = words.findIndex((word) => PAYMENT_WORDS.has(word));
    if (trigger === -1) continue;
    for (let at = trigger + 1; at < words.length && at <= trigger + 8; at += 1) {
      if (!UNTIL_WORDS.has(words[at] ?? '')) continue;
      const found = findDate(line.words.slice(at + 1, at + 5).map((word) => word.text.replace(/\.$/u, '')));
      if (found && found.start === 0) {
        const candidate: ValueCandidate = { text: line.text, words: line.words.slice(at + 1), where: 'inline', line };
        const hit: LabelHit = {
          keys: ['dueDate'],
          languages: [],
          wordCount: 1,
          term: 'due',
          line,
          segmentIndex: 0,
          x0: line.words[0]?.x ?? 0,
          x1: line.words[0]?.x ?? 0,
          rest: [],
        };
        return { value: found, hit, candidate };
      }
    }
  }
  return null;
}

/** The lines of the block a buyer label introduces (its value and the address lines under it). */
function blockLines(lines: readonly Line[], candidate: ValueCandidate): Set<number> {
  const block = new Set<number>([candidate.line.index]);
  const x0 = candidate.words[0]?.x ?? 0;
  let previous = candidate.line;
  for (let index = candidate.line.index + 1; index < lines.length && block.size < 7; index += 1) {
    const line = lines[index];
    if (!line || line.page !== previous.page || line.y - previous.y > 2 * line.height) break;
    if (line.segments.some((segment) => Math.abs(segment.x0 - x0) < 2 * line.height)) {
      block.add(index);
      previous = line;
    }
  }
  if (candidate.line.index > 0) block.add(candidate.line.index - 1);
  return block;
}

/** "0155 Oslo", "111 51 Stockholm", "D-80331 München", "1015 AA Amsterdam", "Leeds LS1 6DT", "Austin, TX 78701". */
const POSTAL_LINE =
  /^(?:[A-Z]{1,2}-)?\d{4,5}(?: [A-Z]{2})? \p{L}|^\d{3} \d{2} \p{L}|^\p{L}[\p{L} ]*,? (?:[A-Z]{2} \d{5}|[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2})$/u;

/**
 * Without a buyer label: the address window. The first line of an address block (ending in a
 * postal code and city) near the top of page one that is not the supplier's own address.
 */
function buyerFromAddressBlock(lines: readonly Line[], supplierName: string | null): Found<string> | null {
  const firstPage = lines.filter((line) => line.page === 1);
  // Pages are at least A5 high: a short page of text does not pull the window up.
  const limit = Math.max(...firstPage.map((line) => line.y), 700) * 0.4;
  for (const line of firstPage) {
    if (line.y > limit) break;
    // The sender line printed small above the address window: the next line under it is the buyer.
    const sender = line.segments.find(
      (segment) => (segment.words[0]?.height ?? line.height) < 8 && (segment.text.match(/ [·•|] /gu) ?? []).length >= 2,
    );
    const under = sender
      ? lines[line.index + 1]?.segments.find((segment) => Math.abs(segment.x0 - sender.x0) < 2)
      : undefined;
    const underLine = lines[line.index + 1];
    if (
      under &&
      underLine &&
      underLine.y - line.y < 3 * (under.words[0]?.height ?? underLine.height) &&
      /\p{L}{2}/u.test(under.text)
    ) {
      return {
        value: under.text,
        hit: undefined as unknown as LabelHit,
        candidate: { text: under.text, words: under.words, where: 'below', line: underLine },
      };
    }
    for (const segment of line.segments) {
      if (!POSTAL_LINE.test(segment.text)) continue;
      let top: { line: Line; segment: typeof segment } = { line, segment };
      for (let index = line.index - 1; index >= 0 && index >= line.index - 4; index -= 1) {
        const above = lines[index];
        const aligned = above?.segments.find((candidate) => Math.abs(candidate.x0 - segment.x0) < 2);
        if (!above || !aligned || top.line.y - above.y > 2 * above.height) break;
        top = { line: above, segment: aligned };
      }
      const name = top.segment.text;
      if (top.line === line || name === supplierName || (supplierName !== null && name.includes(supplierName)))
        continue;
      if (top.line.height < 7.5 && /[·•|]/u.test(name)) continue;
      const words = top.segment.words;
      return {
        value: name,
        hit: undefined as unknown as LabelHit,
        candidate: { text: name, words, where: 'below', line: top.line },
      };
    }
  }
  return null;
}

/**
 * Without a seller label: a company name (a legal form at its end), preferring the letterhead
 * (top of page one, large type), names printed more than once, and the name beside the seller's
 * registration number; never the buyer's block.
 */
function supplierFromLayout(
  lines: readonly Line[],
  buyerLines: ReadonlySet<number>,
  orgLine: Line | null,
): string | null {
  const scores = new Map<string, number>();
  const firstPage = lines.filter((line) => line.page === 1);
  const pageBottom = Math.max(...firstPage.map((line) => line.y), 1);
  const largest = Math.max(...firstPage.map((line) => line.height), 1);
  for (const line of lines) {
    if (buyerLines.has(line.index)) continue;
    for (const segment of line.segments) {
      for (const name of companyNames(segment.text)) {
        let score = scores.get(name) ?? 0;
        score += 1;
        if (line.page === 1 && line.y < pageBottom * 0.25) score += 2;
        if (line.height >= largest * 0.95) score += 2;
        if (orgLine && Math.abs(orgLine.index - line.index) <= 2 && orgLine.page === line.page) score += 2;
        scores.set(name, score);
      }
    }
  }
  const best = [...scores.entries()].sort((a, b) => b[1] - a[1])[0];
  if (best) return best[0];
  // No legal form anywhere: the largest text at the top of page one that is not a title.
  const top = firstPage.filter((line) => line.y < pageBottom * 0.2 && !buyerLines.has(line.index));
  const titled = new Set<string>([...TITLES.invoice, ...TITLES.creditNote]);
  const biggest = top
    .flatMap((line) => line.segments.map((segment) => ({ segment, height: line.height })))
    .filter(({ segment }) => /\p{L}{3}/u.test(segment.text) && !titled.has(normalizeLabel(segment.text)))
    .sort((a, b) => b.height - a.height)[0];
  return biggest && biggest.height > largest * 0.99 ? biggest.segment.text : null;
}

const LEGAL_FORM_SET = new Set(LEGAL_FORMS.map(normalizeLabel));

/** Company names in a cell: the words up to a legal form ("Nordlys Data AS", "Bäckström AB"). */
function companyNames(text: string): string[] {
  const names: string[] = [];
  for (const part of text.split(/ [·|•–] | - |, /u)) {
    const words = part.trim().split(' ');
    for (let end = words.length; end >= 2; end -= 1) {
      const tail2 = normalizeLabel(words.slice(Math.max(0, end - 2), end).join(' '));
      const tail1 = normalizeLabel(words[end - 1] ?? '');
      if ((LEGAL_FORM_SET.has(tail1) || LEGAL_FORM_SET.has(tail2)) && /^[\p{Lu}\d]/u.test(words[0] ?? '')) {
        const name = words
          .slice(0, end)
          .join(' ')
          .replace(/[,;:]$/u, '');
        if (name.length <= 80 && !/\d{4,}/u.test(name)) names.push(name);
        break;
      }
    }
  }
  return names;
}

function readTotals(
  hits: readonly LabelHit[],
  lines: readonly Line[],
  labelled: ReadonlySet<string>,
  mark: DecimalMark,
  skip: ReadonlySet<number>,
  linesSum: DecimalString | null,
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
  const ordered = [...hits].sort((a, b) => b.line.index - a.line.index);
  for (const hit of ordered) {
    const keys = hit.keys.filter((key): key is 'net' | 'vat' | 'gross' | 'due' | 'prepaid' | 'rounding' =>
      ['net', 'vat', 'gross', 'due', 'prepaid', 'rounding'].includes(key),
    );
    if (keys.length === 0) continue;
    const { amounts, currency } = amountsOf(hit, lines, labelled, mark);
    const amount = amounts.at(-1);
    if (amount === undefined) continue;
    pools.currency ??= currency;
    for (const key of keys) pools[key].push(amount);
    // "Total" alone may be the net (before a VAT line) as well as the gross.
    if (keys.includes('gross') && isWeak(hit)) pools.net.push(amount);
  }
  // Labels read bottom-up: the last total on the document is the one that counts.
  const breakdown = readVatRows(lines, skip, mark);
  return chooseTotals(pools, breakdown, linesSum);
}

function tableLines(table: ReadTable, mark: DecimalMark): InvoiceLine[] {
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

function detectLanguage(lines: readonly Line[]): Language {
  const counts = new Map<Language, number>();
  for (const hit of findLabels(lines, new Set())) {
    if (hit.languages.length > 3) continue;
    for (const language of hit.languages) counts.set(language, (counts.get(language) ?? 0) + 1 / hit.languages.length);
  }
  const best = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
  return best?.[0] ?? 'en';
}

/** Day-first unless the document proves otherwise (a "13" in the second place) or is American. */
function dateOrder(lines: readonly Line[], language: Language, currency: string | null): DateOrder {
  let dayFirst = 0;
  let monthFirst = 0;
  for (const line of lines) {
    for (const word of line.words) {
      const found = findDate([word.text]);
      if (!found) continue;
      if (found.dayFirst && !found.monthFirst && /\//u.test(word.text)) dayFirst += 1;
      if (found.monthFirst && !found.dayFirst) monthFirst += 1;
    }
  }
  if (dayFirst !== monthFirst) return dayFirst > monthFirst ? 'dmy' : 'mdy';
  const usd = currency === 'USD' || lines.some((line) => line.words.some((word) => word.text.startsWith('$')));
  return language === 'en' && usd ? 'mdy' : 'dmy';
}

function documentCurrency(lines: readonly Line[], language: Language): string | null {
  const counts = new Map<string, number>();
  const add = (code: string) => counts.set(code, (counts.get(code) ?? 0) + 1);
  for (const line of lines) {
    for (const word of line.words) {
      const text = word.text.replace(/[^A-Za-z€£$]/gu, '');
      if (ISO_CURRENCIES.has(text)) add(text);
      else if (text.includes('€')) add('EUR');
      else if (text.includes('£')) add('GBP');
      else if (text.startsWith('$')) add('USD');
      else if ((text === 'kr' || text === 'Kr') && KRONE[language]) add(KRONE[language]);
    }
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

function isCreditNote(lines: readonly Line[], hits: readonly LabelHit[]): boolean {
  const credit: ReadonlySet<string> = new Set(TITLES.creditNote);
  const top = lines.filter((line) => line.page === 1).slice(0, 25);
  if (top.some((line) => line.segments.some((segment) => startsWithAny(normalizeLabel(segment.text), credit))))
    return true;
  return hits.some(
    (hit) =>
      hit.keys.includes('invoiceNumber') &&
      startsWithAny(normalizeLabel(textOf(hit.line.segments[hit.segmentIndex]?.words ?? [])), credit),
  );
}

function startsWithAny(text: string, terms: ReadonlySet<string>): boolean {
  for (const term of terms) if (text === term || text.startsWith(`${term} `)) return true;
  return false;
}

interface ConfidenceInput {
  invoiceNumber: number | null;
  issueDate: number | null;
  dueDate: number | null;
  supplierName: number | null;
  orgNumber: number | null;
  vatId: number | null;
  currencyCode: number | null;
  totals: TotalsReading;
  rowChecks: Array<boolean | null>;
  datesOrdered: boolean | null;
}

function confidenceOf(input: ConfidenceInput): ExtractionConfidence {
  const { totals } = input;
  const totalsConfidence = totals.balanced ? (totals.linesMatch === false ? 0.7 : 0.97) : 0.5;
  const inferred = (field: string, value: number) => (totals.inferred.includes(field) ? Math.min(value, 0.6) : value);
  const dateBoost = input.datesOrdered === false ? -0.3 : 0;
  const fields: Record<string, number> = {};
  const set = (name: string, value: number | null) => {
    if (value !== null) fields[name] = Math.round(Math.max(0, Math.min(1, value)) * 100) / 100;
  };
  set('invoiceNumber', input.invoiceNumber);
  set('issueDate', input.issueDate === null ? null : input.issueDate + dateBoost);
  set('dueDate', input.dueDate === null ? null : input.dueDate + dateBoost);
  set('supplier.name', input.supplierName);
  set('supplier.orgNumber', input.orgNumber);
  set('supplier.vatId', input.vatId);
  set('currencyCode', input.currencyCode);
  if (totals.net !== null) set('totals.taxExclusive', inferred('totals.taxExclusive', totalsConfidence));
  if (totals.vat !== null) set('totals.vatTotal', inferred('totals.vatTotal', totalsConfidence));
  if (totals.gross !== null) set('totals.taxInclusive', inferred('totals.taxInclusive', totalsConfidence));
  if (totals.due !== null) set('totals.payable', inferred('totals.payable', totalsConfidence));
  const lines =
    input.rowChecks.length === 0
      ? 0
      : rowScore(input.rowChecks) * (totals.linesMatch === true ? 1 : totals.linesMatch === null ? 0.7 : 0.4);
  const keyValues = ['invoiceNumber', 'totals.taxInclusive'].map((name) => fields[name] ?? 0);
  const overall = Math.min(...keyValues, input.rowChecks.length > 0 ? lines : 1);
  return { overall: Math.round(overall * 100) / 100, lines: Math.round(lines * 100) / 100, fields };
}

function rowScore(checks: ReadonlyArray<boolean | null>): number {
  if (checks.length === 0) return 0;
  const points = checks.reduce((total, check) => total + (check === true ? 1 : check === null ? 0.8 : 0), 0);
  return points / checks.length;
}

function reviewReasons(
  totals: TotalsReading,
  linesSum: DecimalString | null,
  rowChecks: ReadonlyArray<boolean | null>,
  lineCount: number,
  tableFound: boolean,
  hasNumber: boolean,
): string[] {
  const reasons: string[] = [];
  if (!hasNumber) reasons.push('No invoice number could be read.');
  if (totals.gross === null && totals.due === null) reasons.push('No invoice total could be read.');
  if (totals.net !== null && totals.vat !== null && totals.gross !== null && !totals.balanced) {
    reasons.push(`The totals do not add up: net ${totals.net} + VAT ${totals.vat} ≠ total ${totals.gross}.`);
  }
  if (totals.linesMatch === false)
    reasons.push(`The lines add up to ${linesSum ?? '?'}, not to the net total ${totals.net ?? '?'}.`);
  const failed = rowChecks.filter((check) => check === false).length;
  if (failed > 0) reasons.push(`${failed} line(s) where quantity × unit price − discount ≠ line amount.`);
  if (tableFound && lineCount === 0) reasons.push('A line table was found but no line could be read from it.');
  if (!tableFound && totals.net !== null) reasons.push('No line table was found; the invoice has no lines.');
  return reasons;
}

/** Refused only when the document says what else it is, or shows neither a number, a total nor lines. */
function notInvoiceReason(lines: readonly Line[], reading: Reading, pageCount: number): string | null {
  const top = lines.filter((line) => line.page === 1).slice(0, 15);
  const heading = (terms: readonly string[]) =>
    top.some((line) => line.segments.some((segment) => startsWithAny(normalizeLabel(segment.text), new Set(terms))));
  const invoiceTitle = heading([...TITLES.invoice, ...TITLES.creditNote]);
  const otherTitle = heading(TITLES.notInvoice);
  if (otherTitle && !invoiceTitle && !reading.hasNumber)
    return 'The PDF has no embedded e-invoice XML and its title says it is another kind of document (an order, a quote, a delivery note, a reminder or a manual).';
  if (!reading.hasTotal && reading.rowCount === 0)
    return 'The PDF has no embedded e-invoice XML and its text shows no invoice total and no invoice lines; it does not look like an invoice.';
  if (!reading.hasNumber && !invoiceTitle)
    return 'The PDF has no embedded e-invoice XML and its text shows no invoice number and no invoice title; it does not look like an invoice.';
  if (pageCount > 20 && !reading.hasNumber)
    return 'The PDF is a long document without an invoice number; it does not look like an invoice.';
  return null;
}

export { equal as amountsEqual };
export type { IsoDate };
