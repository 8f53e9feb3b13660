// Which agreed price item an invoice line is for. Rules (docs/checks.md):
// 1. the same seller article number (compared without case, spaces, dots, dashes);
// 2. otherwise the same normalized description, and then the same unit if both give one; a
//    price item with another article number than the line's is never matched by description.
// Among several candidates: the same unit first (directly or through one of the price item's unit
// conversions), then a price valid on the invoice date (valid_from .. valid_until), then the one
// that started last (a price rise agreed ahead replaces the old price from its first day), then
// the one that runs out first (the price in force on that date), then the highest price (so a
// finding never claims more than any fitting price would), then the id.
import { compareUnits } from '../../agreements/units/index.js';
import { D, decOrNull, type Dec } from './money.js';
import { normalizeDescription, normalizeItemId, normalizeUnit } from './text.js';
import type { CheckLine, CheckPriceItem, Confidence, IsoDate } from './types.js';

export type MatchedBy = 'seller_item_id' | 'description_and_unit' | 'description';

export interface PriceItemMatch {
  priceItem: CheckPriceItem;
  matchedBy: MatchedBy;
  /** How sure the match itself is (not the finding). */
  confidence: Confidence;
  /** In words a user can check. */
  reason: string;
  /** false when the price is not valid on the invoice date (before valid_from, after valid_until). */
  applies: boolean;
  /** null when the line or the price item gives no unit; true also through a unit conversion. */
  unitsAgree: boolean | null;
  /** The agreed price per line unit is the price item's amount times this (1 without a conversion). */
  unitFactor: Dec;
  /** The price item's conversion used, in words ("1 förp = 10 EA"), or null. */
  unitConversion: string | null;
  /** What agreeing on the unit assumed (a unit read from a word, two codes taken as one), or null. */
  unitGuess: string | null;
  /** Other candidates as good as this one but with another price. */
  rivals: number;
}

export type MatchableLine = Pick<CheckLine, 'description' | 'sellerItemId' | 'unitCode'>;

export interface MatchOptions {
  /** The invoice issue date; price items valid until an earlier day do not apply. */
  invoiceDate: IsoDate | null;
  /** Only price items of this type. */
  priceType?: 'amount' | 'rate';
}

export function appliesOn(item: CheckPriceItem, date: IsoDate | null): boolean {
  if (date === null) return true;
  return (item.validUntil === null || item.validUntil >= date) && (item.validFrom == null || item.validFrom <= date);
}

/** Why a matched price does not apply on the date, in words. */
export function notApplyingReason(item: CheckPriceItem, date: IsoDate | null): string {
  if (item.validFrom != null && date !== null && item.validFrom > date)
    return `the agreed price applies from ${item.validFrom}, after the invoice date ${date}`;
  return `the agreed price was valid until ${item.validUntil}, before the invoice date ${date}`;
}

export interface UnitRelation {
  agree: boolean | null;
  factor: Dec;
  conversion: string | null;
  guess: string | null;
}

const ONE = new D(1);
const UNKNOWN_UNIT: UnitRelation = { agree: null, factor: ONE, conversion: null, guess: null };

/**
 * How the line's unit relates to the price item's: the same unit (read through the unit table),
 * or one the item's unit conversions lead to ("1 förp = 10 EA": the price per EA is a tenth of
 * the price per förp), or another unit.
 */
export function unitRelation(lineUnit: string | null, item: CheckPriceItem): UnitRelation {
  const direct = compareUnits(lineUnit, item.unit);
  if (direct.agree === true) return { agree: true, factor: ONE, conversion: null, guess: direct.guess };
  if (!lineUnit) return UNKNOWN_UNIT;
  for (const conversion of item.unitConversions ?? []) {
    const quantity = decOrNull(conversion.quantity);
    if (quantity === null || quantity.lte(0)) continue;
    const words = `1 ${conversion.fromUnit} = ${quantity.toFixed()} ${conversion.toUnit}`;
    // Priced per `fromUnit`, billed per `toUnit`: one line unit is 1/quantity of a priced unit.
    const down = relate(item.unit, conversion.fromUnit, conversion.toUnit, lineUnit);
    if (down !== null) return { agree: true, factor: ONE.div(quantity), conversion: words, guess: down || null };
    const up = relate(item.unit, conversion.toUnit, conversion.fromUnit, lineUnit);
    if (up !== null) return { agree: true, factor: quantity, conversion: words, guess: up || null };
  }
  return direct.agree === null ? UNKNOWN_UNIT : { agree: false, factor: ONE, conversion: null, guess: null };
}

