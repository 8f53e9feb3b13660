import { isSuppressed, itemKeyOf, parseDirectives } from '../agreements/context-suggestions/directives.js';
import type { Finding } from './checkers/types.js';
import type { LoadedCheck } from './input.js';

// Accepted instruction suggestions are directives in the agreement's instructions ("Do not flag:
// ..."): a finding they cover is not raised again, which is how a user dismisses a false alarm
// once and for all (docs/topics-and-suggestions.md).
export function suppressedBy(loaded: LoadedCheck, finding: Finding): boolean {
  const directives = parseDirectives(loaded.instructions);
  if (directives.length === 0) return false;
  const line = finding.invoiceItemId ? (loaded.lines.find((l) => l.id === finding.invoiceItemId) ?? null) : null;
  const subject = { checker: finding.checker, fingerprint: finding.fingerprint, itemKey: itemKeyOf(line), unitPrice: line?.unitPrice ?? null, currencyCode: loaded.currencyCode };
  return isSuppressed(subject, directives);
}
