// Which agreed price item an invoice line is for. Rules (docs/checks.md):
// 1. the same seller article number (compared without case, spaces, dots, dashes);
// 2. otherwise the same normalized description, and then the same unit if both give one; a
//    price item with another article number than the line's is never matched by description.
// Among several candidates: the same unit first, then a price still valid on the invoice date,
// then the one that runs out first (the price in force on that date), then the highest price (so
// a finding never claims more than any fitting price would), then the id.
import { decOrNull } from './money.js';
import { normalizeDescription, normalizeItemId, normalizeUnit, sameUnit } from './text.js';
import type { CheckLine, CheckPriceItem, Confidence, IsoDate } from './types.js';

export type MatchedBy = 'seller_item_id' | 'description_and_unit' | 'description';

export interface PriceItemMatch {
  priceItem: CheckPriceItem;
  matchedBy: MatchedBy;
  /** How sure the match itself is (not the finding). */
  confidence: Confidence;
  /** In words a user can check. */
  reason: string;
  /** false when the price ran out (valid_until) before the invoice date: it does not apply. */
  applies: boolean;
  /** null when the line or the price item gives no unit. */
  unitsAgree: boolean | null;
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
  return item.validUntil === null || date === null || item.validUntil >= date;
}

export function matchPriceItem(line: MatchableLine, priceItems: readonly CheckPriceItem[], options: MatchOptions): PriceItemMatch | null {
  const index = priceIndexOf(priceItems, options.priceType);
  const byId = candidatesByItemId(line, index);
  if (byId.length > 0) return best(line, byId, 'seller_item_id', options.invoiceDate);
  const byDescription = candidatesByDescription(line, index);
  if (byDescription.length === 0) return null;
  const unitAgrees = byDescription.some((item) => sameUnit(line.unitCode, item.unit) === true);
  return best(line, byDescription, unitAgrees ? 'description_and_unit' : 'description', options.invoiceDate);
}

// Price items by normalized article number and description, built once per price list and
// price type: an agreement can hold thousands of items, and every line of every checker looks
// them up (a scan per line cost about 160 ms per check of 50 lines against 5,000 items).
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
}

function best(line: MatchableLine, candidates: CheckPriceItem[], matchedBy: MatchedBy, date: IsoDate | null): PriceItemMatch {
  const ranked = candidates
    .map((item): Ranked => ({ item, unitRank: unitRank(sameUnit(line.unitCode, item.unit)), applies: appliesOn(item, date) }))
    .sort(compareRanked);
  const top = ranked[0]!;
  const rivals = ranked.filter((other) => other !== top && sameTier(top, other) && priceOf(other.item) !== priceOf(top.item)).length;
  const unitsAgree = sameUnit(line.unitCode, top.item.unit);
  return {
    priceItem: top.item,
    matchedBy,
    confidence: matchConfidence(matchedBy, unitsAgree, rivals),
    reason: describeMatch(line, top.item, matchedBy, unitsAgree, top.applies, date, rivals),
    applies: top.applies,
    unitsAgree,
    rivals,
  };
}

// Same unit best, then no unit given, then another unit.
function unitRank(agrees: boolean | null): number {
  return agrees === true ? 0 : agrees === null ? 1 : 2;
}

function compareRanked(a: Ranked, b: Ranked): number {
  return (
    a.unitRank - b.unitRank ||
    Number(b.applies) - Number(a.applies) ||
    compareValidUntil(a.item.validUntil, b.item.validUntil) ||
    compareHigherPriceFirst(a.item, b.item) ||
    a.item.id.localeCompare(b.item.id)
  );
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
  return a.unitRank === b.unitRank && a.applies === b.applies && a.item.validUntil === b.item.validUntil && normalizeUnit(a.item.unit) === normalizeUnit(b.item.unit);
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

function describeMatch(line: MatchableLine, item: CheckPriceItem, matchedBy: MatchedBy, unitsAgree: boolean | null, applies: boolean, date: IsoDate | null, rivals: number): string {
  const parts = [
    matchedBy === 'seller_item_id'
      ? `article number ${line.sellerItemId} is price item "${item.description}"`
      : `description "${line.description}" is price item "${item.description}"${item.sellerItemId ? ` (article number ${item.sellerItemId})` : ''}`,
  ];
  if (unitsAgree === true) parts.push(`same unit (${item.unit})`);
  else if (unitsAgree === false) parts.push(`the agreement prices it per ${item.unit}, the invoice bills it per ${line.unitCode}`);
  else parts.push(item.unit ? 'the invoice line gives no unit' : 'the price list gives no unit');
  if (!applies) parts.push(`the agreed price was valid until ${item.validUntil}, before the invoice date ${date}`);
  if (rivals > 0) parts.push(`${rivals + 1} price items fit equally well; the highest price is used`);
  return parts.join('; ');
}
