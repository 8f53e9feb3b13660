import { Decimal } from 'decimal.js';
import { HOME_CURRENCY, type ExchangeRateRow } from './model.js';
import { daysBetween, isoDay } from './values.js';

/** How far back a rate may be taken from: covers weekends and the longest bank holiday runs (Easter). */
export const MAX_RATE_AGE_DAYS = 7;

/** Inverse and cross rates are rounded (half up) to this many significant digits; direct rates are kept as published. */
export const DERIVED_RATE_SIGNIFICANT_DIGITS = 10;

/** Enough digits that intermediate results never limit the 10 significant digits kept. */
const Exact = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

export interface RateLookupRow extends Omit<ExchangeRateRow, 'source'> {
  /** A RateSource, or any other source name a stored row carries. */
  source: string;
}

export interface FoundRate {
  /** Decimal string: 1 `from` = rate `to`. */
  rate: string;
  /** The day of the published rate used (the older leg's day for a cross rate). */
  date: string;
  /** The source, "a+b" for a cross rate whose legs come from two sources, "identity" for from = to. */
  source: string;
  /** The currency a cross rate goes through. */
  via?: string;
}

export type RateLookup = (from: string, to: string, date: string) => FoundRate | null;

interface Observation {
  date: string;
  rate: Decimal;
}

/** One source's observations of one published pair, oldest first. */
interface Series {
  source: string;
  base: string;
  quote: string;
  observations: Observation[];
}

/** A way from one currency to another in one source: the series, read directly or inverted. */
interface Leg {
  series: Series;
  inverted: boolean;
}

interface LegRate {
  source: string;
  date: string;
  rate: Decimal;
}

/**
 * Looks up the rate to convert `from` into `to` on `date` (YYYY-MM-DD), from these rows only.
 *
 * - same currency: 1;
 * - per source, best first (the central bank of `to`, then that of `from`, then by name): the
 *   published pair, its inverse, or a cross rate through a currency both are quoted against in that
 *   source (NOK->SEK via EUR in ECB rows, via NOK in Norges Bank rows);
 * - only then a cross rate whose two legs come from different sources;
 * - each leg uses the rate of `date`, else the latest earlier one at most 7 days older; never a
 *   later rate and never an older one: then the answer is null.
 */
export function createRateLookup(rows: readonly RateLookupRow[]): RateLookup {
  const index = buildIndex(rows);
  return (fromCode, toCode, date) => {
    if (isoDay(date) === null) throw new TypeError(`Rate lookup needs a YYYY-MM-DD date, got "${date}".`);
    const from = fromCode.trim().toUpperCase();
    const to = toCode.trim().toUpperCase();
    if (from === to) return { rate: '1', date, source: 'identity' };
    for (const source of sourcesInPreference(index, from, to)) {
      const found = sameSourceRate(index, source, from, to, date);
      if (found) return found;
    }
    return mixedSourceCross(index, from, to, date);
  };
}

/** source -> currency -> other currency -> leg from the first to the second. */
type Index = Map<string, Map<string, Map<string, Leg>>>;

function buildIndex(rows: readonly RateLookupRow[]): Index {
  const seriesByKey = new Map<string, Series>();
  for (const row of rows) {
    const key = `${row.source}|${row.baseCurrency}|${row.quoteCurrency}`;
    let series = seriesByKey.get(key);
    if (!series) {
      series = { source: row.source, base: row.baseCurrency, quote: row.quoteCurrency, observations: [] };
      seriesByKey.set(key, series);
    }
    series.observations.push({ date: row.date, rate: new Exact(row.rate) });
  }
  const index: Index = new Map();
  for (const series of seriesByKey.values()) {
    series.observations = oldestFirstWithoutRepeats(series);
    addLeg(index, series.source, series.base, series.quote, { series, inverted: false });
    addLeg(index, series.source, series.quote, series.base, { series, inverted: true });
  }
  return index;
}

