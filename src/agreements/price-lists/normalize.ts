// Text folding shared by header matching and keyword checks: headers are written by hand in
// many languages, so "Yksikkö", "YKSIKKO" and "yksikkö:" must all compare equal.

// Letters that Unicode does not decompose into base letter + accent.
const LETTER_FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', ø: 'o', œ: 'oe', ð: 'd', đ: 'd', þ: 'th', ł: 'l' };

/** Lower case, no diacritics, punctuation turned into spaces ("%" kept as a word, "#" read as "no"). */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[ßæøœðđþł]/g, (letter) => LETTER_FOLDS[letter] ?? letter)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/#/g, ' no ')
    .replace(/%/g, ' % ')
    .replace(/[^a-z0-9%]+/g, ' ')
    .trim();
}

/** The folded text without spaces: "Art. nr." and "artnr" compare equal. */
export function compactText(text: string): string {
  return foldText(text).replace(/ /g, '');
}
