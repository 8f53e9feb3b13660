import type { Prisma } from '../db/client.js';
import { refreshCheckStatus } from '../invoices/check-status.js';

// Every change of an agreement's terms (fields, price items, documents, instructions) goes
// through here: it marks the checks that read the older terms outdated, and the invoices'
// derived check status follows.
export async function markAgreementTermsChanged(tx: Prisma.TransactionClient, agreementId: string): Promise<void> {
  await tx.agreement.update({ where: { id: agreementId }, data: { termsChangedAt: new Date() } });
  await refreshCheckStatus(tx, { agreementId });
}

// One lock order for every transaction that changes an agreement's terms: the agreement's row
// first, then its price items, then its invoices (in id order, refreshCheckStatus). Changes of the
// same agreement's price items (an API delete, a price import replacing them, a create) otherwise
// lock rows in different orders and deadlock; with it they queue behind each other.
export async function lockAgreementTerms(tx: Prisma.TransactionClient, agreementId: string): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM agreements WHERE id = ${agreementId}::uuid FOR NO KEY UPDATE`;
}
