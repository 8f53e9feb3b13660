/** Facts of the whole document: its language, date order, currency, kind, and whether it is an invoice at all. */
import { findDate, type DateOrder } from './dates.js';
import { textOf, type LabelHit } from './fields.js';
import { TITLES, normalizeLabel, type Language } from './labels.js';
import type { Line } from '../../../shared/layout/lines.js';
import { findLabels } from './fields.js';
import { ISO_CURRENCIES } from './values.js';

/** What the refusal needs to know of a reading. */
export interface ReadingFacts {
  hasTotal: boolean;
  hasNumber: boolean;
  rowCount: number;
}

export const DECIMAL_COMMA_LANGUAGES: ReadonlySet<Language> = new Set(['no', 'sv', 'da', 'fi', 'de', 'fr', 'nl']);
const KRONE: Partial<Record<Language, string>> = { no: 'NOK', sv: 'SEK', da: 'DKK' };

export function detectLanguage(lines: readonly Line[]): Language {
  const counts = new Map<Language, number>();
  for (const hit of findLabels(lines, new Set())) {
    if (hit.languages.length > 3) continue;
    for (const language of hit.languages) counts.set(language, (counts.get(language) ?? 0) + 1 / hit.languages.length);
  }
  const best = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
  return best?.[0] ?? 'en';
}

/** Day-first unless the document proves otherwise (a "13" in the second place) or is American. */
export function dateOrder(lines: readonly Line[], language: Language, currency: string | null): DateOrder {
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

export function documentCurrency(lines: readonly Line[], language: Language): string | null {
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

export function isCreditNote(lines: readonly Line[], hits: readonly LabelHit[]): boolean {
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

/** Refused only when the document says what else it is, or shows neither a number, a total nor lines. */
export function notInvoiceReason(lines: readonly Line[], reading: ReadingFacts, pageCount: number): string | null {
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
