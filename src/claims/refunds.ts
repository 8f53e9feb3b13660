import { randomUUID } from 'node:crypto';
import {
  NothingChanged,
  orUnchanged,
  recordActivity,
  type ActivityEntryInput,
  type Actor,
} from '../activity/record.js';
import { formatAmount } from '../shared/money.js';
import type { MemberActor, RequestActor } from '../auth/actor.js';
import type { AppDeps } from '../deps.js';
import { Prisma } from '../db/client.js';
import { errors } from '../http/errors.js';
import type { CreateRefundInput, PatchRefundInput } from './schemas.js';
import { creditNoteAmount, type ClaimRecord } from './serialize.js';
import type { ClaimRefund } from '../generated/prisma/client.js';

// Refunds are the money the supplier paid back: the only thing that counts as received. A credit
// note attached to a claim is evidence; `create_refund` records its amount as a refund too.

type Deps = Pick<AppDeps, 'db'>;

// A refund as its claim's activity entries show it (refund_added, refund_corrected, refund_deleted):
// `changes.refund` holds it before and after, so an entry names the refund and its values.
function refundFields(
  refund: Pick<ClaimRefund, 'id' | 'amount' | 'currencyCode' | 'date' | 'reference' | 'note' | 'creditNoteInvoiceId'>,
) {
  return {
    id: refund.id,
    amount: formatAmount(refund.amount)!,
    currency_code: refund.currencyCode,
    date: refund.date.toISOString().slice(0, 10),
    reference: refund.reference,
    note: refund.note,
    credit_note_invoice_id: refund.creditNoteInvoiceId,
  };
}

const today = () => new Date().toISOString().slice(0, 10);

// The currencies a claim claims: those of its alerts. The contract's refund is "amount and
// currency" with no exchange rate, so a refund in another currency could not say what part of the
// claim it settles (it showed as a negative amount outstanding in one currency beside the whole
// claim still open in the other): it is refused, and the refund is recorded in the claim's currency.
export async function claimCurrencies(deps: Deps, claimId: string): Promise<string[]> {
  const rows = await deps.db.$queryRaw<{ currency_code: string }[]>`
    SELECT DISTINCT currency_code FROM alerts WHERE claim_id = ${claimId}::uuid AND currency_code IS NOT NULL ORDER BY 1`;
  return rows.map((row) => row.currency_code);
}

async function assertClaimedCurrency(
  deps: Deps,
  claim: ClaimRecord,
  currency: string,
  field = 'currency_code',
): Promise<void> {
  const currencies = await claimCurrencies(deps, claim.id);
  if (currencies.includes(currency)) return;
  const message =
    currencies.length === 0
      ? `cannot be ${currency}: the claim holds no alerts, so it claims no currency yet`
      : `must be a currency the claim claims (${currencies.join(', ')}); record a refund in another currency converted to the claim's currency`;
  throw invalid(field, message);
}
const dateValue = (date: string) => new Date(`${date}T00:00:00Z`);

export async function createRefund(
  deps: Deps,
  actor: MemberActor,
  claim: ClaimRecord,
  input: CreateRefundInput,
): Promise<string> {
  await assertClaimedCurrency(deps, claim, input.currency_code);
  const id = randomUUID();
  await deps.db.$transaction(async (tx) => {
    const refund = await tx.claimRefund.create({
      data: {
        id,
        organizationId: claim.organizationId,
        claimId: claim.id,
        amount: new Prisma.Decimal(input.amount),
        currencyCode: input.currency_code,
        date: dateValue(input.date ?? today()),
        reference: input.reference ?? null,
        note: input.note ?? null,
        recordedByUserId: actor.userId,
        recordedByApiKeyId: actor.apiKeyId,
      },
    });
    await tx.claim.update({ where: { id: claim.id }, data: { updatedAt: new Date() } });
    await recordActivity(tx, claim.organizationId, actor, [
      {
        entityType: 'claim',
        entityId: claim.id,
        action: 'refund_added',
        changes: { refund: { before: null, after: refundFields(refund) } },
      },
    ]);
  });
  return id;
}

function refundOf(claim: ClaimRecord, refundId: string) {
  const refund = claim.refunds.find((r) => r.id === refundId);
  if (!refund) throw errors.notFound('refund');
  return refund;
}

// A correction: only the sent fields change; who corrected it is recorded as the recorder. A
// refund sent back as read changes nothing (not even its recorder or updated_at).
export async function patchRefund(
  deps: Deps,
  actor: MemberActor,
  claim: ClaimRecord,
  refundId: string,
  input: PatchRefundInput,
): Promise<void> {
  const current = refundOf(claim, refundId);
  // A correction to another currency follows the same rule; one that leaves the currency as it was
  // is accepted, so a refund recorded before the rule can still be corrected or deleted.
  if (input.currency_code !== undefined && input.currency_code !== current.currencyCode)
    await assertClaimedCurrency(deps, claim, input.currency_code);
  const data: Prisma.ClaimRefundUncheckedUpdateInput = {
    recordedByUserId: actor.userId,
    recordedByApiKeyId: actor.apiKeyId,
  };
  if (input.amount !== undefined) data.amount = new Prisma.Decimal(input.amount);
  if (input.currency_code !== undefined) data.currencyCode = input.currency_code;
  if (input.date !== undefined) data.date = dateValue(input.date);
  if (input.reference !== undefined) data.reference = input.reference;
  if (input.note !== undefined) data.note = input.note;
  const corrected = deps.db.$transaction(async (tx) => {
    const saved = await tx.claimRefund.update({ where: { id: refundId }, data });
    const [before, after] = [refundFields(current), refundFields(saved)];
    if (JSON.stringify(before) === JSON.stringify(after)) throw new NothingChanged();
    await tx.claim.update({ where: { id: claim.id }, data: { updatedAt: new Date() } });
    await recordActivity(tx, claim.organizationId, actor, [
      { entityType: 'claim', entityId: claim.id, action: 'refund_corrected', changes: { refund: { before, after } } },
    ]);
  });
  await orUnchanged(corrected, () => undefined);
}

