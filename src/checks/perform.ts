import type { Db } from '../db/client.js';
import type { Logger } from '../logger.js';
import { publicFailure } from '../shared/failures.js';
import { deterministicUuid } from '../shared/ids.js';
import { refreshCheckStatus } from '../invoices/check-status.js';
import { runCheckers } from './checkers/index.js';
import type { Finding } from './checkers/types.js';
import { loadBatchInvoices, loadBatchPriorCharges, loadCheck, type CheckBatch, type LoadedCheck } from './input.js';
import { beginItems, completeItems } from '../runs/read-model.js';
import { storeChecks, type CheckOutcome, type FoundCheck } from './store.js';
import { unsuppressed } from './suppression.js';

// One check of one invoice against one agreement: run the checkers, store the check with its
// findings, and bring the pair's alerts in line with what was found. Safe to run twice with the
// same check id (a retried activity): the second run finds the completed check and stops.

const CHECK_FAILED = {
  code: 'check_failed',
  message:
    'The check could not be completed because of an internal error. It was logged under the run id; check the invoice again, and contact support with the run id if it fails again.',
};

export function checkIdFor(runId: string, invoiceId: string, agreementId: string): string {
  return deterministicUuid(`check:${runId}:${invoiceId}:${agreementId}`);
}

export async function performCheck(
  db: Db,
  organizationId: string,
  runId: string,
  invoiceId: string,
  agreementId: string,
  batch?: CheckBatch,
  logger?: Logger,
): Promise<CheckOutcome> {
  const prepared = await prepareCheck(db, organizationId, runId, invoiceId, agreementId, batch, logger);
  if ('outcome' in prepared) return prepared.outcome;
  const [outcome] = await storeChecks(db, organizationId, runId, [prepared]);
  return outcome!;
}

// Everything of a check before its writes: an existing finished check, loading, the checkers (a
// failing checker records its failed check here).
async function prepareCheck(
  db: Db,
  organizationId: string,
  runId: string,
  invoiceId: string,
  agreementId: string,
  batch?: CheckBatch,
  logger?: Logger,
): Promise<FoundCheck | { outcome: CheckOutcome }> {
  const checkId = checkIdFor(runId, invoiceId, agreementId);
  const existing = batch?.checks
    ? (batch.checks.get(checkId) ?? null)
    : await db.complianceCheck.findUnique({ where: { id: checkId }, select: { status: true, findingsCount: true } });
  if (existing && existing.status !== 'running') {
    return {
      outcome: {
        checkId,
        status: existing.status,
        findings: existing.findingsCount ?? 0,
        alerts: existing.findingsCount ?? 0,
      },
    };
  }
  const loaded = await loadCheck(db, organizationId, invoiceId, agreementId, batch);
  if (!loaded) return { outcome: { checkId, status: 'skipped', findings: 0, alerts: 0 } };
  let findings: Finding[];
  try {
    findings = runCheckers(loaded.input);
  } catch (error) {
    // The checkers are pure: the same input fails the same way, so retrying cannot help.
    logger?.error(
      { err: error, run_id: runId, check_id: checkId, invoice_id: invoiceId, agreement_id: agreementId },
      'a checker failed',
    );
    await recordFailedCheck(db, checkId, runId, loaded, invoiceId, agreementId, error);
    return { outcome: { checkId, status: 'failed', findings: 0, alerts: 0 } };
  }
  return { checkId, invoiceId, agreementId, loaded, kept: unsuppressed(loaded, findings) };
}

export interface CheckItem {
  itemId: string;
  invoiceId: string;
  agreementId: string;
}

// Checks of one batch prepared at once (loaded and run through the checkers): enough to overlap
// what they still read (exchange rates) with the others' checkers.
const BATCH_CONCURRENCY = 3;
// Findings stored in one transaction at most: a batch of large invoices is stored in parts, so
// one transaction never holds tens of thousands of rows and its pairs' locks for long.
const STORE_FINDINGS_LIMIT = 5_000;

// A batch of a check run's items (pairs) in one activity: it begins its items, checks them with
// what they share read once (each agreement's price items, the suppliers' earlier charges), stores
// them together (storeChecks) and finishes them, each with its check's outcome. Safe to run
// again: begun items are worked again, finished ones are left out, and a check that completed is
// found by its id. A check that throws (an infrastructure error) fails the activity after the
// others end, so Temporal retries the batch.
export async function performCheckBatch(
  db: Db,
  organizationId: string,
  runId: string,
  items: CheckItem[],
): Promise<void> {
  const begun = await beginItems(
    db,
    items.map((item) => item.itemId),
  );
  const todo = items.filter((item) => begun.has(item.itemId));
  if (todo.length === 0) return;
  const { outcomes, errors } = await performChecks(db, organizationId, runId, todo);
  await completeItems(
    db,
    outcomes.map(({ pair, result }) => ({ itemId: pair.itemId, result })),
  );
  if (errors.length > 0) throw errors[0];
}

