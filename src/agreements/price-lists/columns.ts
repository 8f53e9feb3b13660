import { compactText, foldText } from './normalize.js';
import type { PriceListField } from './model.js';

// Which column holds what. Headers are matched after folding (lower case, no diacritics, no
// punctuation), so the aliases below can be written naturally: "Yksikkö", "Art.-Nr.", "Fee %".

interface ColumnAliases {
  /** Header names, whole or as part of a longer header ("Net price (EUR)" contains "net price"). */
  readonly names: readonly string[];
  /** Heads of compound words (Nordic, German): "Listenpreis" ends in "preis", "Varenavn" in "navn". */
  readonly endings?: readonly string[];
}

/**
 * The one table of recognised column names. Extend it here; nothing else needs to change.
 * `notUsed` names columns that look like ours but are not (VAT rates, product groups): a
 * header matching any of them is left out, so "VAT %" never becomes the rate column.
 */
export const COLUMN_ALIASES: Readonly<Record<PriceListField | 'notUsed', ColumnAliases>> = {
  description: {
    names: [
      'description',
      'item',
      'product',
      'name',
      'article name',
      'item name',
      'product name',
      'item description',
      'product description',
      'beskrivelse',
      'varenavn',
      'vare',
      'produkt',
      'produktnavn',
      'artikkel',
      'artikkelnavn',
      'varebeskrivelse',
      'betegnelse',
      'varebetegnelse', // no, da
      'benämning',
      'beskrivning',
      'artikel',
      'artikelnamn',
      'produktnamn', // sv (and de "Artikel")
      'kuvaus',
      'tuote',
      'nimike',
      'tuotenimi',
      'nimi', // fi
      'Bezeichnung',
      'Artikelbezeichnung',
      'Produktbezeichnung',
      'Beschreibung',
      'Artikelname', // de
      'désignation',
      'libellé',
      'article',
      'produit',
      'description article', // fr
      'omschrijving',
      'artikelomschrijving',
      'productomschrijving',
      'productnaam',
      'artikelnaam', // nl
    ],
    endings: [
      'beskrivelse',
      'beskrivning',
      'betegnelse',
      'benämning',
      'navn',
      'namn',
      'nimi',
      'kuvaus',
      'bezeichnung',
      'beschreibung',
      'omschrijving',
    ],
  },
  sellerItemId: {
    names: [
      'article number',
      'article no',
      'article code',
      'item number',
      'item no',
      'item code',
      'sku',
      'part number',
      'part no',
      'product number',
      'product no',
      'product code',
      'supplier item id',
      'seller item id',
      'vendor item number',
      'art.nr',
      'art no',
      'artikkelnummer',
      'artikkelnr',
      'varenummer',
      'varenr',
      'varekode',
      'produktnummer',
      'produktnr', // no, da
      'artikelnummer',
      'artikelnr',
      'art nummer', // sv, de
      'tuotenumero',
      'tuotenro',
      'tuotekoodi',
      'nimikekoodi', // fi
      'Artikel-Nr.',
      'Art.-Nr.',
      'Materialnummer', // de
      'référence',
      'réf',
      'réf article',
      'code article',
      'n° article',
      'no article',
      "numéro d'article",
      'code produit', // fr
      'artikelcode',
      'art nr',
      'productcode',
      'bestelnummer', // nl
    ],
    endings: ['nummer', 'nr', 'numero', 'nro', 'koodi', 'kode', 'kod'],
  },
  unit: {
    names: [
      'unit',
      'uom',
      'unit of measure',
      'enhet',
      'enhed',
      'måleenhet',
      'yksikkö',
      'Einheit',
      'Mengeneinheit',
      'ME',
      'unité',
      'eenheid',
    ],
    endings: ['enhet', 'enhed', 'einheit', 'yksikkö', 'eenheid'],
  },
  price: {
    names: [
      'price',
      'unit price',
      'net price',
      'amount',
      'price per unit',
      'hourly rate',
      'pris',
      'enhetspris',
      'nettopris',
      'stykpris',
      'styckpris',
      'enhedspris',
      'a pris',
      'timepris',
      'timpris', // no, sv, da
      'hinta',
      'yksikköhinta',
      'nettohinta', // fi
      'Preis',
      'Einzelpreis',
      'Nettopreis',
      'Stückpreis', // de
      'prix',
      'prix unitaire',
      'prix net',
      'tarif',
      'prix ht', // fr
      'prijs',
      'stukprijs',
      'eenheidsprijs',
      'nettoprijs', // nl
    ],
    endings: ['pris', 'preis', 'hinta', 'prijs'],
  },
  currency: {
    names: [
      'currency',
      'currency code',
      'ccy',
      'valuta',
      'valutakode',
      'valutakod',
      'valuutta',
      'Währung',
      'devise',
      'monnaie',
    ],
  },
  validFrom: {
    names: [
      'valid from',
      'effective from',
      'effective date',
      'start date',
      'from date',
      'price from',
      'applies from',
      'gyldig fra',
      'gyldig fra og med',
      'gyldig fom',
      'gäller från',
      'gäller fr o m',
      'giltig från',
      'giltig fr o m',
      'startdato',
      'fra dato',
      'från datum', // no, sv, da
      'voimassa alkaen',
      'alkaen',
      'alkupäivä', // fi
      'Gültig ab',
      'Gültig von',
      'Preis ab', // de
      'valable à partir de',
      'date de début',
      'geldig vanaf',
      'ingangsdatum',
      'startdatum', // fr, nl
    ],
  },
  validUntil: {
    names: [
      'valid until',
      'valid to',
      'valid through',
      'valid thru',
      'expires',
      'expiry',
      'expiry date',
      'expiration date',
      'end date',
      'gyldig til',
      'gyldig til og med',
      'gyldig tom',
      'gäller till',
      'gäller tom',
      'giltig till',
      'giltig tom',
      'sluttdato',
      'slutdato',
      'voimassa',
      'voimassa asti',
      'Gültig bis',
      "valable jusqu'au",
      'geldig tot',
      'geldig tot en met',
    ],
  },
  rate: {
    names: [
      'discount',
      'fee %',
      'percent',
      'percentage',
      '%',
      'rate %',
      'rabatt',
      'sats',
      'prosent',
      'procent',
      'rabat', // no, sv, da
      'alennus',
      'prosentti', // fi
      'Prozent',
      'Prozentsatz', // de
      'remise',
      'pourcentage',
      'korting', // fr, nl
    ],
    endings: ['rabatt', 'rabat', 'alennus', 'prosent', 'procent', 'prozent', 'korting'],
  },
  basis: {
    names: [
      'basis',
      'applies to',
      'applied to',
      'rate basis',
      'grunnlag',
      'underlag',
      'grundlag',
      'peruste',
      'Grundlage',
      'Bemessungsgrundlage',
      'assiette',
      'grondslag',
    ],
    endings: ['grunnlag', 'underlag', 'grundlag', 'grundlage', 'peruste'],
  },
  notUsed: {
    names: [
      'vat',
      'mva',
      'moms',
      'mwst',
      'ust',
      'alv',
      'tax',
      'Mehrwertsteuer',
      'Umsatzsteuer',
      'arvonlisävero',
      'tva',
      'btw',
      'ttc',
      'group',
      'category',
      'kategori',
      'kategorie',
      'ean',
      'gtin',
    ],
    endings: ['gruppe', 'grupp', 'ryhmä', 'kategori', 'kategorie'],
  },
};

