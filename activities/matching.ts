import { systemActor } from '../src/activity/record.js';
import { refreshCheckStatus } from '../src/invoices/check-status.js';
import type { Db } from '../src/db/client.js';
import { refreshInvoiceMatches, REFRESH_BATCH_SIZE, type RefreshResult } from '../src/matching/service.js';
import { currentRunId } from './current-run.js';

export function createMatchingActivities(db: Db) {
  return {
    async refreshMatchesForInvoices(organizationId: string, invoiceIds: string[]): Promise<RefreshResult> {
      const result = await refreshInvoiceMatches(db, organizationId, invoiceIds, systemActor(currentRunId()));
      // A match that ended or came back changes which checks count for the invoice.
      await refreshCheckStatus(db, { invoiceIds });
      return result;
    },
    // The next batch of the organization's invoices after `afterId`, in id order: lets a refresh
    // of every invoice find its work as it goes instead of carrying every id in its history.
    async nextInvoiceBatch(organizationId: string, afterId: string | null): Promise<string[]> {
      const rows = await db.invoice.findMany({
        where: { organizationId, deletedAt: null, ...(afterId ? { id: { gt: afterId } } : {}) },
        select: { id: true },
        orderBy: { id: 'asc' },
        take: REFRESH_BATCH_SIZE,
      });
      return rows.map((row) => row.id);
    },
  };
}

export type MatchingActivities = ReturnType<typeof createMatchingActivities>;
