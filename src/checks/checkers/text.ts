// Comparing what suppliers write: descriptions, article numbers and units.
import { foldText } from '../../agreements/price-lists/normalize.js';
import { canonicalUnit, compareUnits } from '../../agreements/units/index.js';

/** Lower case, no diacritics, punctuation as spaces: "Kopipapir A4, 80g" = "kopipapir a4 80g". */
export function normalizeDescription(text: string | null): string | null {
  if (!text) return null;
  return foldText(text) || null;
}

/** Article numbers compare without case, spaces, dots or dashes: "AB-100.2" = "ab 1002". */
export function normalizeItemId(id: string | null): string | null {
  if (!id) return null;
  return id.toLowerCase().replace(/[\s.\-_/]+/g, '') || null;
}

// Invoices carry UN/ECE Rec. 20 codes (C62, HUR), price lists the words people write ("stk",
// "timer", "förp"): both are read through the unit table (src/agreements/units/).

/** The canonical unit (a Rec 20 code or family such as "piece"), or the folded text for units we do not know. */
export function normalizeUnit(unit: string | null): string | null {
  return canonicalUnit(unit);
}

/** true/false when both units are known, null when either side does not say. */
export function sameUnit(a: string | null, b: string | null): boolean | null {
  return compareUnits(a, b).agree;
}

/**
 * Whether the folded text mentions any of the (folded) words. Words of five letters or more also
 * match inside compounds ("kunderabatt", "fakturagebyr"); shorter ones only as word starts.
 */
export function mentionsAny(text: string | null, words: readonly string[]): boolean {
  if (!text) return false;
  const folded = ` ${foldText(text)} `;
  return words.some((word) => (word.length >= 5 ? folded.includes(word) : folded.includes(` ${word}`)));
}
