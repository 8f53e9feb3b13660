// Reading units as people write them and comparing two of them (docs/checks.md, "Units").
// A unit is read as a UN/ECE Rec 20 code (UNIT_TABLE): by the code, its symbol or name (sure),
// or by a word or abbreviation of one of our languages (a mapping, named in the alert). Price
// lists often write a price per unit and period ("user/month", "TB/month"): the period part is
// read off and taken to be the invoice's billing period, which is named as a guess too.
import { foldText } from '../price-lists/normalize.js';
import { UNIT_TABLE, type UnitEntry } from './table.js';

export { UNIT_TABLE, type UnitEntry, type UnitLanguage } from './table.js';

export interface ReadUnit {
  written: string;
  /** The Rec 20 code, or null for a unit the table does not know. */
  code: string | null;
  name: string | null;
  family: string | null;
  /** How the code was found: written as the code, its symbol or its Rec 20 name (sure), or as a word (a mapping). */
  how: 'code' | 'symbol' | 'name' | 'word' | 'unknown';
  /** Folded, spaces removed: what unknown units are compared by. */
  compact: string;
  /** "month" in "user/month": a price per unit and period. */
  perPeriod: string | null;
}

export interface UnitComparison {
  /** true/false when both sides give a unit, null when either does not say. */
  agree: boolean | null;
  /** When agreeing rests on a mapping: what was assumed, in words for the alert. */
  guess: string | null;
}

const fold = (text: string) => foldText(text).replace(/ /g, '');

interface Lookup {
  entry: UnitEntry;
  how: 'code' | 'symbol' | 'name' | 'word';
}

const BY_KEY = new Map<string, Lookup>();
for (const entry of UNIT_TABLE) {
  // Codes first, then symbols and names, then words: an earlier, surer reading is never replaced.
  const put = (key: string, how: Lookup['how']) => {
    if (key && !BY_KEY.has(key)) BY_KEY.set(key, { entry, how });
  };
  put(fold(entry.code), 'code');
  if (entry.symbol) put(fold(entry.symbol), 'symbol');
  put(fold(entry.name), 'name');
}
for (const entry of UNIT_TABLE) {
  for (const words of Object.values(entry.words))
    for (const word of words ?? []) if (!BY_KEY.has(fold(word))) BY_KEY.set(fold(word), { entry, how: 'word' });
}

// "per stk", "pr. stk", "à 10 stk" → "stk"; "user/month", "EUR per user per month" → "user" + "month".
const LEADING_PER = /^\s*(?:per|pr\.?|pro|je|par|à|a)\s+/i;
// "kr/stk", "EUR per kg", "€/h": a price column's currency written before the unit.
const LEADING_CURRENCY =
  /^\s*(?:nok|sek|dkk|eur|usd|gbp|chf|pln|isk|kr\.?|euro?|€|\$|£)\s*(?:\/|\bper\b|\bpr\.?|\bpro\b|\bje\b)\s*/i;
// Applied to text whose white space is already one space each (linear: no \s* around the slash).
const PERIOD_SPLIT = / ?\/ ?| (?:per|pr\.?|pro|je) /i;

function readUncached(written: string): ReadUnit | null {
  const text = written.trim().replace(LEADING_CURRENCY, '').replace(LEADING_PER, '');
  if (!text) return null;
  const [main = '', ...rest] = text
    .replace(/\s+/g, ' ')
    .split(PERIOD_SPLIT)
    .filter((part) => part.trim() !== '');
  const direct = lookup(text);
  // "m/s"-like units of the table itself are read whole; otherwise the last part is a period.
  if (direct || rest.length === 0) return readPart(written, direct ? text : main, null);
  const period = lookup(rest[rest.length - 1]!);
  const isPeriod = period !== null && ['MIN', 'HUR', 'DAY', 'WEE', 'MON', 'ANN'].includes(period.entry.code);
  return readPart(
    written,
    isPeriod ? [main, ...rest.slice(0, -1)].join(' ') : text,
    isPeriod ? period.entry.name : null,
  );
}