// The price item's unit is `pricedAs` (or the item gives none) and the line's unit is `billedAs`:
// '' when that holds with no guess, the guesses when it holds through a mapping, null otherwise.
function relate(itemUnit: string | null, pricedAs: string, billedAs: string, lineUnit: string): string | null {
  const priced = itemUnit ? compareUnits(itemUnit, pricedAs) : { agree: true, guess: null };
  const billed = compareUnits(billedAs, lineUnit);
  if (priced.agree !== true || billed.agree !== true) return null;
  return [priced.guess, billed.guess].filter(Boolean).join('; ');
}

export function matchPriceItem(
  line: MatchableLine,
  priceItems: readonly CheckPriceItem[],
  options: MatchOptions,
): PriceItemMatch | null {
  const index = priceIndexOf(priceItems, options.priceType);
  const byId = candidatesByItemId(line, index);
  if (byId.length > 0) return best(line, byId, 'seller_item_id', options.invoiceDate);
  const byDescription = candidatesByDescription(line, index);
  if (byDescription.length === 0) return null;
  const unitAgrees = byDescription.some((item) => unitRelation(line.unitCode, item).agree === true);
  return best(line, byDescription, unitAgrees ? 'description_and_unit' : 'description', options.invoiceDate);
}

// Price items by normalized article number and description, built once per price list and
// price type: an agreement can hold thousands of items, and every line of every checker looks
// them up (a scan per line was the largest cost of a check, docs/benchmarks.md).
interface PriceIndex {
  byItemId: Map<string, CheckPriceItem[]>;
  byDescription: Map<string, { item: CheckPriceItem; itemId: string | null }[]>;
}

// One index for any price type and one per type, built together: every item's article number
// and description are normalized once (folding text is the costly part at 50,000 items).
type PriceIndexes = Record<'any' | 'amount' | 'rate', PriceIndex>;

const priceIndexes = new WeakMap<readonly CheckPriceItem[], PriceIndexes>();

function priceIndexOf(priceItems: readonly CheckPriceItem[], priceType: 'amount' | 'rate' | undefined): PriceIndex {
  let indexes = priceIndexes.get(priceItems);
  if (!indexes) {
    indexes = buildPriceIndexes(priceItems);
    priceIndexes.set(priceItems, indexes);
  }
  return indexes[priceType ?? 'any'];
}

function buildPriceIndexes(priceItems: readonly CheckPriceItem[]): PriceIndexes {
  const empty = (): PriceIndex => ({ byItemId: new Map(), byDescription: new Map() });
  const indexes: PriceIndexes = { any: empty(), amount: empty(), rate: empty() };
  for (const item of priceItems) {
    const itemId = normalizeItemId(item.sellerItemId);
    const description = normalizeDescription(item.description);
    for (const index of [indexes.any, indexes[item.priceType]]) {
      if (itemId !== null) listIn(index.byItemId, itemId).push(item);
      if (description !== null) listIn(index.byDescription, description).push({ item, itemId });
    }
  }
  return indexes;
}

function listIn<T>(map: Map<string, T[]>, key: string): T[] {
  const list = map.get(key) ?? [];
  map.set(key, list);
  return list;
}

function candidatesByItemId(line: MatchableLine, index: PriceIndex): CheckPriceItem[] {
  const id = normalizeItemId(line.sellerItemId);
  return id === null ? [] : (index.byItemId.get(id) ?? []);
}

function candidatesByDescription(line: MatchableLine, index: PriceIndex): CheckPriceItem[] {
  const description = normalizeDescription(line.description);
  if (description === null) return [];
  const lineId = normalizeItemId(line.sellerItemId);
  return (index.byDescription.get(description) ?? [])
    .filter(({ itemId }) => lineId === null || itemId === null || lineId === itemId)
    .map(({ item }) => item);
}

interface Ranked {
  item: CheckPriceItem;
  unitRank: number;
  applies: boolean;
  units: UnitRelation;
}

function best(
  line: MatchableLine,
  candidates: CheckPriceItem[],
  matchedBy: MatchedBy,
  date: IsoDate | null,
): PriceItemMatch {
  const ranked = candidates
    .map((item): Ranked => {
      const units = unitRelation(line.unitCode, item);
      return { item, unitRank: unitRank(units), applies: appliesOn(item, date), units };
    })
    .sort(compareRanked);
  const top = ranked[0]!;
  const rivals = ranked.filter(
    (other) => other !== top && sameTier(top, other) && priceOf(other.item) !== priceOf(top.item),
  ).length;
  const { units } = top;
  let confidence = matchConfidence(matchedBy, units.agree, rivals);
  // A unit read through a mapping is a guess: never certain (docs/checks.md, "Certainty").
  if (units.guess) confidence = lowerOf(confidence, 'high');
  return {
    priceItem: top.item,
    matchedBy,
    confidence,
    reason: describeMatch(line, top.item, matchedBy, units, top.applies, date, rivals),
    applies: top.applies,
    unitsAgree: units.agree,
    unitFactor: units.factor,
    unitConversion: units.conversion,
    unitGuess: units.guess || null,
    rivals,
  };
}

