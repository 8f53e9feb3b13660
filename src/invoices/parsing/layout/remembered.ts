/**
 * The values a supplier's layout memory points at, read with the reader's own value readers, and
 * the record of which fields the memory gave. Totals count as given only when the arithmetic
 * chose them (net + VAT = gross, the lines sum to the net).
 */
import type { DecimalString } from '../model.js';
import type { ValueCandidate } from './fields.js';
import type { Found } from './field-reader.js';
import type { RememberedField } from './memory.js';
import { parseAmount, type DecimalMark } from '../../../shared/layout/numbers.js';
import { rememberedHit, type Recalled } from './recall.js';
import { equal, type TotalsReading } from './totals.js';

type TotalKey = 'net' | 'vat' | 'gross' | 'due';

const TOTAL_FIELDS: ReadonlyArray<[TotalKey, RememberedField]> = [
  ['net', 'totals.taxExclusive'],
  ['vat', 'totals.vatTotal'],
  ['gross', 'totals.taxInclusive'],
  ['due', 'totals.payable'],
];

export interface RememberedTotals {
  amounts: Partial<Record<TotalKey, DecimalString>>;
  /** Records the remembered totals the arithmetic kept. */
  confirm(totals: TotalsReading): void;
}

export class RememberedValues {
  /** The fields whose value came from the memory. */
  readonly used: RememberedField[] = [];

  constructor(private readonly recalled: Recalled | null) {}

  value<T>(field: RememberedField, read: (candidate: ValueCandidate) => T | null): Found<T> | null {
    const found = this.first(field, read);
    if (found) this.used.push(field);
    return found;
  }

  totals(mark: DecimalMark): RememberedTotals {
    const amounts: RememberedTotals['amounts'] = {};
    for (const [key, field] of TOTAL_FIELDS) {
      const found = this.first(field, (candidate) => amountOf(candidate, mark));
      if (found) amounts[key] = found.value;
    }
    return {
      amounts,
      confirm: (totals) => {
        for (const [key, field] of TOTAL_FIELDS) {
          const remembered = amounts[key];
          const chosen = totals[key];
          if (remembered !== undefined && chosen !== null && equal(chosen, remembered)) this.used.push(field);
        }
      },
    };
  }

  private first<T>(field: RememberedField, read: (candidate: ValueCandidate) => T | null): Found<T> | null {
    for (const candidate of this.recalled?.get(field) ?? []) {
      const value = read(candidate);
      if (value !== null) return { value, hit: rememberedHit(candidate, field), candidate };
    }
    return null;
  }
}

/** The first amount among the value's first words ("EUR 1 250,00", "1.250,00 €"). */
function amountOf(candidate: ValueCandidate, mark: DecimalMark): DecimalString | null {
  for (const word of candidate.words.slice(0, 3)) {
    const amount = parseAmount(word.text, mark);
    if (amount !== null) return amount;
  }
  return null;
}
