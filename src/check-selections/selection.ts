import { createHash } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { formatAmount } from '../shared/money.js';

// The pure parts of a check selection: the stable sample, the exclusion and replacement
// summaries, the fingerprint and the split into runs. No I/O here (service.ts loads the data).

export const MAX_SELECTION_CHECKS = 5000;
export const MAX_SELECTION_AGREEMENTS = 50;
export const MAX_SAMPLE_SIZE = 10;
export const SAMPLE_INVOICE_IDS = 10;
export const EXAMPLES_PER_EXCLUSION = 5;

export interface SelectedPair {
  invoiceId: string;
  agreementId: string;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

// Distinct invoices ordered by md5(seed || invoice id), the first `size` of them. The same seed
// over the same candidates gives the same sample; a new candidate only enters it when its hash
// sorts before the last sampled one. PostgreSQL's md5(seed || id::text) gives the same order.
export function sampleInvoiceIds(invoiceIds: string[], seed: string, size: number): string[] {
  return [...new Set(invoiceIds)]
    .map((id) => ({ id, key: md5(seed + id) }))
    .sort((a, b) => compare(a.key, b.key) || compare(a.id, b.id))
    .slice(0, size)
    .map((entry) => entry.id);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// The first `count` distinct invoices in the order of the pairs.
export function firstDistinctInvoiceIds(pairs: SelectedPair[], count = SAMPLE_INVOICE_IDS): string[] {
  const seen = new Set<string>();
  for (const pair of pairs) {
    if (seen.size === count) break;
    seen.add(pair.invoiceId);
  }
  return [...seen];
}

export interface Exclusion {
  reason: string;
  invoiceId: string | null;
  agreementId: string | null;
}

export interface ExclusionSummary {
  reason: string;
  count: number;
  examples: { invoice_id: string | null; agreement_id: string | null }[];
}

// One entry per reason, the most frequent first, with a few examples to look at.
export function summarizeExclusions(excluded: Exclusion[]): ExclusionSummary[] {
  const byReason = new Map<string, ExclusionSummary>();
  for (const exclusion of excluded) {
    const summary = byReason.get(exclusion.reason) ?? { reason: exclusion.reason, count: 0, examples: [] };
    summary.count += 1;
    if (summary.examples.length < EXAMPLES_PER_EXCLUSION)
      summary.examples.push({ invoice_id: exclusion.invoiceId, agreement_id: exclusion.agreementId });
    byReason.set(exclusion.reason, summary);
  }
  return [...byReason.values()].sort((a, b) => b.count - a.count || compare(a.reason, b.reason));
}

// Alerts of the selected pairs grouped by status, claim and currency (one SQL GROUP BY).
export interface AlertGroup {
  status: 'pending' | 'claimed' | 'credited' | 'dismissed';
  inClaim: boolean;
  currencyCode: string | null;
  count: number;
  amount: string;
}

export interface ReplacementImpact {
  alerts: number;
  by_status: { pending: number; dismissed: number; credited: number };
  kept_in_claims: number;
  impact: { currency_code: string | null; amount: string }[];
}

// What a check of the pairs does to their alerts (src/checks/perform.ts): every alert not held by
// a claim is replaced (the same problem found again keeps its alert, but nobody knows that before
// the check), alerts in claims are kept. `impact` is the money of the pending ones replaced.
export function replacementImpact(groups: AlertGroup[]): ReplacementImpact {
  const result: ReplacementImpact = {
    alerts: 0,
    by_status: { pending: 0, dismissed: 0, credited: 0 },
    kept_in_claims: 0,
    impact: [],
  };
  const pendingByCurrency = new Map<string | null, Decimal>();
  for (const group of groups) {
    if (group.inClaim || group.status === 'claimed') {
      result.kept_in_claims += group.count;
      continue;
    }
    result.alerts += group.count;
    result.by_status[group.status] += group.count;
    if (group.status === 'pending') {
      pendingByCurrency.set(
        group.currencyCode,
        (pendingByCurrency.get(group.currencyCode) ?? new Decimal(0)).plus(group.amount),
      );
    }
  }
  result.impact = [...pendingByCurrency.entries()]
    .sort(([a], [b]) => compare(a ?? '', b ?? ''))
    .map(([currency, amount]) => ({ currency_code: currency, amount: formatAmount(amount)! }));
  return result;
}

export interface FingerprintInput {
  mode: string;
  pairs: SelectedPair[];
  // Invoice id -> content_changed_at, agreement id -> terms_changed_at (ISO timestamps).
  invoiceVersions: Record<string, string>;
  agreementVersions: Record<string, string>;
  replacement: ReplacementImpact;
}

// A digest of everything that decides what a start does: the pairs, the versions of their
// invoices and agreements (a check reads those), the mode, and the alerts the checks would replace.
// Any change of one gives another fingerprint; the order the inputs arrive in does not matter.
export function selectionFingerprint(input: FingerprintInput): string {
  const sortedEntries = (record: Record<string, string>) => Object.entries(record).sort(([a], [b]) => compare(a, b));
  const canonical = {
    version: 1,
    mode: input.mode,
    pairs: input.pairs.map((pair) => `${pair.invoiceId}:${pair.agreementId}`).sort(),
    invoices: sortedEntries(input.invoiceVersions),
    agreements: sortedEntries(input.agreementVersions),
    replacement: input.replacement,
  };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

export interface RunBatch {
  agreementId: string;
  part: number;
  pairs: SelectedPair[];
}

// One run per agreement, split into parts of at most `maxPerRun` checks, in agreement order.
export function runBatches(pairs: SelectedPair[], maxPerRun: number): RunBatch[] {
  const byAgreement = new Map<string, SelectedPair[]>();
  for (const pair of pairs) {
    const list = byAgreement.get(pair.agreementId) ?? [];
    list.push(pair);
    byAgreement.set(pair.agreementId, list);
  }
  const batches: RunBatch[] = [];
  for (const agreementId of [...byAgreement.keys()].sort()) {
    const agreementPairs = byAgreement.get(agreementId)!;
    for (let start = 0, part = 0; start < agreementPairs.length; start += maxPerRun, part += 1) {
      batches.push({ agreementId, part, pairs: agreementPairs.slice(start, start + maxPerRun) });
    }
  }
  return batches;
}

export interface LimitCheck {
  checks: number;
  agreements: number;
}

export function limitViolations({ checks, agreements }: LimitCheck): string[] {
  const violations: string[] = [];
  if (checks > MAX_SELECTION_CHECKS)
    violations.push(`the selection has ${checks} checks; at most ${MAX_SELECTION_CHECKS} start at once`);
  if (agreements > MAX_SELECTION_AGREEMENTS)
    violations.push(
      `the selection spans ${agreements} agreements; at most ${MAX_SELECTION_AGREEMENTS} agreement runs start at once`,
    );
  return violations;
}
