/**
 * Reads a header field from its labels: specific labels before weak ones ("No", "Date",
 * "Total"), nearest value first, the first value the field's reader accepts.
 */
import type { LabelHit, LabelKey, ValueCandidate } from './fields.js';
import { valuesOf } from './fields.js';
import type { Line } from '../../../shared/layout/lines.js';

/** Labels too common to trust before a specific one ("No", "Date", "Total"). */
const WEAK_TERMS = new Set([
  'no',
  'nr',
  'n°',
  'number',
  'nummer',
  'numero',
  'numéro',
  'date',
  'dato',
  'datum',
  'pvm',
  'to',
  'til',
  'till',
  'an',
  'aan',
  'de',
  'van',
  'from',
  'fra',
  'från',
  'von',
  'invoice',
  'faktura',
  'lasku',
  'rechnung',
  'facture',
  'factuur',
  'kreditnota',
  'creditnota',
  'gutschrift',
  'avoir',
  'order',
  'ordre',
  'commande',
  'po',
  'org',
  'vat',
  'btw',
  'tax',
  'due',
  'contract',
  'contrat',
  'vertrag',
  'avtale',
  'avtal',
  'aftale',
  'sopimus',
  'kunde',
  'kund',
  'customer',
  'client',
  'klant',
  'asiakas',
]);

export interface Found<T> {
  value: T;
  hit: LabelHit;
  candidate: ValueCandidate;
}

export class FieldReader {
  constructor(
    private readonly hits: readonly LabelHit[],
    private readonly lines: readonly Line[],
    private readonly labelled: ReadonlySet<string>,
  ) {}

  first<T>(key: LabelKey, read: (candidate: ValueCandidate) => T | null): Found<T> | null {
    return this.firstOutside(key, read, new Set());
  }

  firstOutside<T>(
    key: LabelKey,
    read: (candidate: ValueCandidate) => T | null,
    outside: ReadonlySet<number>,
  ): Found<T> | null {
    const ranked = this.hits
      .filter((hit) => hit.keys.includes(key) && !outside.has(hit.line.index))
      .sort((a, b) => rank(a) - rank(b) || a.line.index - b.line.index);
    for (const hit of ranked) {
      for (const candidate of valuesOf(hit, this.lines, this.labelled)) {
        const value = read(candidate);
        if (value !== null) return { value, hit, candidate };
      }
    }
    return null;
  }
}

function rank(hit: LabelHit): number {
  return isWeak(hit) ? 1 : 0;
}

export function isWeak(hit: LabelHit): boolean {
  return WEAK_TERMS.has(hit.term);
}

export function strength(hit: LabelHit): number {
  return isWeak(hit) ? 0.7 : 0.9;
}