// Price headers often say what the price excludes; "VAT" there must not make the column unused.
const PRICE_QUALIFIERS = [
  'excl vat',
  'ex vat',
  'excluding vat',
  'excl tax',
  'ex tax',
  'before tax',
  'eks mva',
  'ekskl mva',
  'ex mva',
  'exkl moms',
  'ex moms',
  'ekskl moms',
  'exkl mwst',
  'ohne mwst',
  'zzgl mwst',
  'veroton',
  'alv 0',
  'ht',
  'hors tva',
  'excl btw',
  'exclusief btw',
  'ex btw',
];

// A preposition ends the head of the header: "Pris per enhet" is a price, not a unit.
const HEAD_ENDING_WORDS = new Set(['per', 'pr', 'pro', 'je']);

// Long cells are titles or notes, not headers: "Price list 2026 for Supplier X, valid until ..."
const MAX_HEADER_WORDS = 8;

type Field = PriceListField | 'notUsed';

interface PreparedAlias {
  field: Field;
  words: string[];
  compact: string;
}

const PREPARED_NAMES: PreparedAlias[] = Object.entries(COLUMN_ALIASES).flatMap(([field, aliases]) =>
  aliases.names.map((name) => ({
    field: field as Field,
    words: foldText(name).split(' '),
    compact: compactText(name),
  })),
);

const PREPARED_ENDINGS: { field: Field; ending: string }[] = Object.entries(COLUMN_ALIASES).flatMap(
  ([field, aliases]) =>
    (aliases.endings ?? []).map((ending) => ({ field: field as Field, ending: compactText(ending) })),
);

/** How sure a header match is; a column found by a stronger match wins over a weaker duplicate. */
export const MatchStrength = { ending: 1, contains: 2, exact: 3 } as const;
export type MatchStrength = (typeof MatchStrength)[keyof typeof MatchStrength];

export interface HeaderCellMatch {
  field: PriceListField;
  strength: MatchStrength;
}

interface Candidate {
  field: Field;
  end: number;
  length: number;
  strength: MatchStrength;
}

