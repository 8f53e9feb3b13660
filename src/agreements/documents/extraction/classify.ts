/**
 * Terms or price list, decided by counting, never by a language model: the same file always
 * gets the same answer, and `reason` names the evidence in one sentence.
 *
 * Spreadsheets and CSV are price lists when a header in their first rows names a price, or when
 * many cells are numbers. PDFs, DOCX and text are price lists when they are mostly numbers with
 * price words, and terms when they are prose with contract words. With no clear sign, the file
 * name decides, then the format (spreadsheets lean to price lists, documents to terms).
 */
import { trimCharsEnd, trimCharsStart } from '../../../shared/text-scan.js';
import { declaredFormat } from './detect.js';
import type { ExtractedText, ExtractionResult, Passage } from '../../../documents/extraction-model.js';
import {
  CONTRACT_TERMS,
  CURRENCY,
  distinctWords,
  matchedTerms,
  PRICE_LIST_NAME,
  PRICE_TERMS,
  TERMS_NAME,
} from './vocabulary.js';

export type AgreementDocumentKind = 'terms' | 'price_list';

export interface AgreementDocumentClassification {
  classification: AgreementDocumentKind;
  confidence: 'high' | 'medium' | 'low';
  reason: string;
}

export interface ClassificationInput {
  fileName: string;
  mimeType: string;
  extraction: ExtractionResult;
}

/** A spreadsheet in which at least this share of the filled cells are numbers is a price list. */
const NUMERIC_CELL_SHARE = 0.3;
/** A document in which at least this share of the words are numbers reads as tables. */
const TABLE_NUMBER_SHARE = 0.25;
/** ... and from this share on, with price words, it is certainly a price list. */
const STRONG_TABLE_NUMBER_SHARE = 0.35;
/** Below this share of numbers a document is prose (contracts number their clauses, not much more). */
const PROSE_NUMBER_SHARE = 0.15;
/** This many different contract words in prose make terms certain. */
const STRONG_CONTRACT_TERMS = 3;
/** A price header is looked for in the first rows of each sheet, among rows without numbers. */
const HEADER_ROWS = 10;
/** Cells longer than this are sentences, not column headers. */
const MAX_HEADER_CELL_LENGTH = 40;
const MAX_LISTED_WORDS = 5;
const EVERY_CURRENCY = new RegExp(CURRENCY.source, 'g');
const SOURCE_NAMES: Readonly<Record<ExtractedText['format'], string>> = {
  pdf: 'PDF text',
  docx: 'DOCX text',
  text: 'plain text',
  xlsx: 'a spreadsheet',
  csv: 'a CSV file',
};

export function classifyAgreementDocument({
  fileName,
  mimeType,
  extraction,
}: ClassificationInput): AgreementDocumentClassification {
  if (extraction.kind === 'failed')
    return classifyWithoutText(fileName, mimeType, `no text could be read (${extraction.code})`);
  if (extraction.format === 'xlsx' || extraction.format === 'csv') return classifyTable(extraction, fileName);
  return classifyProseDocument(extraction, fileName);
}

function classifyTable(extraction: ExtractedText, fileName: string): AgreementDocumentClassification {
  const source = SOURCE_NAMES[extraction.format];
  const header = findPriceHeader(extraction.passages);
  if (header) {
    const where = header.sheet === null ? '' : ` in sheet "${header.sheet}"`;
    return {
      classification: 'price_list',
      confidence: 'high',
      reason: `${capitalize(source)} with a price column header "${header.cell}"${where}.`,
    };
  }
  const numericShare = numericCellShare(extraction.passages);
  if (numericShare >= NUMERIC_CELL_SHARE) {
    return {
      classification: 'price_list',
      confidence: 'medium',
      reason: `${capitalize(source)} in which ${percent(numericShare)} of the filled cells are numbers.`,
    };
  }
  const contractWords = matchedTerms(distinctWords(wholeText(extraction)), CONTRACT_TERMS);
  if (contractWords.length >= STRONG_CONTRACT_TERMS) {
    return {
      classification: 'terms',
      confidence: 'low',
      reason: `${capitalize(source)} without prices whose text uses contract words: ${list(contractWords)}.`,
    };
  }
  return fromFileNameOr(fileName, 'price_list', `${source} without a price header and with few numbers`);
}

/** What the text of a PDF, DOCX or plain text file shows. */
interface ProseEvidence {
  /** "PDF text", "DOCX text", "plain text": the subject of the reason. */
  source: string;
  /** Share of the words that are numbers. */
  numbers: number;
  contractWords: string[];
  priceWords: string[];
}

function classifyProseDocument(extraction: ExtractedText, fileName: string): AgreementDocumentClassification {
  const evidence = proseEvidence(extraction);
  return asPriceTable(evidence) ?? asTerms(evidence) ?? withoutClearSign(evidence, fileName);
}

function proseEvidence(extraction: ExtractedText): ProseEvidence {
  const text = wholeText(extraction);
  const words = distinctWords(text);
  const priceWords = matchedTerms(words, PRICE_TERMS);
  if (CURRENCY.test(text)) priceWords.push('currency amounts');
  return {
    source: SOURCE_NAMES[extraction.format],
    numbers: numberShare(text),
    contractWords: matchedTerms(words, CONTRACT_TERMS),
    priceWords,
  };
}

function asPriceTable({ source, numbers, priceWords }: ProseEvidence): AgreementDocumentClassification | null {
  if (numbers < TABLE_NUMBER_SHARE || priceWords.length === 0) return null;
  const confidence = numbers >= STRONG_TABLE_NUMBER_SHARE ? 'high' : 'medium';
  const reason = `${capitalize(source)} reads as tables (${percent(numbers)} of the words are numbers) with price words: ${list(priceWords)}.`;
  return { classification: 'price_list', confidence, reason };
}

