/**
 * A scan's reading carries the OCR's own doubt: each field's confidence (from its label and the
 * invoice's arithmetic, layout/reader.ts) is multiplied by the OCR confidence of the words that
 * print its value, and the lines' by that of the words printing their numbers. The words are found
 * by what they say (an amount by its value, a date by its date, a name or number by its tokens);
 * a value whose words cannot be found takes the page's median word confidence.
 */
import { Decimal } from 'decimal.js';
import { invoiceFieldValue, type ExtractionConfidence, type NormalizedInvoice } from '../model.js';
import { findDate } from '../layout/dates.js';
import { parseNumber } from '../../../shared/layout/numbers.js';
import type { Word } from '../../../shared/layout/words.js';

type ValueKind = 'text' | 'amount' | 'date';

const FIELD_KINDS: Record<string, ValueKind> = {
  invoiceNumber: 'text',
  issueDate: 'date',
  dueDate: 'date',
  currencyCode: 'text',
  'supplier.name': 'text',
  'supplier.orgNumber': 'text',
  'supplier.vatId': 'text',
  'totals.taxExclusive': 'amount',
  'totals.vatTotal': 'amount',
  'totals.taxInclusive': 'amount',
  'totals.payable': 'amount',
};

/** The key fields whose lowest confidence is the reading's overall one (as the reader does). */
const KEY_FIELDS = ['invoiceNumber', 'totals.taxInclusive'];

export class WordConfidence {
  private readonly median: number;
  private readonly byText = new Map<string, number>();
  private readonly byAmount = new Map<string, number>();
  private readonly byDate = new Map<string, number>();

  constructor(words: readonly Word[]) {
    const confidences = words.map((word) => word.confidence ?? 1).sort((a, b) => a - b);
    this.median = confidences[Math.floor(confidences.length / 2)] ?? 1;
    for (const word of words) {
      const confidence = word.confidence ?? 1;
      keepBest(this.byText, normalizeToken(word.text), confidence);
      for (const mark of [',', '.'] as const) {
        const value = parseNumber(word.text, mark);
        if (value !== null) keepBest(this.byAmount, amountKey(value), confidence);
      }
    }
    for (const line of linesOf(words)) {
      for (let start = 0; start < line.length; start += 1) {
        const found = findDate(line.slice(start, start + 4).map((word) => word.text));
        if (!found || found.start !== 0) continue;
        const confidence = Math.min(...line.slice(start, start + found.wordCount).map((word) => word.confidence ?? 1));
        for (const date of [found.dayFirst, found.monthFirst]) if (date) keepBest(this.byDate, date, confidence);
      }
    }
  }

  /** The page's median word confidence: for values whose words cannot be found. */
  get typical(): number {
    return this.median;
  }

  of(value: string, kind: ValueKind): number {
    switch (kind) {
      case 'amount':
        return this.byAmount.get(amountKey(value)) ?? this.median;
      case 'date':
        return this.byDate.get(value) ?? this.median;
      case 'text': {
        const tokens = value
          .split(/\s+/u)
          .map(normalizeToken)
          .filter((token) => token !== '');
        const found = tokens
          .map((token) => this.byText.get(token))
          .filter((confidence): confidence is number => confidence !== undefined);
        return found.length > 0 ? Math.min(...found) : this.median;
      }
    }
  }
}

/** The reader's confidence, lowered by the OCR confidence of the words behind each value. */
export function withOcrConfidence(invoice: NormalizedInvoice, words: WordConfidence): ExtractionConfidence | null {
  const confidence = invoice.extraction.confidence;
  if (!confidence) return null;
  const fields: Record<string, number> = {};
  for (const [name, value] of Object.entries(confidence.fields)) {
    const kind = FIELD_KINDS[name];
    const printed = invoiceFieldValue(invoice, name);
    fields[name] = round(value * (kind && printed !== null ? words.of(printed, kind) : words.typical));
  }
  const lineFactors = invoice.lines.map((line) =>
    Math.min(
      ...[line.netAmount, line.unitPrice, line.quantity]
        .filter((value): value is string => value !== null)
        .map((value) => words.of(value, 'amount')),
      1,
    ),
  );
  const lines =
    lineFactors.length === 0
      ? confidence.lines
      : round(confidence.lines * (lineFactors.reduce((a, b) => a + b, 0) / lineFactors.length));
  const keys = KEY_FIELDS.map((name) => fields[name] ?? 0);
  const overall = round(Math.min(confidence.overall, ...keys, invoice.lines.length > 0 ? lines : 1));
  return { overall, lines, fields };
}

function linesOf(words: readonly Word[]): Word[][] {
  const lines = new Map<string, Word[]>();
  for (const word of words) {
    const key = `${word.page}:${Math.round(word.y)}`;
    lines.set(key, [...(lines.get(key) ?? []), word]);
  }
  return [...lines.values()].map((line) => line.sort((a, b) => a.x - b.x));
}

function keepBest(map: Map<string, number>, key: string, confidence: number): void {
  if (key === '') return;
  map.set(key, Math.max(map.get(key) ?? 0, confidence));
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

// Punctuation trimmed from both ends by a scan (a pattern anchored at the end backtracks).
function normalizeToken(text: string): string {
  const chars = [...text.toLowerCase()];
  let start = 0;
  let end = chars.length;
  while (start < end && !LETTER_OR_DIGIT.test(chars[start]!)) start += 1;
  while (end > start && !LETTER_OR_DIGIT.test(chars[end - 1]!)) end -= 1;
  return chars.slice(start, end).join('');
}

/** Amounts compared by value and without sign (credit notes print signs in many ways). */
function amountKey(value: string): string {
  try {
    return new Decimal(value).abs().toFixed();
  } catch {
    return value;
  }
}

function round(value: number): number {
  return Math.round(Math.max(0, Math.min(1, value)) * 100) / 100;
}