// The ECB history and daily files overlap, so the same observation may come twice; two different
// rates for one day of one series is bad data, which must not be resolved silently.
function oldestFirstWithoutRepeats({ source, base, quote, observations }: Series): Observation[] {
  const byDate = new Map<string, Observation>();
  for (const observation of observations) {
    const earlier = byDate.get(observation.date);
    if (earlier && !earlier.rate.equals(observation.rate)) {
      throw new Error(
        `Two different ${source} rates for ${base}/${quote} on ${observation.date}: ${earlier.rate.toFixed()} and ${observation.rate.toFixed()}.`,
      );
    }
    byDate.set(observation.date, observation);
  }
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

function addLeg(index: Index, source: string, from: string, to: string, leg: Leg): void {
  let currencies = index.get(source);
  if (!currencies) index.set(source, (currencies = new Map<string, Map<string, Leg>>()));
  let legs = currencies.get(from);
  if (!legs) currencies.set(from, (legs = new Map<string, Leg>()));
  legs.set(to, leg);
}

function sourcesInPreference(index: Index, from: string, to: string): string[] {
  const rank = (source: string): number => (HOME_CURRENCY[source] === to ? 0 : HOME_CURRENCY[source] === from ? 1 : 2);
  return [...index.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

function sameSourceRate(index: Index, source: string, from: string, to: string, date: string): FoundRate | null {
  const legs = index.get(source);
  const fromLegs = legs?.get(from);
  if (!legs || !fromLegs) return null;
  const direct = fromLegs.get(to);
  if (direct) {
    const rate = legRate(direct, date);
    if (rate) return { rate: direct.inverted ? derived(rate.rate) : rate.rate.toFixed(), date: rate.date, source };
  }
  for (const via of pivotsInPreference(fromLegs, legs.get(to), source)) {
    const first = legRate(fromLegs.get(via), date);
    const second = legRate(legs.get(via)?.get(to), date);
    if (first && second) return crossRate(first, second, via);
  }
  return null;
}

function mixedSourceCross(index: Index, from: string, to: string, date: string): FoundRate | null {
  const ordered = sourcesInPreference(index, from, to);
  const pivots = new Set<string>();
  for (const source of ordered) for (const via of index.get(source)?.get(from)?.keys() ?? []) pivots.add(via);
  for (const via of [...pivots].sort()) {
    if (via === to) continue;
    const first = firstFound(ordered, (source) => legRate(index.get(source)?.get(from)?.get(via), date));
    const second = firstFound(ordered, (source) => legRate(index.get(source)?.get(via)?.get(to), date));
    if (first && second) return crossRate(first, second, via);
  }
  return null;
}

/** Currencies both sides are quoted against in one source, the source's own currency first. */
function pivotsInPreference(
  fromLegs: Map<string, Leg>,
  toLegs: Map<string, Leg> | undefined,
  source: string,
): string[] {
  if (!toLegs) return [];
  const home = HOME_CURRENCY[source];
  return [...fromLegs.keys()]
    .filter((via) => toLegs.has(via))
    .sort((a, b) => Number(b === home) - Number(a === home) || a.localeCompare(b));
}

function firstFound<T>(items: string[], find: (item: string) => T | null): T | null {
  for (const item of items) {
    const found = find(item);
    if (found) return found;
  }
  return null;
}

/** The leg's exact rate on `date`, or on the latest earlier day within MAX_RATE_AGE_DAYS. */
function legRate(leg: Leg | undefined, date: string): LegRate | null {
  if (!leg) return null;
  const observation = latestOnOrBefore(leg.series.observations, date);
  if (!observation || daysBetween(observation.date, date) > MAX_RATE_AGE_DAYS) return null;
  const rate = leg.inverted ? new Exact(1).div(observation.rate) : observation.rate;
  return { source: leg.series.source, date: observation.date, rate };
}

function latestOnOrBefore(observations: Observation[], date: string): Observation | null {
  let low = 0;
  let high = observations.length - 1;
  let found: Observation | null = null;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const observation = observations[middle]!;
    if (observation.date <= date) {
      found = observation;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

function crossRate(first: LegRate, second: LegRate, via: string): FoundRate {
  const source = first.source === second.source ? first.source : `${first.source}+${second.source}`;
  const date = first.date < second.date ? first.date : second.date;
  return { rate: derived(first.rate.times(second.rate)), date, source, via };
}

/** Rounded once, at the end, so a cross rate carries no rounding from its inverted leg. */
function derived(rate: Decimal): string {
  return rate.toSignificantDigits(DERIVED_RATE_SIGNIFICANT_DIGITS, Decimal.ROUND_HALF_UP).toFixed();
}
