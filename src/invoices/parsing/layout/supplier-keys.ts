/**
 * How a supplier is recognised on its documents: its org number, VAT id or IBAN, each written as
 * one key ("org:987654321", "vat:NO987654321MVA", "iban:NO9386011117947") whatever the spacing
 * and punctuation it was printed with.
 */
import type { Line } from '../../../shared/layout/lines.js';

export function orgNumberKey(value: string | null | undefined): string | null {
  const digits = (value ?? '').replace(/\D/gu, '');
  return digits.length >= 5 ? `org:${digits}` : null;
}

export function vatIdKey(value: string | null | undefined): string | null {
  const compact = (value ?? '').replace(/[^A-Za-z0-9]/gu, '').toUpperCase();
  return compact.length >= 8 && /\d{5}/u.test(compact) ? `vat:${compact}` : null;
}

export function ibanKey(value: string): string {
  return `iban:${value}`;
}

export function supplierKeysOf(party: { orgNumber: string | null; vatId: string | null }, ibans: string[]): string[] {
  const keys = [orgNumberKey(party.orgNumber), vatIdKey(party.vatId), ...ibans.map(ibanKey)];
  return [...new Set(keys.filter((key): key is string => key !== null))];
}

const IBAN_START = /^[A-Z]{2}\d{2}[A-Z0-9]*$/u;
// A supplier prints one to three accounts. The keys are stored with its layout and sought with
// every import, so a page full of IBANs (a statement, a hostile PDF) must not make them unbounded.
const MAX_IBANS = 5;
const IBAN_GROUP = /^[A-Z0-9]{1,8}$/u;

/**
 * IBANs printed anywhere ("IBAN NO93 8601 1117 947", "DE89370400440532013000"), in groups or
 * not; only those whose ISO 13616 check digits hold, so an order number is never taken for one.
 */
export function ibansOf(lines: readonly Line[]): string[] {
  const found = new Set<string>();
  for (const line of lines) {
    const words = line.words.map((word) => word.text.replace(/[.,;:]$/u, '').toUpperCase());
    for (let start = 0; start < words.length; start += 1) {
      if (!IBAN_START.test(words[start] ?? '')) continue;
      let compact = '';
      for (let at = start; at < words.length && at < start + 9; at += 1) {
        const word = words[at] ?? '';
        if (at > start && !IBAN_GROUP.test(word)) break;
        compact += word;
        if (compact.length > 34) break;
        if (compact.length >= 15 && ibanChecks(compact)) found.add(compact);
      }
      if (found.size >= MAX_IBANS) return [...found];
    }
  }
  return [...found];
}

/** ISO 13616: the country and check digits moved to the end, letters as numbers, mod 97 is 1. */
function ibanChecks(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = /\d/u.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}
