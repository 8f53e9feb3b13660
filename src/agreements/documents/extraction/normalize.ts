/**
 * Whitespace normalization. Letters are kept as written (no lowercasing, no transliteration);
 * only invisible differences are removed so that search and offsets behave the same whatever
 * program produced the file.
 */

/** Horizontal spaces of every width, including no-break and ideographic spaces. */
const HORIZONTAL_SPACE = /[\t\v\f\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+/g;
/** Characters with no visible form: zero-width marks, soft hyphen, BOM and C0/C1 controls. */
// eslint-disable-next-line no-control-regex -- the C0/C1 controls are what this removes
const INVISIBLE = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u00ad\u200b-\u200d\u2060\ufeff]/g;
const LINE_BREAK = /\r\n?|[\u0085\u2028\u2029]/g;
/** PDF fonts often map "fi", "fl", ... to one ligature glyph, which search would never match. */
const LIGATURES: Readonly<Record<string, string>> = {
  '\ufb00': 'ff',
  '\ufb01': 'fi',
  '\ufb02': 'fl',
  '\ufb03': 'ffi',
  '\ufb04': 'ffl',
  '\ufb05': 'st',
  '\ufb06': 'st',
};

/**
 * One paragraph: lines trimmed, runs of spaces collapsed, empty lines dropped, line breaks kept
 * as "\n". Canonical composition (NFC) makes "å" one character whether the PDF stored it as one
 * or as "a" plus a combining ring.
 */
export function normalizeParagraph(raw: string): string {
  return raw
    .normalize('NFC')
    .replace(LINE_BREAK, '\n')
    .replace(/[\ufb00-\ufb06]/g, (ligature) => LIGATURES[ligature] ?? ligature)
    .replace(INVISIBLE, '')
    .split('\n')
    .map((line) => line.replace(HORIZONTAL_SPACE, ' ').replace(/ {2,}/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** Splits plain text into paragraphs at blank lines (lines holding only whitespace count as blank). */
export function splitParagraphs(text: string): string[] {
  return text.replace(LINE_BREAK, '\n').split(/\n[ \t\f\v\u00a0]*\n\s*/);
}
