// Comparing what suppliers write: descriptions, article numbers and units.
import { foldText } from '../../agreements/price-lists/normalize.js';

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
// "timer"). Both map onto one canonical unit; "C62" (one), "H87" (piece) and "EA" (each) count as
// the same thing because suppliers use them interchangeably for pieces.
const UNIT_GROUPS: Record<string, string[]> = {
  piece: ['c62', 'h87', 'ea', 'pce', 'pcs', 'pc', 'piece', 'pieces', 'each', 'unit', 'units', 'stk', 'st', 'stck', 'stuck', 'styck', 'kpl', 'kappale', 'nos', 'no'],
  hour: ['hur', 'h', 'hr', 'hrs', 'hour', 'hours', 'time', 'timer', 'timme', 'timmar', 'tim', 'tunti', 'tuntia', 'std', 'stunde', 'stunden'],
  minute: ['min', 'mins', 'minute', 'minutes', 'minutt', 'minutter', 'minuutti'],
  day: ['day', 'days', 'dag', 'dager', 'dagar', 'dage', 'dogn', 'paiva', 'paivaa', 'tag', 'tage'],
  week: ['wee', 'wk', 'week', 'weeks', 'uke', 'uker', 'vecka', 'veckor', 'viikko', 'woche', 'wochen'],
  month: ['mon', 'month', 'months', 'mnd', 'maned', 'maaned', 'manad', 'manader', 'kk', 'kuukausi', 'monat', 'monate'],
  year: ['ann', 'year', 'years', 'yr', 'ar', 'aar', 'vuosi', 'jahr', 'jahre'],
  kilogram: ['kgm', 'kg', 'kilo', 'kilogram', 'kilogramm'],
  gram: ['grm', 'g', 'gram', 'gramm'],
  tonne: ['tne', 'tonne', 'tonn', 'ton'],
  litre: ['ltr', 'l', 'litre', 'liter', 'litra'],
  metre: ['mtr', 'm', 'metre', 'meter', 'metri'],
  kilometre: ['kmt', 'km', 'kilometre', 'kilometer'],
  square_metre: ['mtk', 'm2', 'sqm', 'kvm'],
  cubic_metre: ['mtq', 'm3'],
  kilowatt_hour: ['kwh'],
  pack: ['pk', 'pa', 'pack', 'package', 'pakke', 'pakk', 'paket', 'paketti', 'pkt'],
  box: ['bx', 'box', 'boxes', 'eske', 'esker', 'ask', 'laatikko', 'karton'],
  set: ['set', 'sets', 'sett'],
  lump_sum: ['ls', 'lump sum', 'lumpsum'],
};

const CANONICAL_UNIT = new Map<string, string>(
  Object.entries(UNIT_GROUPS).flatMap(([canonical, names]) => names.map((name) => [name, canonical] as const)),
);

// Asked several times for every line and candidate price item, of a handful of distinct units:
// folding the text each time was a tenth of a large invoice's check. Bounded: units come from
// invoices and price lists.
const normalizedUnits = new Map<string, string | null>();
const NORMALIZED_UNITS_KEPT = 10_000;

/** The canonical unit ("piece", "hour"), or the folded text for units we do not know. */
export function normalizeUnit(unit: string | null): string | null {
  if (!unit) return null;
  const known = normalizedUnits.get(unit);
  if (known !== undefined) return known;
  const normalized = canonicalUnit(unit);
  if (normalizedUnits.size < NORMALIZED_UNITS_KEPT) normalizedUnits.set(unit, normalized);
  return normalized;
}

function canonicalUnit(unit: string): string | null {
  const folded = foldText(unit).replace(/\.$/, '');
  if (!folded) return null;
  return CANONICAL_UNIT.get(folded) ?? CANONICAL_UNIT.get(folded.replace(/ /g, '')) ?? folded;
}

/** true/false when both units are known, null when either side does not say. */
export function sameUnit(a: string | null, b: string | null): boolean | null {
  const left = normalizeUnit(a);
  const right = normalizeUnit(b);
  if (left === null || right === null) return null;
  return left === right;
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
