import type { Prisma } from '../db/client.js';
import { refreshCheckStatus } from './check-status.js';

// Every change of an agreement's terms (fields, price items, documents, instructions) goes
// through here: it marks the checks that read the older terms outdated, and the invoices'
// derived check status follows.
export async function markAgreementTermsChanged(tx: Prisma.TransactionClient, agreementId: string): Promise<void> {
  await tx.agreement.update({ where: { id: agreementId }, data: { termsChangedAt: new Date() } });
  await refreshCheckStatus(tx, { agreementId });
}