// Same unit best (as written, then through a mapping, then through a conversion), then no unit
// given, then another unit.
function unitRank(units: UnitRelation): number {
  if (units.agree === true) return units.conversion ? 2 : units.guess ? 1 : 0;
  return units.agree === null ? 3 : 4;
}

function compareRanked(a: Ranked, b: Ranked): number {
  return (
    a.unitRank - b.unitRank ||
    Number(b.applies) - Number(a.applies) ||
    compareValidFrom(a.item.validFrom ?? null, b.item.validFrom ?? null) ||
    compareValidUntil(a.item.validUntil, b.item.validUntil) ||
    compareHigherPriceFirst(a.item, b.item) ||
    a.item.id.localeCompare(b.item.id)
  );
}

// The later start first: of two prices in force, the one agreed to start last replaced the other.
function compareValidFrom(a: IsoDate | null, b: IsoDate | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a > b ? -1 : 1;
}

function compareValidUntil(a: IsoDate | null, b: IsoDate | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

function compareHigherPriceFirst(a: CheckPriceItem, b: CheckPriceItem): number {
  const left = decOrNull(a.amount ?? a.fraction);
  const right = decOrNull(b.amount ?? b.fraction);
  if (left === null || right === null) return left === right ? 0 : left === null ? 1 : -1;
  return right.comparedTo(left);
}

function sameTier(a: Ranked, b: Ranked): boolean {
  return (
    a.unitRank === b.unitRank &&
    a.applies === b.applies &&
    (a.item.validFrom ?? null) === (b.item.validFrom ?? null) &&
    a.item.validUntil === b.item.validUntil &&
    normalizeUnit(a.item.unit) === normalizeUnit(b.item.unit) &&
    a.units.factor.eq(b.units.factor)
  );
}

function priceOf(item: CheckPriceItem): string {
  const value = decOrNull(item.amount ?? item.fraction);
  return `${item.priceType}:${value?.toFixed() ?? ''}:${item.currencyCode ?? ''}`;
}

function matchConfidence(matchedBy: MatchedBy, unitsAgree: boolean | null, rivals: number): Confidence {
  let level: Confidence;
  if (matchedBy === 'seller_item_id') level = unitsAgree === true ? 'certain' : unitsAgree === null ? 'high' : 'medium';
  else if (matchedBy === 'description_and_unit') level = 'high';
  else level = unitsAgree === false ? 'low' : 'medium';
  return rivals > 0 ? lowerOf(level, 'medium') : level;
}

const LEVELS: Confidence[] = ['low', 'medium', 'high', 'certain'];

/** The less sure of two confidence levels. */
export function lowerOf(a: Confidence, b: Confidence): Confidence {
  return LEVELS[Math.min(LEVELS.indexOf(a), LEVELS.indexOf(b))]!;
}

/** One level less sure (low stays low). */
export function lessSure(level: Confidence): Confidence {
  return LEVELS[Math.max(0, LEVELS.indexOf(level) - 1)]!;
}

function describeMatch(
  line: MatchableLine,
  item: CheckPriceItem,
  matchedBy: MatchedBy,
  units: UnitRelation,
  applies: boolean,
  date: IsoDate | null,
  rivals: number,
): string {
  const unitsAgree = units.agree;
  const parts = [
    matchedBy === 'seller_item_id'
      ? `article number ${line.sellerItemId} is price item "${item.description}"`
      : `description "${line.description}" is price item "${item.description}"${item.sellerItemId ? ` (article number ${item.sellerItemId})` : ''}`,
  ];
  if (unitsAgree === true && units.conversion)
    parts.push(
      `the agreement prices it per ${item.unit ?? units.conversion.split(' ')[1]}, the invoice bills it per ${line.unitCode}, converted at ${units.conversion}`,
    );
  else if (unitsAgree === true && !units.guess) parts.push(`same unit (${item.unit})`);
  else if (unitsAgree === true)
    parts.push(`the same unit: the agreement's "${item.unit}" and the invoice's "${line.unitCode}"`);
  else if (unitsAgree === false)
    parts.push(`the agreement prices it per ${item.unit}, the invoice bills it per ${line.unitCode}`);
  else parts.push(item.unit ? 'the invoice line gives no unit' : 'the price list gives no unit');
  if (units.guess) parts.push(`assumed: ${units.guess}`);
  if (!applies) parts.push(notApplyingReason(item, date));
  if (rivals > 0) parts.push(`${rivals + 1} price items fit equally well; the highest price is used`);
  return parts.join('; ');
}
