// The words suppliers use for fees, charges, discounts and rate bases, in the eight languages we
// read (English, Norwegian, Swedish, Danish, Finnish, German, French, Dutch). One table, so a
// rule reads "Fragttillæg", "Frakt", "Fracht" and "frais de port" as the same freight charge.
//
// All words are written folded (foldText: lower case, no diacritics, æ = ae, ø = o, ß = ss), and
// matched against the folded words of a text:
// - a word of five letters or more matches inside a word ("fakturagebyr" holds "gebyr"), since
//   Nordic, German and Dutch write compounds;
// - a word of four letters matches at the start or end of a word ("kunderabat" ends in "rabat");
// - a shorter word, or one written "=word", matches only a whole word ("port", "fee");
// - several words ("small order") match as a phrase of whole words.
import { foldText } from '../../agreements/price-lists/normalize.js';

/** What a charge is for. */
export type ChargeConcept =
  | 'freight'
  | 'fuel'
  | 'invoice_fee'
  | 'handling'
  | 'administration'
  | 'packing'
  | 'small_order'
  | 'environmental'
  | 'insurance'
  | 'reminder'
  | 'payment';

interface ConceptWords {
  /** Words that name the charge by themselves ("Frakt", "Handling"). */
  alone: string[];
  /** Words that name it only beside a fee word ("Invoice" + "fee", "Miljø" + "avgift"). */
  withFeeWord: string[];
}

export const CHARGE_CONCEPTS: Record<ChargeConcept, ConceptWords> = {
  freight: {
    alone: [
      'freight',
      'shipping',
      'carriage',
      'postage',
      'delivery charge',
      'delivery fee',
      'delivery cost', // en
      'frakt',
      'porto',
      'leveringskost',
      'forsendelse', // no
      'leveranskostnad',
      'leveransavgift', // sv (frakt, porto)
      'fragt',
      'leveringsomkostning', // da
      'rahti',
      'toimitusmaksu',
      'toimituskulu',
      'postikulu', // fi
      'fracht',
      'versand',
      'zustellgebuhr',
      'lieferkosten', // de
      'frais de port',
      '=port',
      'livraison',
      'frais d expedition', // fr
      'vracht',
      'verzend',
      'bezorgkosten',
      'leveringskosten', // nl
      'transport',
    ],
    withFeeWord: ['delivery', 'levering', 'leverans', 'toimitus', 'liefer'],
  },
  fuel: {
    alone: [
      'fuel surcharge',
      'drivstofftillegg',
      'bransletillagg',
      'braendstoftillaeg',
      'polttoainelisa',
      'treibstoffzuschlag',
      'kraftstoffzuschlag',
      'dieselzuschlag',
      'surcharge carburant',
      'brandstoftoeslag',
    ],
    withFeeWord: [
      'fuel',
      'drivstoff',
      'bransle',
      'braendstof',
      'polttoaine',
      'treibstoff',
      'kraftstoff',
      'diesel',
      'carburant',
      'brandstof',
    ],
  },
  invoice_fee: {
    alone: [
      'invoice fee',
      'invoicing fee',
      'billing fee',
      'paper invoice',
      'fakturagebyr',
      'fakturaavgift',
      'faktureringsavgift',
      'faktureringsgebyr',
      'papirfaktura',
      'pappersfaktura',
      'laskutuslisa',
      'laskutusmaksu',
      'paperilasku',
      'rechnungsgebuhr',
      'rechnungspauschale',
      'papierrechnung',
      'frais de facturation',
      'factuurkosten',
      'facturatiekosten',
      'papieren factuur',
    ],
    withFeeWord: [
      'invoice',
      'invoicing',
      'billing',
      'faktura',
      'fakturer',
      'laskutus',
      '=lasku',
      'rechnung',
      'facturation',
      '=facture',
      'factuur',
      'facturatie',
    ],
  },
  handling: {
    alone: [
      'handling',
      'ekspedisjon',
      'expeditionsavgift',
      'ekspeditionsgebyr',
      'kasittelymaksu',
      'kasittelykulu',
      'kasittelylisa',
      'bearbeitungsgebuhr',
      'manutention',
      'frais de dossier',
      'behandelingskosten',
      'orderkosten',
      'ordergebyr',
      'orderavgift',
      'ordregebyr',
      'ordreavgift',
      'auftragspauschale',
    ],
    // "Order fee" is handling; "Småordretillegg" (small order) is not, so order words count only whole.
    withFeeWord: ['kasittely', 'bearbeitung', 'behandeling', '=order', '=ordre', '=tilaus', '=auftrag', '=commande'],
  },
  administration: {
    alone: ['administratiekosten', 'verwaltungsgebuhr'],
    withFeeWord: [
      'administration',
      'administrasjon',
      'administrativ',
      'administratie',
      'hallinnointi',
      'hallinto',
      'verwaltung',
      '=admin',
    ],
  },
  packing: {
    alone: [
      'packing charge',
      'packaging fee',
      'emballasjegebyr',
      'verpackungskosten',
      'frais d emballage',
      'verpakkingskosten',
    ],
    withFeeWord: [
      'packing',
      'packaging',
      'emballasje',
      'emballage',
      'forpackning',
      'forpakning',
      'pakkaus',
      'verpackung',
      'verpakking',
    ],
  },
  small_order: {
    alone: [
      'small order',
      'minimum order',
      'smaordre',
      'minsteordre',
      'smaorder',
      'minimiorder',
      'smaordretillaeg',
      'pientilaus',
      'minimitilaus',
      'mindermengen',
      'kleinmengen',
      'mindestbestell',
      'petite commande',
      'minimum de commande',
      'kleine order',
      'minimale order',
      'klein order',
    ],
    withFeeWord: [],
  },
  environmental: {
    alone: [
      'miljoavgift',
      'miljogebyr',
      'miljotillaeg',
      'ymparistomaksu',
      'umweltpauschale',
      'eco participation',
      'milieutoeslag',
    ],
    withFeeWord: ['environmental', 'environment', 'miljo', 'ymparisto', 'umwelt', 'environnement', 'milieu', '=eco'],
  },
  insurance: {
    alone: ['insurance', 'forsikring', 'forsakring', 'vakuutus', 'versicherung', 'assurance', 'verzekering'],
    withFeeWord: [],
  },
  reminder: {
    alone: [
      'reminder fee',
      'purregebyr',
      'purring',
      'paminnelseavgift',
      'rykkergebyr',
      'muistutusmaksu',
      'mahngebuhr',
      'frais de relance',
      'aanmaningskosten',
      'herinneringskosten',
    ],
    withFeeWord: ['reminder', 'paminnelse', 'rykker', 'muistutus', '=mahn', 'relance', 'aanmaning', 'herinnering'],
  },
  payment: {
    alone: ['card fee', 'kortgebyr', 'kortavgift', 'korttimaksu', 'kartengebuhr', 'frais de carte', 'transactiekosten'],
    withFeeWord: [
      'card',
      'kort',
      'kortti',
      'karte',
      'carte',
      'payment',
      'betaling',
      'betalning',
      'maksutapa',
      'zahlung',
      'paiement',
    ],
  },
};

