/**
 * Which of our eight languages a page is written in, from a quick English-only OCR pass: the
 * layout reader's label dictionaries are matched without diacritics (English models read "ø" as
 * "o"), and each language scores the labels only it uses. Tesseract then reads the page with that
 * language's model (its letters and words) and English (codes, numbers, English labels).
 */
import {
  COLUMN_LABELS,
  HEADER_LABELS,
  LANGUAGES,
  TOTAL_LABELS,
  normalizeLabel,
  type Language,
} from '../layout/labels.js';

export const TESSERACT_LANGUAGE: Record<Language, string> = {
  en: 'eng',
  no: 'nor',
  sv: 'swe',
  da: 'dan',
  fi: 'fin',
  de: 'deu',
  fr: 'fra',
  nl: 'nld',
};

/** Every language pack, for a page whose language cannot be told. */
export const ALL_TESSERACT_LANGUAGES = LANGUAGES.map((language) => TESSERACT_LANGUAGE[language]);

/** The tesseract languages to read a page of this language with. */
export function tesseractLanguagesFor(language: Language): string[] {
  return language === 'en' ? ['eng'] : [TESSERACT_LANGUAGE[language], 'eng'];
}

function fold(text: string): string {
  return normalizeLabel(text)
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[æ]/gu, 'ae')
    .replace(/[ø]/gu, 'o')
    .replace(/ß/gu, 'ss');
}

// Folded terms of at least five letters ("faktura", "rechnung", "totalbelop") and the languages
// that print them; short ones ("nr", "dato") say little.
const TERMS: Map<string, Set<Language>> = (() => {
  const terms = new Map<string, Set<Language>>();
  const add = (term: string, language: Language) => {
    const folded = fold(term);
    if (folded.replace(/ /gu, '').length < 5) return;
    const languages = terms.get(folded) ?? new Set<Language>();
    languages.add(language);
    terms.set(folded, languages);
  };
  for (const dictionary of [HEADER_LABELS, TOTAL_LABELS, COLUMN_LABELS] as const) {
    for (const byLanguage of Object.values<Partial<Record<Language, readonly string[]>>>(dictionary)) {
      for (const language of LANGUAGES) for (const term of byLanguage[language] ?? []) add(term, language);
    }
  }
  return terms;
})();

// Document titles that name one language ("faktura" is Norwegian, Swedish and Danish).
const TITLE_LANGUAGE: Record<string, Language> = {
  invoice: 'en',
  lasku: 'fi',
  hyvityslasku: 'fi',
  rechnung: 'de',
  gutschrift: 'de',
  facture: 'fr',
  avoir: 'fr',
  factuur: 'nl',
  creditnota: 'nl',
};

/** The language whose labels the page's text lines use most; null when none is found. */
export function detectLanguage(lines: readonly string[]): Language | null {
  const scores = new Map<Language, number>();
  for (const line of lines) {
    const text = ` ${fold(line)} `;
    for (const [term, languages] of TERMS) {
      if (!text.includes(` ${term} `)) continue;
      for (const language of languages) scores.set(language, (scores.get(language) ?? 0) + 1 / languages.size);
    }
    for (const [title, language] of Object.entries(TITLE_LANGUAGE))
      if (text.includes(` ${title} `)) scores.set(language, (scores.get(language) ?? 0) + 0.25);
  }
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]);
  return ranked[0]?.[0] ?? null;
}
