/**
 * The document totals: amounts after net / VAT / gross / due labels, VAT rows ("25 % 1 000,00
 * 250,00"), and the one combination of them that the invoice's arithmetic supports.
 */
import { Decimal } from 'decimal.js';
import type { DecimalString, VatBreakdownEntry } from '../model.js';
import { valuesOf, type LabelHit } from './fields.js';
import type { TotalField } from './labels.js';
import type { Line } from '../../../shared/layout/lines.js';
import { numberShape, parseAmount, parseRate, type DecimalMark } from '../../../shared/layout/numbers.js';
import type { Word } from '../../../shared/layout/words.js';
import { trimCharsEnd } from '../../../shared/text-scan.js';

export interface TotalsReading {
  net: DecimalString | null;
  vat: DecimalString | null;
  gross: DecimalString | null;
  due: DecimalString | null;
  prepaid: DecimalString | null;
  rounding: DecimalString | null;
  vatBreakdown: VatBreakdownEntry[];
  /** net + VAT = gross held. */
  balanced: boolean;
  /** The lines' sum equals the net total. */
  linesMatch: boolean | null;
  /** Totals that were not printed with a label but computed from the others. */
  inferred: string[];
  /** The currency code printed next to a total ("I alt DKK 1 250,00"), if any. */
  currencyCode: string | null;
}

const CURRENCY_WORD = /^(?:[A-Z]{3}|[€$£]|kr\.?|Kr\.?)$/u;

/** The amounts printed after a label: in its cell, then the cells to its right, else under it. */
export function amountsOf(
  hit: LabelHit,
  lines: readonly Line[],
  labelled: ReadonlySet<string>,
  mark: DecimalMark,
): AmountRun {
  const after: Word[] = [...hit.rest];
  for (const [index, segment] of hit.line.segments.entries()) {
    if (index <= hit.segmentIndex) continue;
    if (labelled.has(`${hit.line.index}:${index}`)) break;
    after.push(...segment.words);
  }
  const inline = amountRun(after, mark);
  if (inline.amounts.length > 0) return inline;
  for (const candidate of valuesOf(hit, lines, labelled)) {
    if (candidate.where !== 'below') continue;
    const below = amountRun(candidate.words, mark);
    if (below.amounts.length > 0) return below;
  }
  return { amounts: [], words: [], currency: null };
}

/** Amounts and the words each was read from (same order). */
interface AmountRun {
  amounts: DecimalString[];
  words: Word[];
  currency: string | null;
}

/** Amounts in a row of words: leading words (a rate, "of", a currency) skipped, ended by the first word after them that is no amount. */
function amountRun(words: readonly Word[], mark: DecimalMark): AmountRun {
  const amounts: DecimalString[] = [];
  const amountWords: Word[] = [];
  let currency: string | null = null;
  let skipped = 0;
  for (const word of words) {
    const text = trimCharsEnd(word.text, ':;');
    if (CURRENCY_WORD.test(text)) {
      if (/^[A-Z]{3}$/u.test(text)) currency ??= text;
      else if (text === '€') currency ??= 'EUR';
      else if (text === '£') currency ??= 'GBP';
      continue;
    }
    const amount = parseAmount(text, mark);
    if (amount !== null) {
      amounts.push(amount);
      amountWords.push(word);
      continue;
    }
    if (amounts.length > 0) break;
    skipped += 1;
    if (skipped > 4) break;
  }
  return { amounts, words: amountWords, currency };
}

/** "25 % 1 000,00 250,00", "MVA 25% av 1 000,00 250,00": rows whose base × rate is their tax. */
export function readVatRows(lines: readonly Line[], skip: ReadonlySet<number>, mark: DecimalMark): VatBreakdownEntry[] {
  const entries = new Map<string, VatBreakdownEntry>();
  for (const line of lines) {
    if (skip.has(line.index)) continue;
    const words = line.words;
    for (const [index, word] of words.entries()) {
      const rate = rateAt(words, index, mark);
      if (rate === null) continue;
      const following = amountRun(words.slice(rate.next), mark).amounts;
      for (let i = 0; i + 1 < following.length; i += 1) {
        const base = following[i] as string;
        const tax = following[i + 1] as string;
        if (taxMatches(base, rate.value, tax)) {
          entries.set(`${rate.value}|${base}|${tax}`, {
            category: null,
            vatPercent: rate.value,
            taxableAmount: base,
            taxAmount: tax,
          });
          break;
        }
      }
      void word;
    }
  }
  return [...entries.values()];
}

function rateAt(
  words: readonly Word[],
  index: number,
  mark: DecimalMark,
): { value: DecimalString; next: number } | null {
  const text = words[index]?.text ?? '';
  const shape = numberShape(text);
  if (shape?.percent) {
    const value = parseRate(text, mark);
    return value === null ? null : { value, next: index + 1 };
  }
  if (words[index + 1]?.text === '%' && shape && !shape.negative) {
    const value = parseRate(text, mark);
    return value === null ? null : { value, next: index + 2 };
  }
  return null;
}

export function taxMatches(base: DecimalString, rate: DecimalString, tax: DecimalString): boolean {
  const expected = new Decimal(base).times(rate).dividedBy(100);
  return expected.minus(tax).abs().lte('0.015');
}

