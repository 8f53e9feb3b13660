// Small linear-time scanners for user input, where a regular expression anchored at the end
// (`/[.,]+$/`, `/\s+$/`) or with an unbounded run before a literal would try every start
// position and take quadratic time on a long run of the repeated character
// (test/unit/security/regex-safety.test.ts checks every pattern in src/ for that).

const LINE_TERMINATORS = '\n\r\u2028\u2029';

/** The characters JavaScript's `\s` matches: WhiteSpace and LineTerminator. */
export function isWhitespace(char: string | undefined): boolean {
  return char !== undefined && char.length > 0 && char.trim() === '';
}

export function isLineTerminator(char: string | undefined): boolean {
  return char !== undefined && char.length === 1 && LINE_TERMINATORS.includes(char);
}

/** Whether the (single) character is one of `chars`, or whitespace when `orWhitespace`. */
function inSet(char: string, chars: string, orWhitespace: boolean): boolean {
  return chars.includes(char) || (orWhitespace && isWhitespace(char));
}

/** Removes any run of the given characters (and of whitespace, if asked) from the end. */
export function trimCharsEnd(text: string, chars: string, orWhitespace = false): string {
  let end = text.length;
  while (end > 0 && inSet(text[end - 1]!, chars, orWhitespace)) end -= 1;
  return text.slice(0, end);
}

/** Removes any run of the given characters (and of whitespace, if asked) from the start. */
export function trimCharsStart(text: string, chars: string, orWhitespace = false): string {
  let start = 0;
  while (start < text.length && inSet(text[start]!, chars, orWhitespace)) start += 1;
  return text.slice(start);
}

/** Whether `text` has `keyword` (lowercase ASCII) at `index`, ignoring ASCII case only, like a non-Unicode `i` regex. */
export function startsWithAsciiCaseless(text: string, index: number, keyword: string): boolean {
  if (index + keyword.length > text.length) return false;
  for (let offset = 0; offset < keyword.length; offset += 1) {
    const code = text.charCodeAt(index + offset);
    const lower = code >= 65 && code <= 90 ? code + 32 : code;
    if (lower !== keyword.charCodeAt(offset)) return false;
  }
  return true;
}

/** The index after any whitespace from `index` on. */
export function skipWhitespace(text: string, index: number): number {
  let at = index;
  while (at < text.length && isWhitespace(text[at])) at += 1;
  return at;
}

/** Removes every `open ... close` span (not nested; an unclosed `open` runs to the end and stays). */
export function removeDelimited(text: string, pairs: ReadonlyArray<readonly [string, string]>): string {
  let result = '';
  let index = 0;
  while (index < text.length) {
    const pair = pairs.find(([open]) => text.startsWith(open, index));
    const end = pair ? text.indexOf(pair[1], index + pair[0].length) : -1;
    if (pair && end !== -1) {
      index = end + pair[1].length;
      continue;
    }
    if (pair) {
      // Unclosed: nothing after it can be closed by the same character either.
      const rest = removeDelimited(
        text.slice(index + pair[0].length),
        pairs.filter((other) => other !== pair),
      );
      return result + pair[0] + rest;
    }
    result += text[index];
    index += 1;
  }
  return result;
}
