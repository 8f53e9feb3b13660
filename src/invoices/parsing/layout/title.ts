/** Values printed in running text rather than after a label: the title's number, a due date in a sentence. */
import { findDate, type FoundDate } from './dates.js';
import type { LabelHit, ValueCandidate } from './fields.js';
import type { Found } from './field-reader.js';
import { TITLES, normalizeLabel } from './labels.js';
import type { Line } from '../../../shared/layout/lines.js';
import { invoiceNumberValue } from './values.js';
import type { Word } from '../../../shared/layout/words.js';

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
export function titleNumber(
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
export function duePhrase(lines: readonly Line[]): Found<FoundDate> | null {
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
