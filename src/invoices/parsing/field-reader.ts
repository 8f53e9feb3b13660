import { parseCompactDate, parseIsoDate } from './dates.js';
import { normalizeDecimal } from './decimal.js';
import type { DecimalString, IsoDate } from './model.js';
import { attributeOf, textOf, type XmlElement } from './xml-tree.js';

/** A hostile file with thousands of bad values must not produce an unbounded warning list. */
const MAX_WARNINGS = 50;

/**
 * Converts raw element text into model values and records a warning for every value that is
 * present but unreadable, so a bad amount shows up as "null + warning" instead of vanishing.
 */
export class FieldReader {
  readonly warnings: string[] = [];
  #dropped = 0;

  warn(message: string): void {
    if (this.warnings.length < MAX_WARNINGS) this.warnings.push(message);
    else this.#dropped += 1;
  }

  /** The collected warnings, with a final note when some had to be dropped. */
  allWarnings(): string[] {
    return this.#dropped === 0 ? [...this.warnings] : [...this.warnings, `${this.#dropped} further warnings omitted.`];
  }

  decimal(element: XmlElement | undefined, field: string): DecimalString | null {
    return this.decimalText(textOf(element), field);
  }

  decimalText(raw: string | null, field: string): DecimalString | null {
    if (raw === null) return null;
    const value = normalizeDecimal(raw);
    if (value === null) this.warn(`${field}: "${preview(raw)}" is not a decimal number and was ignored.`);
    return value;
  }

  /** UBL xs:date. */
  isoDate(element: XmlElement | undefined, field: string): IsoDate | null {
    const raw = textOf(element);
    if (raw === null) return null;
    const value = parseIsoDate(raw);
    if (value === null) this.warn(`${field}: "${preview(raw)}" is not a YYYY-MM-DD date and was ignored.`);
    return value;
  }

  /** CII udt:DateTimeString and Finvoice dates: CCYYMMDD with a format attribute. */
  compactDate(element: XmlElement | undefined, field: string, formatAttribute: string): IsoDate | null {
    const raw = textOf(element);
    if (raw === null) return null;
    const format = attributeOf(element, formatAttribute);
    const value = parseCompactDate(raw, format);
    if (value === null)
      this.warn(
        `${field}: "${preview(raw)}" (format ${format ?? 'unspecified'}) is not a CCYYMMDD date and was ignored.`,
      );
    return value;
  }
}

function preview(raw: string): string {
  return raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
}
