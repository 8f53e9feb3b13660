import { randomUUID } from 'node:crypto';
import type { ApiKeyCredential } from '../auth/credential.js';
import type { AppDeps } from '../deps.js';
import { Prisma } from '../db/client.js';
import { errors } from '../http/errors.js';
import type { CreateRefundInput, PatchRefundInput } from './schemas.js';
import { creditNoteAmount, type ClaimRecord } from './serialize.js';

// Refunds are the money the supplier paid back: the only thing that counts as received. A credit
// note attached to a claim is evidence; `create_refund` records its amount as a refund too.

type Deps = Pick<AppDeps, 'db'>;

const today = () => new Date().toISOString().slice(0, 10);
const dateValue = (date: string) => new Date(`${date}T00:00:00Z`);

export async function createRefund(deps: Deps, credential: ApiKeyCredential, claim: ClaimRecord, input: CreateRefundInput): Promise<string> {
  const id = randomUUID();
  await deps.db.$transaction([
    deps.db.claimRefund.create({
      data: {
        id,
        organizationId: claim.organizationId,
        claimId: claim.id,
        amount: new Prisma.Decimal(input.amount),
        currencyCode: input.currency_code,
        date: dateValue(input.date ?? today()),
        reference: input.reference ?? null,
        note: input.note ?? null,
        recordedByUserId: credential.userId,
        recordedByApiKeyId: credential.keyId,
      },
    }),
    deps.db.claim.update({ where: { id: claim.id }, data: { updatedAt: new Date() } }),
  ]);
  return id;
}

function refundOf(claim: ClaimRecord, refundId: string) {
  const refund = claim.refunds.find((r) => r.id === refundId);
  if (!refund) throw errors.notFound('refund');
  return refund;
}

// A correction: only the sent fields change; who corrected it is recorded as the recorder.
export async function patchRefund(deps: Deps, credential: ApiKeyCredential, claim: ClaimRecord, refundId: string, input: PatchRefundInput): Promise<void> {
  refundOf(claim, refundId);
  const data: Prisma.ClaimRefundUncheckedUpdateInput = { recordedByUserId: credential.userId, recordedByApiKeyId: credential.keyId };
  if (input.amount !== undefined) data.amount = new Prisma.Decimal(input.amount);
  if (input.currency_code !== undefined) data.currencyCode = input.currency_code;
  if (input.date !== undefined) data.date = dateValue(input.date);
  if (input.reference !== undefined) data.reference = input.reference;
  if (input.note !== undefined) data.note = input.note;
  await deps.db.$transaction([
    deps.db.claimRefund.update({ where: { id: refundId }, data }),
    deps.db.claim.update({ where: { id: claim.id }, data: { updatedAt: new Date() } }),
  ]);
}

// Removing a refund already gone changes nothing (the claim itself must exist: 404 otherwise).
export async function deleteRefund(deps: Deps, claim: ClaimRecord, refundId: string): Promise<void> {
  if (!claim.refunds.some((r) => r.id === refundId)) return;
  await deps.db.$transaction([
    deps.db.claimRefund.deleteMany({ where: { id: refundId, claimId: claim.id } }),
    deps.db.claim.update({ where: { id: claim.id }, data: { updatedAt: new Date() } }),
  ]);
}

function invalid(field: string, message: string) {
  return errors.validation(`${field} ${message}.`, [{ field, message }]);
}

// Attaches an imported credit note of the claim's supplier. Attaching it again changes nothing
// (and records no second refund). Answers whether it was newly attached.
export async function attachCreditNote(deps: Deps, credential: ApiKeyCredential, claim: ClaimRecord, invoiceId: string, createRefund: boolean): Promise<boolean> {
  const invoice = await deps.db.invoice.findFirst({ where: { id: invoiceId, organizationId: claim.organizationId, deletedAt: null } });
  if (!invoice) throw invalid('invoice_id', 'names no invoice');
  if (invoice.documentType !== 'credit_note') throw invalid('invoice_id', 'is not a credit note');
  if (invoice.processingStatus !== 'completed') throw invalid('invoice_id', 'is not imported yet');
  if (claim.supplierId !== null && invoice.supplierId !== claim.supplierId) throw invalid('invoice_id', "is a credit note of another supplier than the claim's");
  if (claim.creditNotes.some((link) => link.invoiceId === invoiceId)) return false;
  const amount = creditNoteAmount(invoice);
  if (createRefund && (amount === null || !invoice.currencyCode || /^0(\.0+)?$/.test(amount))) {
    throw invalid('create_refund', 'cannot be honoured: the credit note has no total or currency');
  }
  return deps.db.$transaction(async (tx) => {
    const inserted = await tx.claimCreditNote.createMany({
      data: [{ claimId: claim.id, invoiceId, organizationId: claim.organizationId, attachedByUserId: credential.userId, attachedByApiKeyId: credential.keyId }],
      skipDuplicates: true,
    });
    // A concurrent attach won the race: it recorded the refund, if one was asked for.
    if (inserted.count === 0) return false;
    if (createRefund) {
      await tx.claimRefund.create({
        data: {
          id: randomUUID(),
          organizationId: claim.organizationId,
          claimId: claim.id,
          amount: new Prisma.Decimal(amount!),
          currencyCode: invoice.currencyCode!,
          date: invoice.issueDate ?? dateValue(today()),
          reference: invoice.invoiceNumber,
          creditNoteInvoiceId: invoice.id,
          recordedByUserId: credential.userId,
          recordedByApiKeyId: credential.keyId,
        },
      });
    }
    await tx.claim.update({ where: { id: claim.id }, data: { updatedAt: new Date() } });
    return true;
  });
}

// Detaching keeps refunds recorded from the credit note: money received stays received until a
// person deletes the refund.
export async function detachCreditNote(deps: Deps, claim: ClaimRecord, invoiceId: string): Promise<void> {
  if (!claim.creditNotes.some((link) => link.invoiceId === invoiceId)) return;
  await deps.db.$transaction([
    deps.db.claimCreditNote.deleteMany({ where: { claimId: claim.id, invoiceId } }),
    deps.db.claim.update({ where: { id: claim.id }, data: { updatedAt: new Date() } }),
  ]);
}
