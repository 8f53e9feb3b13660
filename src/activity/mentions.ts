// Mentions of members in a comment body: `@[<user-id>]`. One left-to-right pass with indexOf and a
// fixed-length check per candidate (no regular expression over the body), so any body of 10,000
// characters is scanned in linear time. Answers the distinct ids in order of first mention,
// lower-cased; anything not of that exact shape is plain text.

const OPEN = '@[';
const UUID_LENGTH = 36;
const HEX = /^[0-9a-f]$/;

function isUuid(text: string): boolean {
  if (text.length !== UUID_LENGTH) return false;
  for (let i = 0; i < UUID_LENGTH; i++) {
    const char = text[i]!;
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (char !== '-') return false;
    } else if (!HEX.test(char)) return false;
  }
  return true;
}

export function scanMentions(body: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  let at = body.indexOf(OPEN);
  while (at !== -1) {
    const start = at + OPEN.length;
    const candidate = body.slice(start, start + UUID_LENGTH).toLowerCase();
    if (body[start + UUID_LENGTH] === ']' && isUuid(candidate)) {
      if (!seen.has(candidate)) {
        seen.add(candidate);
        found.push(candidate);
      }
      at = body.indexOf(OPEN, start + UUID_LENGTH + 1);
    } else {
      at = body.indexOf(OPEN, start);
    }
  }
  return found;
}
