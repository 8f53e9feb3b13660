// How text is prepared for PostgreSQL's full text search (pure: no I/O).
//
// One configuration for every language: 'simple' lowercases words and drops nothing. Agreements
// mix Norwegian, Swedish, Finnish, Danish, German and English, often in one file; a language's
// stemmer (or stop-word list) mangles words of the others, and a document has no reliable
// language label. No unaccent either: å, ä, ö, ø and æ are letters of their own in the Nordic
// languages ("får" is not "far", "mål" is not "mal").
export const SEARCH_CONFIG = 'simple';

// Lowercased here rather than by the database, whose lowercasing of non-ASCII letters depends on
// its LC_CTYPE (a C locale would leave "ÅRLIG" as "Årlig"). Extraction already applied NFC.
export function foldForSearch(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

export function normalizeQuery(query: string): string {
  return query.normalize('NFC').replace(/\s+/g, ' ').trim();
}

// Characters with a meaning in both JavaScript (u flag) and PostgreSQL (ARE) regular expressions.
const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

// The literal phrase as a regular expression valid in PostgreSQL and JavaScript: special
// characters escaped, any run of whitespace (a line break inside a passage, too) matching any other.
export function phrasePattern(query: string): string {
  return normalizeQuery(query)
    .split(' ')
    .map((word) => word.replace(REGEX_SYNTAX, '\\$&'))
    .join('\\s+');
}

export interface Highlight {
  start: number;
  end: number;
}

// Where the phrase occurs in a passage (case-insensitive, Unicode), as offsets into its text.
export function phraseMatches(text: string, pattern: string): Highlight[] {
  const expression = new RegExp(pattern, 'giu');
  return [...text.matchAll(expression)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

// ts_headline marks matches with these private-use characters; they are turned into offsets and
// removed. (A passage that itself contains them, as PDFs with symbol fonts can, gets no highlights.)
export const MARK_START = '\uE000';
export const MARK_END = '\uE001';

export function headlineOptions(): string {
  return `HighlightAll=true, StartSel=${MARK_START}, StopSel=${MARK_END}`;
}

// Splits a ts_headline result into its plain text and the highlighted ranges of it. Returns null
// when the plain text is not the passage text (then offsets would point elsewhere).
export function parseHeadline(headline: string, passageText: string): Highlight[] | null {
  const highlights: Highlight[] = [];
  let plain = '';
  let start: number | null = null;
  for (const char of headline) {
    if (char === MARK_START) start = plain.length;
    else if (char === MARK_END && start !== null) {
      if (plain.length > start) highlights.push({ start, end: plain.length });
      start = null;
    } else plain += char;
  }
  return plain === passageText ? highlights : null;
}
