/** The value readers of the header fields: what a label's value must look like to be taken. */
import { findDate, type FoundDate } from './dates.js';
import type { LabelHit, ValueCandidate } from './fields.js';
import type { Found } from './field-reader.js';

export const ISO_CURRENCIES = new Set([
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

export const DOCUMENT_NUMBER = /^[\p{L}\d][\p{L}\d\-/._]{0,39}$/u;

export function invoiceNumberValue(candidate: ValueCandidate): string | null {
  const word = (candidate.words[0]?.text ?? '').replace(/[:,;]$/u, '');
  if (!DOCUMENT_NUMBER.test(word) || !/\d/u.test(word)) return null;
  if (findDate([word])) return null;
  if (/^\d{1,3}(?:[.,]\d{3})*[.,]\d{2}$/u.test(word)) return null;
  return word;
}

export function dateValue(candidate: ValueCandidate): FoundDate | null {
  const found = findDate(candidate.words.slice(0, 5).map((word) => word.text));
  return found && found.start <= 1 ? found : null;
}

export function currencyValue(candidate: ValueCandidate): string | null {
  for (const word of candidate.words.slice(0, 3)) {
    const code = word.text.replace(/[^A-Za-z]/gu, '').toUpperCase();
    if (ISO_CURRENCIES.has(code)) return code;
  }
  return null;
}

export function referenceValue(candidate: ValueCandidate): string | null {
  const text = candidate.text.trim();
  if (text === '' || text.length > 60) return null;
  const first = candidate.words[0]?.text.replace(/[:,;]$/u, '') ?? '';
  if (/\d/u.test(first) && DOCUMENT_NUMBER.test(first)) return first;
  return /\p{L}/u.test(text) && candidate.words.length <= 4 ? text : null;
}

export function nameValue(candidate: ValueCandidate): string | null {
  const text = candidate.text.trim();
  if (text.length < 2 || text.length > 80 || !/\p{L}{2}/u.test(text)) return null;
  if (findDate(candidate.words.map((word) => word.text))) return null;
  return text;
}

/** "123 456 789", "556677-8899", "DE 123/456/78901", "HRB 12345": the digits of a registration number. */
export function orgNumberValue(candidate: ValueCandidate): string | null {
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
export function vatIdValue(candidate: ValueCandidate): string | null {
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
export function vatIdFromOrg(org: string | null, candidate: ValueCandidate | undefined): Found<string> | null {
  if (!org || !candidate) return null;
  const registered = candidate.words
    .slice(0, 6)
    .some((word) => word.text.replace(/[^A-Za-z]/gu, '').toUpperCase() === 'MVA');
  if (!registered) return null;
  const digits = org.replace(/\D/gu, '');
  return digits.length === 9 ? { value: `NO${digits}MVA`, hit: undefined as unknown as LabelHit, candidate } : null;
}
