/**
 * Words that mark contract terms and price lists in the languages suppliers write in (English,
 * Norwegian, Swedish, Danish, Finnish, German). Patterns are tested against lowercased words;
 * most are anchored at the end so compounds count too ("rammeavtale", "leveringsvilkår",
 * "toimitussopimus", "Liefervertrag", "enhetspris", "Stückpreis").
 */
export interface VocabularyTerm {
  /** Shown in the classification reason. */
  label: string;
  pattern: RegExp;
}

export const CONTRACT_TERMS: readonly VocabularyTerm[] = [
  { label: 'agreement', pattern: /^agreements?$/ },
  { label: 'contract', pattern: /^contract(s|ual|or|ors)?$/ },
  { label: 'terms', pattern: /^terms$/ },
  { label: 'conditions', pattern: /^conditions$/ },
  { label: 'liability', pattern: /^liabilit(y|ies)$/ },
  { label: 'termination', pattern: /^terminat(e|ed|ion)$/ },
  { label: 'warranty', pattern: /^warrant(y|ies)$/ },
  { label: 'confidentiality', pattern: /^confidential(ity)?$/ },
  { label: 'governing', pattern: /^governing$/ },
  { label: 'avtale', pattern: /avtale(n|r|ne)?$/ },
  { label: 'avtal', pattern: /avtal(et|en)?$/ },
  { label: 'aftale', pattern: /aftale(n|r|rne)?$/ },
  { label: 'kontrakt', pattern: /kontrakt(en|er|ene|et)?$/ },
  { label: 'vilkår', pattern: /vilkår(ene|et)?$/ },
  { label: 'villkor', pattern: /villkor(en|et)?$/ },
  { label: 'betingelser', pattern: /betingelse(r|rne)?$/ },
  { label: 'oppsigelse', pattern: /^oppsigelse/ },
  { label: 'uppsägning', pattern: /^uppsägning/ },
  { label: 'mislighold', pattern: /^mislighold/ },
  { label: 'partene', pattern: /^(partene|parterna|parterne)$/ },
  { label: 'sopimus', pattern: /sopimu[sk]/ },
  { label: 'ehdot', pattern: /(ehdot|ehto|ehtoja|ehtojen|ehdoissa)$/ },
  { label: 'osapuoli', pattern: /^osapuol/ },
  { label: 'irtisanominen', pattern: /^irtisano/ },
  { label: 'Vertrag', pattern: /vertr[aä]g/ },
  { label: 'AGB', pattern: /^agb$/ },
  { label: 'Geschäftsbedingungen', pattern: /geschäftsbedingung/ },
  { label: 'Haftung', pattern: /^haftung/ },
  { label: 'Kündigung', pattern: /kündigung/ },
  { label: 'Gewährleistung', pattern: /^gewährleistung/ },
];

export const PRICE_TERMS: readonly VocabularyTerm[] = [
  { label: 'price', pattern: /^(price|prices|pricing|pricelist)$/ },
  { label: 'pris', pattern: /pris(er|en|ene|et|lista|listan|liste|listen)?$/ },
  { label: 'hinta', pattern: /(hinta|hinnat|hinnan|hintaan|hinnasto|hintoja|hintojen)$/ },
  { label: 'Preis', pattern: /preis(e|en|liste)?$/ },
  { label: 'cost', pattern: /^(cost|costs|kostnad|kostnader|kosten)$/ },
  { label: 'fee', pattern: /^(fee|fees|avgift|avgifter|gebühr|gebühren)$/ },
  { label: 'rate', pattern: /^(rate|rates|tariff|tariffs)$/ },
  { label: 'discount', pattern: /^(discount|discounts|rabatt|rabatter|alennus)$/ },
];

/** Currency symbols and ISO codes as they appear next to amounts. */
export const CURRENCY = /[€$£]|\b(?:EUR|NOK|SEK|DKK|USD|GBP|CHF)\b/;

/** File-name words, matched anywhere in the lowercased name. */
export const PRICE_LIST_NAME = /price.?list|prices|pris(liste|lista)|priser|hinnasto|hinnat|preisliste|preise|tariff/;
export const TERMS_NAME =
  /terms|conditions|agreement|contract|vilkår|villkor|avtal|aftale|kontrakt|sopimus|ehdot|vertrag|(^|[^a-z])agb([^a-z]|$)/;

/** Distinct labels of the terms that any of the words match. */
export function matchedTerms(words: ReadonlySet<string>, terms: readonly VocabularyTerm[]): string[] {
  const list = [...words];
  return terms.filter((term) => list.some((word) => term.pattern.test(word))).map((term) => term.label);
}

/** Lowercased distinct words (letters only), the input of `matchedTerms`. */
export function distinctWords(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/\p{L}+/gu) ?? []);
}