/** A charge at all: "fee", "gebyr", "avgift", "tillæg", "maksu", "Gebühr", "frais", "toeslag"... */
export const FEE_WORDS = [
  '=fee',
  '=fees',
  'surcharge',
  '=charge',
  '=charges',
  '=cost',
  '=costs', // en
  'gebyr',
  'avgift',
  'tillegg',
  'tillagg',
  'tillaeg',
  'omkostning', // no, sv, da
  'maksu',
  'lisa',
  'kulut',
  '=kulu', // fi
  'gebuhr',
  'zuschlag',
  'kosten',
  'pauschale', // de, nl
  '=frais',
  'supplement', // fr
  'toeslag', // nl
];

/** A discount: "rabatt", "rabat", "alennus", "Nachlass", "remise", "korting"... */
export const DISCOUNT_WORDS = [
  'discount',
  'rebate',
  'rabatt',
  'rabat',
  'alennus',
  'nachlass',
  'remise',
  'reduction',
  'korting',
  'prisavslag',
  'avslag',
];

/** Terms settled outside the invoice: bonuses, annual terms, cash or early-payment discounts. */
export const NOT_PER_INVOICE_WORDS = [
  'bonus',
  'annual',
  'yearly',
  'arlig',
  'arsrabatt',
  'vuosi',
  'jahres',
  'jahrlich',
  'skonto',
  'cash discount',
  'early payment',
  'prompt payment',
  'kontant',
  'kateis',
  'escompte',
  'annuel',
  'jaarlijks',
  'kassakorting',
  'betalingskorting',
  'omzet',
];

/** A rate applied line by line. */
export const LINE_BASIS_WORDS = [
  'line total',
  'line amount',
  'line net',
  'each line',
  'per line',
  'every line', // en
  'linjebelop',
  'linjebelob',
  'linjesum',
  'per linje',
  'pr linje',
  'hver linje', // no, da
  'radbelopp',
  'per rad',
  'varje rad', // sv
  'rivisumma',
  'riveittain',
  'rivikohtai', // fi
  'positionsbetrag',
  'zeilenbetrag',
  'je position',
  'pro position',
  'pro zeile', // de
  'montant de ligne',
  'montant de la ligne',
  'par ligne',
  'chaque ligne', // fr
  'regelbedrag',
  'per regel',
  'elke regel', // nl
];

