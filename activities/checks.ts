import { systemActor } from '../src/activity/record.js';
import type { Db } from '../src/db/client.js';
import type { Logger } from '../src/logger.js';
import { checkImportedInvoice, markInvoicesChecking, settleInvoiceChecks } from '../src/checks/invoice-checks.js';
import { performCheck, performCheckBatch, type CheckItem } from '../src/checks/perform.js';
import type { CheckOutcome } from '../src/checks/store.js';
import { refreshInvoiceMatches } from '../src/matching/service.js';

// Compliance checks: each activity may run twice and ends in the same state (a check's id is
// derived from its run and pair; the invoice's settled state is recomputed from the checks).
export function createCheckActivities(db: Db, logger?: Logger) {
  return {
    async checkPair(
      organizationId: string,
      runId: string,
      invoiceId: string,
      agreementId: string,
    ): Promise<CheckOutcome> {
      return performCheck(db, organizationId, runId, invoiceId, agreementId, undefined, logger);
    },
    // A batch of a run's pairs: begins, checks and finishes its run items (performCheckBatch).
    async checkPairs(organizationId: string, runId: string, items: CheckItem[]): Promise<void> {
      await performCheckBatch(db, organizationId, runId, items);
    },
    async beginInvoiceChecks(invoiceIds: string[]): Promise<void> {
      await markInvoicesChecking(db, invoiceIds);
    },
    async settleInvoiceChecks(organizationId: string, invoiceIds: string[]): Promise<void> {
      await settleInvoiceChecks(db, organizationId, invoiceIds);
    },
    // An import's last step, one activity so the import stays short in Temporal's history: match
    // the new invoice to agreements, then check it against the eligible ones.
    async matchAndCheckImportedInvoice(organizationId: string, runId: string, invoiceId: string) {
      const matched = await refreshInvoiceMatches(db, organizationId, [invoiceId], systemActor(runId));
      const checked = await checkImportedInvoice(db, organizationId, runId, invoiceId, matched.matches, logger);
      return { matched_agreements: matched.matches, ...checked };
    },
  };
}

export type CheckActivities = ReturnType<typeof createCheckActivities>;