// The checks of a batch's pairs, without the run items: what they share read once, prepared a
// few at a time, stored together. The outcomes of the checks that ended, and the errors of those
// that threw.
export async function performChecks<T extends { invoiceId: string; agreementId: string }>(
  db: Db,
  organizationId: string,
  runId: string,
  pairs: T[],
): Promise<{ outcomes: { pair: T; result: CheckOutcome }[]; errors: unknown[] }> {
  const invoiceIds = [...new Set(pairs.map((pair) => pair.invoiceId))];
  const [priorCharges, invoices, checks] = await Promise.all([
    loadBatchPriorCharges(db, organizationId, invoiceIds),
    loadBatchInvoices(db, organizationId, invoiceIds),
    db.complianceCheck.findMany({
      where: { id: { in: pairs.map((pair) => checkIdFor(runId, pair.invoiceId, pair.agreementId)) } },
      select: { id: true, status: true, findingsCount: true },
    }),
  ]);
  const batch: CheckBatch = {
    agreements: new Map(),
    priorCharges,
    invoices,
    checks: new Map(checks.map((check) => [check.id, check])),
  };
  const outcomes: { pair: T; result: CheckOutcome }[] = [];
  const found: { pair: T; check: FoundCheck }[] = [];
  const errors: unknown[] = [];
  let next = 0;
  const lane = async () => {
    while (next < pairs.length) {
      const pair = pairs[next++]!;
      const prepared = await prepareCheck(db, organizationId, runId, pair.invoiceId, pair.agreementId, batch);
      if ('outcome' in prepared) outcomes.push({ pair, result: prepared.outcome });
      else found.push({ pair, check: prepared });
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(BATCH_CONCURRENCY, pairs.length) }, lane));
  for (const lane of lanes) if (lane.status === 'rejected') errors.push(lane.reason);
  for (const group of storeGroups(found)) {
    try {
      const stored = await storeChecks(
        db,
        organizationId,
        runId,
        group.map((entry) => entry.check),
      );
      group.forEach((entry, index) => outcomes.push({ pair: entry.pair, result: stored[index]! }));
    } catch (error) {
      if (group.length === 1) {
        errors.push(error);
        continue;
      }
      // One check's error (a bug, or data the statement refuses) must not cost the others their
      // result: stored one by one, the others complete and only that one fails.
      for (const entry of group) {
        try {
          const [outcome] = await storeChecks(db, organizationId, runId, [entry.check]);
          outcomes.push({ pair: entry.pair, result: outcome! });
        } catch (alone) {
          errors.push(alone);
        }
      }
    }
  }
  return { outcomes, errors };
}

function storeGroups<T extends { check: FoundCheck }>(found: T[]): T[][] {
  const groups: T[][] = [];
  let findings = Infinity;
  for (const entry of found) {
    if (findings + entry.check.kept.length > STORE_FINDINGS_LIMIT) {
      groups.push([]);
      findings = 0;
    }
    groups[groups.length - 1]!.push(entry);
    findings += entry.check.kept.length;
  }
  return groups;
}

function checkRow(
  checkId: string,
  runId: string,
  loaded: LoadedCheck,
  invoiceId: string,
  agreementId: string,
  status: 'completed' | 'failed',
  findingsCount: number | null,
) {
  return {
    id: checkId,
    organizationId: loaded.organizationId,
    invoiceId,
    agreementId,
    workflowRunId: runId,
    status,
    findingsCount,
    invoiceVersionAt: loaded.invoiceVersionAt,
    agreementVersionAt: loaded.agreementVersionAt,
    completedAt: new Date(),
  };
}

async function recordFailedCheck(
  db: Db,
  checkId: string,
  runId: string,
  loaded: LoadedCheck,
  invoiceId: string,
  agreementId: string,
  error: unknown,
) {
  // The customer reads this on the invoice (alerts.processing.failure): never the exception's text.
  const failure = { ...publicFailure(error, CHECK_FAILED) };
  await db.$transaction(async (tx) => {
    await tx.complianceCheck.upsert({
      where: { id: checkId },
      create: { ...checkRow(checkId, runId, loaded, invoiceId, agreementId, 'failed', null), failure },
      update: { status: 'failed', failure, completedAt: new Date() },
    });
    await refreshCheckStatus(tx, { invoiceIds: [invoiceId] });
  });
}