function readPart(written: string, text: string, perPeriod: string | null): ReadUnit | null {
  const compact = fold(text);
  if (!compact) return null;
  const found = lookup(text);
  if (!found) return { written, code: null, name: null, family: null, how: 'unknown', compact, perPeriod };
  const { entry, how } = found;
  return { written, code: entry.code, name: entry.name, family: entry.family ?? null, how, compact, perPeriod };
}

function lookup(text: string): Lookup | null {
  const compact = fold(text);
  if (!compact) return null;
  // "10 stk" is a count of pieces: a leading number does not change the unit.
  return BY_KEY.get(compact) ?? BY_KEY.get(compact.replace(/^\d+/, '')) ?? null;
}

// Asked for every line and candidate price item, of a handful of distinct units. Bounded: units
// come from invoices and price lists.
const KEPT = 10_000;
const readCache = new Map<string, ReadUnit | null>();
const comparisonCache = new Map<string, UnitComparison>();

export function readUnit(written: string | null | undefined): ReadUnit | null {
  if (!written) return null;
  const known = readCache.get(written);
  if (known !== undefined) return known;
  const read = readUncached(written);
  if (readCache.size < KEPT) readCache.set(written, read);
  return read;
}

/** The canonical form units are grouped by: the family or code, else the folded text. */
export function canonicalUnit(written: string | null | undefined): string | null {
  const read = readUnit(written);
  if (!read) return null;
  return (read.family ?? read.code ?? read.compact) + (read.perPeriod ? `/${read.perPeriod}` : '');
}

export function compareUnits(a: string | null | undefined, b: string | null | undefined): UnitComparison {
  if (!a || !b) return { agree: null, guess: null };
  const key = `${a}\u0000${b}`;
  const known = comparisonCache.get(key);
  if (known) return known;
  const compared = compareUncached(a, b);
  if (comparisonCache.size < KEPT) comparisonCache.set(key, compared);
  return compared;
}

function compareUncached(a: string, b: string): UnitComparison {
  const left = readUnit(a);
  const right = readUnit(b);
  if (!left || !right) return { agree: null, guess: null };
  if (fold(a) === fold(b)) return { agree: true, guess: null };
  const guesses: string[] = [];
  for (const side of [left, right])
    if (side.how === 'word') guesses.push(`"${side.written.trim()}" read as ${side.code} (${side.name})`);
  const periodBilled = billedPerPeriod(left, right) ?? billedPerPeriod(right, left);
  if (periodBilled) return { agree: true, guess: [...guesses, periodBilled].join('; ') };
  if (left.code === null || right.code === null) {
    if (left.compact !== right.compact) return { agree: false, guess: null };
  } else if (left.code !== right.code) {
    if (left.family === null || left.family !== right.family) return { agree: false, guess: null };
    guesses.push(`${left.code} (${left.name}) and ${right.code} (${right.name}) taken as the same unit`);
  }
  if (left.perPeriod !== null && right.perPeriod !== null && left.perPeriod !== right.perPeriod)
    return { agree: false, guess: null };
  if (left.perPeriod !== right.perPeriod) {
    const priced = left.perPeriod ? left : right;
    guesses.push(
      `the price per ${priced.perPeriod} in "${priced.written.trim()}" taken to be per the invoice's billing period`,
    );
  }
  return { agree: true, guess: guesses.length > 0 ? guesses.join('; ') : null };
}

// A price per unit and period ("user/month") and a line billed in that period ("MON"): suppliers
// of subscriptions send the period as the unit and count unit-periods in the quantity. Named as a
// guess: the line's quantity is taken to count users (or TB...) times months.
function billedPerPeriod(priced: ReadUnit, billed: ReadUnit): string | null {
  if (
    priced.perPeriod === null ||
    billed.perPeriod !== null ||
    billed.code === null ||
    billed.name !== priced.perPeriod
  )
    return null;
  const what = priced.written
    .trim()
    .replace(LEADING_CURRENCY, '')
    .replace(LEADING_PER, '')
    .replace(/\s+/g, ' ')
    .split(PERIOD_SPLIT)[0];
  return `the line billed per ${billed.name} against the price per ${what} per ${priced.perPeriod} in "${priced.written.trim()}": its quantity taken to count ${what}-${priced.perPeriod}s`;
}