/** What field a header cell names, or null when it names none of ours. */
export function matchHeaderCell(header: string): HeaderCellMatch | null {
  const words = stripQualifiers(foldText(header));
  if (words.length === 0 || words.length > MAX_HEADER_WORDS) return null;
  if (namesUnusedColumn(words)) return null;
  const head = headWords(words);
  const candidates = [...exactCandidates(words), ...containedCandidates(head), ...endingCandidates(head)];
  const best = candidates.reduce<Candidate | null>(
    (chosen, candidate) => (chosen === null || ranksHigher(candidate, chosen) ? candidate : chosen),
    null,
  );
  return best === null ? null : { field: best.field as PriceListField, strength: best.strength };
}

// Checked on the whole header, not just its head: "Pris per enhet inkl. mva" is not our price.
function namesUnusedColumn(words: string[]): boolean {
  return [...containedCandidates(words), ...endingCandidates(words)].some((candidate) => candidate.field === 'notUsed');
}

function stripQualifiers(folded: string): string[] {
  let text = ` ${folded} `;
  for (const qualifier of PRICE_QUALIFIERS) text = text.replaceAll(` ${qualifier} `, ' ');
  return text.trim() === '' ? [] : text.trim().split(' ');
}

function headWords(words: string[]): string[] {
  const cut = words.findIndex((word, index) => index > 0 && HEAD_ENDING_WORDS.has(word));
  return cut === -1 ? words : words.slice(0, cut);
}

function exactCandidates(words: string[]): Candidate[] {
  const compact = words.join('');
  return PREPARED_NAMES.filter((alias) => alias.compact === compact).map((alias) => ({
    field: alias.field,
    end: words.length,
    length: compact.length,
    strength: MatchStrength.exact,
  }));
}

function containedCandidates(words: string[]): Candidate[] {
  const found: Candidate[] = [];
  for (const alias of PREPARED_NAMES) {
    const start = indexOfSequence(words, alias.words);
    if (start !== -1)
      found.push({
        field: alias.field,
        end: start + alias.words.length,
        length: alias.compact.length,
        strength: MatchStrength.contains,
      });
  }
  return found;
}

function endingCandidates(words: string[]): Candidate[] {
  const found: Candidate[] = [];
  words.forEach((word, index) => {
    for (const { field, ending } of PREPARED_ENDINGS) {
      if (word.length > ending.length && word.endsWith(ending))
        found.push({ field, end: index + 1, length: ending.length, strength: MatchStrength.ending });
    }
  });
  return found;
}

function indexOfSequence(words: string[], sequence: string[]): number {
  for (let start = 0; start + sequence.length <= words.length; start++) {
    if (sequence.every((word, offset) => words[start + offset] === word)) return start;
  }
  return -1;
}

// Exact beats contained beats compound ending. Among contained names the last one is the head
// of the header ("Item price" is a price, "Price currency" a currency); then the longer name.
function ranksHigher(a: Candidate, b: Candidate): boolean {
  if (a.strength !== b.strength) return a.strength > b.strength;
  if (a.end !== b.end) return a.end > b.end;
  return a.length > b.length;
}

export interface ColumnMapping {
  /** Column index (0-based) of each field found. */
  indexes: Partial<Record<PriceListField, number>>;
}

/** Map a row of header texts to fields; when two columns name one field the stronger match (then the first) wins. */
export function mapColumns(headerTexts: string[]): ColumnMapping {
  const indexes: Partial<Record<PriceListField, number>> = {};
  const strengths: Partial<Record<PriceListField, MatchStrength>> = {};
  headerTexts.forEach((text, index) => {
    const match = matchHeaderCell(text);
    if (match === null) return;
    const existing = strengths[match.field];
    if (existing !== undefined && existing >= match.strength) return;
    indexes[match.field] = index;
    strengths[match.field] = match.strength;
  });
  return { indexes };
}

/** A header row names a price (or rate) column and at least one other field. */
export function headerScore(mapping: ColumnMapping): number {
  const fields = Object.keys(mapping.indexes) as PriceListField[];
  const hasPrice = fields.includes('price') || fields.includes('rate');
  return hasPrice && fields.length >= 2 ? fields.length : 0;
}

export interface HeaderRowChoice {
  /** Position of the header row in the list given. */
  position: number;
  mapping: ColumnMapping;
}

/** The row among the first rows given that best matches known column names (the first of equals). */
export function findHeaderRow(rowsOfTexts: string[][]): HeaderRowChoice | null {
  let best: HeaderRowChoice | null = null;
  let bestScore = 0;
  for (const [position, texts] of rowsOfTexts.entries()) {
    const mapping = mapColumns(texts);
    const score = headerScore(mapping);
    if (score > bestScore) {
      best = { position, mapping };
      bestScore = score;
    }
  }
  return best;
}