export interface TotalCandidates {
  net: DecimalString[];
  vat: DecimalString[];
  gross: DecimalString[];
  due: DecimalString[];
  prepaid: DecimalString[];
  rounding: DecimalString[];
  currency: string | null;
}

/** Picks the totals that agree with each other, with the lines and with the VAT rows. */
export function chooseTotals(
  candidates: TotalCandidates,
  breakdown: VatBreakdownEntry[],
  linesSum: DecimalString | null,
): TotalsReading {
  const options = (values: DecimalString[]) => [...new Set(values)].slice(0, 5);
  const nets = [...options(candidates.net), null];
  const vats = [...options(candidates.vat), null];
  const grosses = [...options(candidates.gross), ...options(candidates.due), null];
  const breakdownTax = breakdown.length > 0 ? sum(breakdown.map((entry) => entry.taxAmount ?? '0')) : null;
  if (breakdownTax !== null && !vats.includes(breakdownTax)) vats.splice(vats.length - 1, 0, breakdownTax);
  let best: { net: string | null; vat: string | null; gross: string | null; score: number } = {
    net: null,
    vat: null,
    gross: null,
    score: -1,
  };
  for (const [ni, net] of nets.entries()) {
    for (const [vi, vat] of vats.entries()) {
      for (const [gi, gross] of grosses.entries()) {
        let score = 0;
        if (net !== null) score += 1 - ni * 0.05;
        if (vat !== null) score += 1 - vi * 0.05;
        if (gross !== null) score += 1 - gi * 0.05;
        if (net !== null && vat !== null && gross !== null && equal(sum([net, vat]), gross)) score += 4;
        if (linesSum !== null && net !== null && equal(linesSum, net)) score += 3;
        if (linesSum !== null && gross !== null && vat !== null && net === null && equal(sum([linesSum, vat]), gross))
          score += 2;
        if (breakdownTax !== null && vat !== null && equal(breakdownTax, vat)) score += 1;
        if (net !== null && gross !== null && vat === null && equal(net, gross)) score += 1;
        if (net !== null && gross !== null && new Decimal(gross).abs().lt(new Decimal(net).abs())) score -= 2;
        if (score > best.score) best = { net, vat, gross, score };
      }
    }
  }
  const inferred: string[] = [];
  let { net, vat, gross } = best;
  if (net === null && linesSum !== null && vat !== null && gross !== null && equal(sum([linesSum, vat]), gross)) {
    net = linesSum;
    inferred.push('totals.taxExclusive');
  }
  if (
    vat === null &&
    net !== null &&
    gross !== null &&
    breakdownTax !== null &&
    equal(sum([net, breakdownTax]), gross)
  ) {
    vat = breakdownTax;
    inferred.push('totals.vatTotal');
  }
  if (gross === null && net !== null && vat !== null) {
    gross = sum([net, vat]);
    inferred.push('totals.taxInclusive');
  }
  const prepaid = candidates.prepaid[0] ?? null;
  const rounding = candidates.rounding[0] ?? null;
  const dueCandidates = options(candidates.due);
  let due =
    dueCandidates.find((value) => gross !== null && equal(value, expectedDue(gross, prepaid, rounding))) ??
    dueCandidates[0] ??
    null;
  if (due === null && gross !== null) {
    due = expectedDue(gross, prepaid, rounding);
    if (prepaid !== null || rounding !== null) inferred.push('totals.payable');
  }
  const balanced = net !== null && vat !== null && gross !== null && equal(sum([net, vat]), gross);
  const linesMatch = linesSum === null || net === null ? null : equal(linesSum, net);
  const vatBreakdown = breakdown.length > 0 ? breakdown : singleRate(net, vat);
  return {
    net,
    vat,
    gross,
    due,
    prepaid,
    rounding,
    vatBreakdown,
    balanced,
    linesMatch,
    inferred,
    currencyCode: candidates.currency,
  };
}

function expectedDue(
  gross: DecimalString,
  prepaid: DecimalString | null,
  rounding: DecimalString | null,
): DecimalString {
  let value = new Decimal(gross);
  if (prepaid !== null) value = value.minus(new Decimal(prepaid).abs());
  if (rounding !== null) value = value.plus(rounding);
  return value.toFixed(2);
}

/** Without printed VAT rows, a single rate is known when net and VAT give a common one. */
function singleRate(net: DecimalString | null, vat: DecimalString | null): VatBreakdownEntry[] {
  if (net === null || vat === null || new Decimal(net).isZero()) return [];
  const rate = new Decimal(vat).dividedBy(net).times(100);
  for (const common of [
    '0',
    '5',
    '6',
    '7',
    '8',
    '9',
    '10',
    '10.3',
    '12',
    '13',
    '14',
    '15',
    '19',
    '20',
    '21',
    '24',
    '25',
    '25.5',
  ]) {
    if (taxMatches(net, common, vat))
      return [{ category: null, vatPercent: common, taxableAmount: net, taxAmount: vat }];
  }
  void rate;
  return [];
}

export function sum(values: readonly DecimalString[]): DecimalString {
  return values.reduce((total, value) => total.plus(value), new Decimal(0)).toFixed(2);
}

export function equal(a: DecimalString, b: DecimalString): boolean {
  return new Decimal(a).minus(b).abs().lte('0.011');
}

export type { TotalField };
