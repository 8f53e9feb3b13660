// Decimal arithmetic for the checkers. A private decimal.js constructor with 40 significant digits
// so that divisions (base quantities, inverted exchange rates) lose nothing that could show in a
// cent; the shared default constructor is left alone. Rounding happens once, at the end.
import { Decimal } from 'decimal.js';
import type { CheckSettings, DecimalInput } from './types.js';

export const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = Decimal;

export const ZERO = new D(0);

export function dec(value: DecimalInput): Dec {
  return new D(value.toString());
}

export function decOrNull(value: DecimalInput | null | undefined): Dec | null {
  if (value === null || value === undefined) return null;
  const text = value.toString().trim();
  if (text === '') return null;
  try {
    return new D(text);
  } catch {
    return null;
  }
}

/** A line's figures as decimals (null when absent or unreadable). */
export interface LineFigures {
  quantity: Dec | null;
  unitPrice: Dec | null;
  baseQuantity: Dec | null;
  netAmount: Dec | null;
}

// Several checkers read the same figures of every line: each is parsed once per line object
// (the checkers share the line objects of one input), not once per checker.
const figuresByLine = new WeakMap<object, LineFigures>();

export function lineFigures(line: {
  quantity: DecimalInput | null;
  unitPrice: DecimalInput | null;
  priceBaseQuantity: DecimalInput | null;
  netAmount: DecimalInput | null;
}): LineFigures {
  let figures = figuresByLine.get(line);
  if (!figures) {
    figures = {
      quantity: decOrNull(line.quantity),
      unitPrice: decOrNull(line.unitPrice),
      baseQuantity: decOrNull(line.priceBaseQuantity),
      netAmount: decOrNull(line.netAmount),
    };
    figuresByLine.set(line, figures);
  }
  return figures;
}

export function sumOf(values: Dec[]): Dec {
  return values.reduce((total, value) => total.plus(value), ZERO);
}

// Asked for every amount of every line: an Intl.NumberFormat costs tens of microseconds to
// build, which made it the largest single cost of checking a 50,000-line invoice.
const minorUnitsByCurrency = new Map<string, number>();

/** Decimal places of the currency's minor unit (JPY 0, EUR 2, KWD 3); 2 when unknown. */
export function minorUnits(currencyCode: string | null): number {
  if (!currencyCode) return 2;
  let units = minorUnitsByCurrency.get(currencyCode);
  if (units === undefined) {
    try {
      units =
        new Intl.NumberFormat('en', { style: 'currency', currency: currencyCode }).resolvedOptions()
          .maximumFractionDigits ?? 2;
    } catch {
      units = 2;
    }
    // Currency codes come from invoices: keep the cache bounded.
    if (minorUnitsByCurrency.size < 1000) minorUnitsByCurrency.set(currencyCode, units);
  }
  return units;
}

const halfMinorUnits = new Map<number, Dec>();

/** Half of the currency's smallest coin: differences up to this are rounding, not errors. */
export function halfMinorUnit(currencyCode: string | null): Dec {
  const places = minorUnits(currencyCode);
  let half = halfMinorUnits.get(places);
  if (!half) {
    half = new D(5).times(new D(10).pow(-(places + 1)));
    halfMinorUnits.set(places, half);
  }
  return half;
}

/** Rounded half-up to the currency's minor unit, shown with at least two decimals. */
export function money(value: Dec, currencyCode: string | null): string {
  const places = minorUnits(currencyCode);
  return value.toDecimalPlaces(places, Decimal.ROUND_HALF_UP).toFixed(Math.max(2, places));
}

/** Whether an amount is still something after rounding to the currency's minor unit. */
export function isMaterial(value: Dec, currencyCode: string | null): boolean {
  return !value.toDecimalPlaces(minorUnits(currencyCode), Decimal.ROUND_HALF_UP).isZero();
}

/** A price or quantity as written, without forced scale; long conversions cut to 6 places. */
export function plain(value: Dec): string {
  return value.decimalPlaces() > 6 ? value.toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed() : value.toFixed();
}

/** A price as a decimal string with 2 to 6 decimals ("10.00", "12.3457"). */
export function priceString(value: Dec): string {
  return value.toFixed(Math.max(2, Math.min(value.decimalPlaces(), 6)));
}

/** An amount for prose: "12.50 NOK". */
export function showMoney(value: Dec, currencyCode: string | null): string {
  return `${priceString(value)}${currencyCode ? ` ${currencyCode}` : ''}`;
}

/** What the checks assume when the organization's settings are not given. */
export const DEFAULT_CHECK_SETTINGS: CheckSettings = { lineRoundingMinorUnits: 1 };

/**
 * How far a line amount may be from its arithmetic and still be rounding: the organization's
 * setting in the currency's smallest unit (one cent by default), and never less than half of it.
 */
export function lineRoundingTolerance(settings: CheckSettings | undefined, currencyCode: string | null): Dec {
  const units = Math.max(0, (settings ?? DEFAULT_CHECK_SETTINGS).lineRoundingMinorUnits);
  const places = minorUnits(currencyCode);
  // Asked for every line: computed once per setting and currency precision.
  const key = `${units}:${places}`;
  let tolerance = tolerances.get(key);
  if (!tolerance) {
    tolerance = D.max(halfMinorUnit(currencyCode), new D(units).times(new D(10).pow(-places)));
    if (tolerances.size < 1000) tolerances.set(key, tolerance);
  }
  return tolerance;
}

const tolerances = new Map<string, Dec>();