function asTerms({ source, numbers, contractWords }: ProseEvidence): AgreementDocumentClassification | null {
  if (contractWords.length === 0) return null;
  const prose = numbers < PROSE_NUMBER_SHARE;
  const confidence = prose && contractWords.length >= STRONG_CONTRACT_TERMS ? 'high' : 'medium';
  const reason = `${capitalize(source)} is ${prose ? 'mostly prose' : 'partly tables'} (${percent(numbers)} of the words are numbers) with contract words: ${list(contractWords)}.`;
  return { classification: 'terms', confidence, reason };
}

function withoutClearSign(
  { source, numbers, priceWords }: ProseEvidence,
  fileName: string,
): AgreementDocumentClassification {
  if (priceWords.length > 0 && numbers >= PROSE_NUMBER_SHARE) {
    const reason = `${capitalize(source)} is partly tables (${percent(numbers)} of the words are numbers) with price words (${list(priceWords)}) and no contract words.`;
    return { classification: 'price_list', confidence: 'low', reason };
  }
  if (numbers >= TABLE_NUMBER_SHARE)
    return fromFileNameOr(fileName, 'price_list', `${source} that is mostly numbers but names no prices`);
  const content =
    priceWords.length > 0 ? 'that mentions prices but uses no contract words' : 'without contract or price words';
  return fromFileNameOr(fileName, 'terms', `${source} ${content}`);
}

/** When the text gave no clear sign: the file name, else the default for the file's kind. */
function fromFileNameOr(
  fileName: string,
  fallback: AgreementDocumentKind,
  situation: string,
): AgreementDocumentClassification {
  const hinted = fileNameHint(fileName);
  if (hinted)
    return {
      classification: hinted,
      confidence: 'low',
      reason: `The file name "${fileName}" suggests ${describe(hinted)}; the content is ${situation}.`,
    };
  return {
    classification: fallback,
    confidence: 'low',
    reason: `No clear sign in ${situation}; taken as ${describe(fallback)} by default.`,
  };
}

function classifyWithoutText(fileName: string, mimeType: string, situation: string): AgreementDocumentClassification {
  const hinted = fileNameHint(fileName);
  if (hinted)
    return {
      classification: hinted,
      confidence: 'low',
      reason: `The file name "${fileName}" suggests ${describe(hinted)}; ${situation}.`,
    };
  const format = declaredFormat(fileName, mimeType);
  const spreadsheet = format === 'xlsx' || format === 'csv';
  const classification = spreadsheet ? 'price_list' : 'terms';
  const kind = spreadsheet ? 'spreadsheets' : 'documents';
  return {
    classification,
    confidence: 'low',
    reason: `Taken as ${describe(classification)} because ${kind} usually are; ${situation}.`,
  };
}

export function fileNameHint(fileName: string): AgreementDocumentKind | null {
  const name = fileName.toLowerCase();
  if (PRICE_LIST_NAME.test(name)) return 'price_list';
  if (TERMS_NAME.test(name)) return 'terms';
  return null;
}

interface PriceHeader {
  cell: string;
  sheet: string | null;
}

function findPriceHeader(passages: readonly Passage[]): PriceHeader | null {
  const seenSheets = new Set<string | null>();
  for (const passage of passages) {
    if (seenSheets.has(passage.sheet)) continue;
    seenSheets.add(passage.sheet);
    const headerRows = passage.text
      .split('\n')
      .slice(0, HEADER_ROWS)
      .map(cellsOf)
      .filter((cells) => !cells.some(isNumber));
    const cell = headerRows.flat().find(isPriceHeaderCell);
    if (cell) return { cell, sheet: passage.sheet };
  }
  return null;
}

function isPriceHeaderCell(cell: string): boolean {
  if (cell.length > MAX_HEADER_CELL_LENGTH || isNumber(cell)) return false;
  return matchedTerms(distinctWords(cell), PRICE_TERMS).length > 0 || CURRENCY.test(cell);
}

function numericCellShare(passages: readonly Passage[]): number {
  const cells = passages.flatMap((passage) => passage.text.split('\n').flatMap(cellsOf)).filter((cell) => cell !== '');
  return cells.length === 0 ? 0 : cells.filter(isNumber).length / cells.length;
}

/** Rows are written as "a | b | c" by the extractor. */
function cellsOf(line: string): string[] {
  return line.split(' | ').map((cell) => cell.trim());
}

/** Share of whitespace-separated words that are amounts, quantities or other numbers. */
function numberShare(text: string): number {
  const words = text.split(/\s+/).filter((word) => word !== '' && word !== '|');
  return words.length === 0 ? 0 : words.filter(isNumber).length / words.length;
}

/** "12", "1 234,50", "-3.5%", "€ 12.00", "NOK 1.234,56", "(12)": digits in groups, with currency around. */
export function isNumber(value: string): boolean {
  const withoutCurrency = value.replace(EVERY_CURRENCY, '').replace(/\bkr\b\.?/gi, '');
  const bare = trimCharsStart(trimCharsEnd(withoutCurrency, '()[],;:', true), '(', true).replace(/[\s\u00a0]/g, '');
  return /^[-+−]?\d+(?:[.,'’]\d+)*[.,]?%?$/.test(bare);
}

function wholeText(extraction: ExtractedText): string {
  return extraction.passages.map((passage) => passage.text).join('\n\n');
}

function describe(kind: AgreementDocumentKind): string {
  return kind === 'terms' ? 'terms' : 'a price list';
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

function list(words: readonly string[]): string {
  return words.slice(0, MAX_LISTED_WORDS).join(', ');
}
