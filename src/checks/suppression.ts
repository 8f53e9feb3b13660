import { isSuppressed, itemKeyOf, parseDirectives } from '../agreements/context-suggestions/directives.js';
import type { Finding } from './checkers/types.js';
import type { LoadedCheck } from './input.js';

// Accepted instruction suggestions are directives in the agreement's instructions ("Do not flag:
// ..."): a finding they cover is not raised again, which is how a user dismisses a false alarm
// once and for all (docs/topics-and-suggestions.md).
// The directives are read once per check and the lines looked up by id: a large invoice has
// thousands of findings and tens of thousands of lines.
export function unsuppressed(loaded: LoadedCheck, findings: Finding[]): Finding[] {
  const directives = parseDirectives(loaded.instructions);
  if (directives.length === 0) return findings;
  const lines = new Map(loaded.lines.map((line) => [line.id, line]));
  return findings.filter((finding) => {
    const line = finding.invoiceItemId ? (lines.get(finding.invoiceItemId) ?? null) : null;
    const subject = {
      checker: finding.checker,
      fingerprint: finding.fingerprint,
      itemKey: itemKeyOf(line),
      unitPrice: line?.unitPrice ?? null,
      currencyCode: loaded.currencyCode,
    };
    return !isSuppressed(subject, directives);
  });
}