// Removing a refund already gone changes nothing (the claim itself must exist: 404 otherwise).
export async function deleteRefund(
  deps: Deps,
  who: RequestActor | Actor,
  claim: ClaimRecord,
  refundId: string,
): Promise<void> {
  const refund = claim.refunds.find((r) => r.id === refundId);
  if (!refund) return;
  await deps.db.$transaction(async (tx) => {
    const { count } = await tx.claimRefund.deleteMany({ where: { id: refundId, claimId: claim.id } });
    if (count === 0) return;
    await tx.claim.update({ where: { id: claim.id }, data: { updatedAt: new Date() } });
    await recordActivity(tx, claim.organizationId, who, [
      {
        entityType: 'claim',
        entityId: claim.id,
        action: 'refund_deleted',
        changes: { refund: { before: refundFields(refund), after: null } },
      },
    ]);
  });
}

function invalid(field: string, message: string) {
  return errors.validation(`${field} ${message}.`, [{ field, message }]);
}

// Attaches an imported credit note of the claim's supplier. Attaching it again changes nothing
// (and records no second refund). Answers whether it was newly attached.
export async function attachCreditNote(
  deps: Deps,
  actor: MemberActor,
  claim: ClaimRecord,
  invoiceId: string,
  createRefund: boolean,
): Promise<boolean> {
  const invoice = await deps.db.invoice.findFirst({
    where: { id: invoiceId, organizationId: claim.organizationId, deletedAt: null },
  });
  if (!invoice) throw invalid('invoice_id', 'names no invoice');
  if (invoice.documentType !== 'credit_note') throw invalid('invoice_id', 'is not a credit note');
  if (invoice.processingStatus !== 'completed') throw invalid('invoice_id', 'is not imported yet');
  if (claim.supplierId !== null && invoice.supplierId !== claim.supplierId)
    throw invalid('invoice_id', "is a credit note of another supplier than the claim's");
  if (claim.creditNotes.some((link) => link.invoiceId === invoiceId)) return false;
  const amount = creditNoteAmount(invoice);
  if (createRefund && (amount === null || !invoice.currencyCode || /^0(\.0+)?$/.test(amount))) {
    throw invalid('create_refund', 'cannot be honoured: the credit note has no total or currency');
  }
  if (createRefund) await assertClaimedCurrency(deps, claim, invoice.currencyCode!, 'create_refund');
  return deps.db.$transaction(async (tx) => {
    const inserted = await tx.claimCreditNote.createMany({
      data: [
        {
          claimId: claim.id,
          invoiceId,
          organizationId: claim.organizationId,
          attachedByUserId: actor.userId,
          attachedByApiKeyId: actor.apiKeyId,
        },
      ],
      skipDuplicates: true,
    });
    // A concurrent attach won the race: it recorded the refund, if one was asked for.
    if (inserted.count === 0) return false;
    const entries: ActivityEntryInput[] = [
      {
        entityType: 'claim',
        entityId: claim.id,
        action: 'credit_note_attached',
        changes: { credit_note_invoice_id: { before: null, after: invoiceId } },
      },
    ];
    if (createRefund) {
      const refund = await tx.claimRefund.create({
        data: {
          id: randomUUID(),
          organizationId: claim.organizationId,
          claimId: claim.id,
          amount: new Prisma.Decimal(amount!),
          currencyCode: invoice.currencyCode!,
          date: invoice.issueDate ?? dateValue(today()),
          reference: invoice.invoiceNumber,
          creditNoteInvoiceId: invoice.id,
          recordedByUserId: actor.userId,
          recordedByApiKeyId: actor.apiKeyId,
        },
      });
      entries.push({
        entityType: 'claim',
        entityId: claim.id,
        action: 'refund_added',
        changes: { refund: { before: null, after: refundFields(refund) } },
      });
    }
    await tx.claim.update({ where: { id: claim.id }, data: { updatedAt: new Date() } });
    await recordActivity(tx, claim.organizationId, actor, entries);
    return true;
  });
}

// Detaching keeps refunds recorded from the credit note: money received stays received until a
// person deletes the refund.
export async function detachCreditNote(
  deps: Deps,
  who: RequestActor | Actor,
  claim: ClaimRecord,
  invoiceId: string,
): Promise<void> {
  if (!claim.creditNotes.some((link) => link.invoiceId === invoiceId)) return;
  await deps.db.$transaction(async (tx) => {
    const { count } = await tx.claimCreditNote.deleteMany({ where: { claimId: claim.id, invoiceId } });
    if (count === 0) return;
    await tx.claim.update({ where: { id: claim.id }, data: { updatedAt: new Date() } });
    await recordActivity(tx, claim.organizationId, who, [
      {
        entityType: 'claim',
        entityId: claim.id,
        action: 'credit_note_detached',
        changes: { credit_note_invoice_id: { before: invoiceId, after: null } },
      },
    ]);
  });
}