/** A rate of the goods and services on the invoice. */
export const SUBTOTAL_BASIS_WORDS = [
  'subtotal',
  'sub total',
  'invoice total',
  'invoice amount',
  'invoice value',
  'net total',
  'total excl',
  'total excluding',
  'order value',
  'order total',
  'goods value', // en
  'delsum',
  'nettosum',
  'fakturabelop',
  'fakturasum',
  'fakturatotal',
  'ordresum',
  'ordreverdi',
  'varebelop',
  'nettobelop', // no, da
  'fakturabelopp',
  'ordervarde',
  'nettobelopp',
  'varuvarde', // sv
  'fakturabelob',
  'nettobelob',
  'ordrevaerdi',
  'varevaerdi',
  'varebelob', // da
  'valisumma',
  'laskun summa',
  'laskun loppusumma',
  'veroton',
  'tilauksen arvo',
  'nettosumma', // fi
  'zwischensumme',
  'nettobetrag',
  'rechnungsbetrag',
  'warenwert',
  'auftragswert',
  'bestellwert',
  'rechnungssumme', // de
  'sous total',
  'total ht',
  'montant ht',
  'montant de la facture',
  'montant facture',
  'valeur de la commande',
  'hors taxe', // fr
  'subtotaal',
  'factuurbedrag',
  'factuurtotaal',
  'nettobedrag',
  'totaal excl',
  'orderwaarde',
  'goederenwaarde', // nl
];

/** UNCL 7161 charge reason codes that say what a document charge is for. */
export const CHARGE_REASON_CODES: Record<string, ChargeConcept> = {
  FC: 'freight',
  DL: 'freight',
  ADT: 'freight',
  FI: 'payment',
  PC: 'packing',
  ABL: 'packing',
  SH: 'handling',
  IN: 'insurance',
  ABK: 'administration',
};

interface Folded {
  words: string[];
  padded: string;
}

function folded(text: string): Folded {
  const words = foldText(text).split(' ').filter(Boolean);
  return { words, padded: ` ${words.join(' ')} ` };
}

function matchesWord({ words, padded }: Folded, term: string): boolean {
  if (term.startsWith('=')) return words.includes(term.slice(1));
  if (term.includes(' ')) return padded.includes(` ${term} `);
  if (term.length >= 5) return words.some((word) => word.includes(term));
  if (term.length === 4) return words.some((word) => word.startsWith(term) || word.endsWith(term));
  return words.includes(term);
}

const mentionsFolded = (text: Folded, terms: readonly string[]) => terms.some((term) => matchesWord(text, term));

/** Whether a text mentions any of the (folded) vocabulary words, by the rules above. */
export function mentions(text: string | null | undefined, terms: readonly string[]): boolean {
  return text ? mentionsFolded(folded(text), terms) : false;
}

// Asked for every line of every check, of a few distinct texts (descriptions repeat): each text
// is read once. Bounded, as the texts come from invoices.
const conceptsByText = new Map<string, ReadonlySet<ChargeConcept>>();
const TEXTS_KEPT = 20_000;

function conceptsOfText(text: string): ReadonlySet<ChargeConcept> {
  const known = conceptsByText.get(text);
  if (known) return known;
  const words = folded(text);
  const feeWord = mentionsFolded(words, FEE_WORDS);
  const found = new Set<ChargeConcept>();
  for (const [concept, terms] of Object.entries(CHARGE_CONCEPTS) as [ChargeConcept, ConceptWords][]) {
    if (mentionsFolded(words, terms.alone) || (feeWord && mentionsFolded(words, terms.withFeeWord))) found.add(concept);
  }
  if (feeWord) found.add(FEE_WORD_MARK);
  if (conceptsByText.size < TEXTS_KEPT) conceptsByText.set(text, found);
  return found;
}

// Kept among a text's concepts to say it has a fee word; never returned as a concept.
const FEE_WORD_MARK = 'fee_word' as ChargeConcept;

/** What the text says a charge is for (several when it names several, none when it does not say). */
export function chargeConcepts(text: string | null | undefined, reasonCode?: string | null): Set<ChargeConcept> {
  const found = new Set<ChargeConcept>();
  const coded = reasonCode ? CHARGE_REASON_CODES[reasonCode.trim().toUpperCase()] : undefined;
  if (coded) found.add(coded);
  if (text) for (const concept of conceptsOfText(text)) if (concept !== FEE_WORD_MARK) found.add(concept);
  return found;
}

/** Whether the text names a charge: a known kind of charge, or a fee word ("Service fee"). */
export function namesCharge(text: string | null | undefined): boolean {
  return text ? conceptsOfText(text).size > 0 : false;
}

export function sharesConcept(a: Set<ChargeConcept>, b: Set<ChargeConcept>): ChargeConcept | null {
  for (const concept of a) if (b.has(concept)) return concept;
  return null;
}

/** "freight", "invoice fee"... for explanations. */
export function conceptName(concept: ChargeConcept): string {
  return concept.replace(/_/g, ' ');
}
