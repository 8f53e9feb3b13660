import { randomUUID } from 'node:crypto';
import { countInBatches } from '../shared/batches.js';
import { changedFields, recordActivity, type ActivityEntryInput, type Actor } from '../activity/record.js';
import type { MemberActor, RequestActor } from '../auth/actor.js';
import type { AppDeps } from '../deps.js';
import type { Prisma } from '../generated/prisma/client.js';
import { errors } from '../http/errors.js';
import { alertMoveEntries, CLAIM_AUDITED_FIELDS, claimFields } from './activity-entries.js';
import { admitAlerts, selectAlertIds, type AlertChangeResult } from './claim-alerts.js';
import { lockClaim } from './records.js';
import type { CreateClaimInput, PatchClaimInput } from './schemas.js';
import type { ClaimRecord } from './serialize.js';
import { changeStatus, CLAIM_CANCELLED_CATEGORY, CLAIM_DELETED_CATEGORY } from './state-machine.js';

// A claim's life: created (with its first alerts), changed (title, contact, note, status and the
// status's effect on its alerts), deleted. Its alerts in and out: claim-alerts.ts.

type Deps = Pick<AppDeps, 'db'>;
type Tx = Prisma.TransactionClient;
type Who = RequestActor | Actor;

// CLM-<year>-<number>: numbers count up per organization and year, under a row lock of the
// counter, so two claims created at once never share a reference.
async function nextReference(tx: Tx, organizationId: string, now: Date): Promise<string> {
  const year = now.getUTCFullYear();
  const [row] = await tx.$queryRaw<{ last_number: number }[]>`
    INSERT INTO claim_reference_counters (organization_id, year, last_number) VALUES (${organizationId}::uuid, ${year}, 1)
    ON CONFLICT (organization_id, year) DO UPDATE SET last_number = claim_reference_counters.last_number + 1
    RETURNING last_number`;
  return `CLM-${year}-${String(row!.last_number).padStart(4, '0')}`;
}

function invalid(field: string, message: string) {
  return errors.validation(`${field} ${message}.`, [{ field, message }]);
}

// The supplier the claim is addressed to: as sent (one of the agreement's suppliers), else the
// agreement's only supplier, else the one supplier of the selected alerts' invoices.
async function claimSupplier(
  deps: Deps,
  agreementSupplierIds: string[],
  sent: string | null | undefined,
  alertIds: string[],
): Promise<string | null> {
  if (sent !== undefined && sent !== null) {
    if (!agreementSupplierIds.includes(sent)) throw invalid('supplier_id', "is not one of the agreement's suppliers");
    return sent;
  }
  if (agreementSupplierIds.length <= 1) return agreementSupplierIds[0] ?? null;
  const rows = await deps.db.$queryRaw<{ supplier_id: string | null }[]>`
    SELECT DISTINCT i.supplier_id::text FROM alerts a JOIN invoices i ON i.id = a.invoice_id WHERE a.id = ANY(${alertIds}::uuid[])`;
  const suppliers = rows.map((row) => row.supplier_id);
  if (suppliers.length === 1 && suppliers[0]) return suppliers[0];
  throw invalid('supplier_id', 'is required: the agreement has several suppliers and the alerts do not name one');
}

function contactColumns(contact: PatchClaimInput['supplier_contact']) {
  if (contact === undefined) return {};
  return { supplierContactName: contact?.name ?? null, supplierContactEmail: contact?.email ?? null };
}

export async function createClaim(
  deps: Deps,
  actor: MemberActor,
  input: CreateClaimInput,
): Promise<{ claimId: string; alerts: AlertChangeResult }> {
  const organizationId = actor.organizationId;
  const agreement = await deps.db.agreement.findFirst({
    where: { id: input.agreement_id, organizationId },
    select: { id: true, suppliers: { select: { supplierId: true } } },
  });
  if (!agreement) throw invalid('agreement_id', 'names no agreement');
  const alertIds = input.alerts ? await selectAlertIds(deps, organizationId, input.alerts) : [];
  const supplierId = await claimSupplier(
    deps,
    agreement.suppliers.map((s) => s.supplierId),
    input.supplier_id,
    alertIds,
  );
  return deps.db.$transaction(async (tx) => {
    const now = new Date();
    const claim = await tx.claim.create({
      data: {
        id: randomUUID(),
        organizationId,
        agreementId: agreement.id,
        supplierId,
        reference: await nextReference(tx, organizationId, now),
        title: input.title,
        note: input.note ?? null,
        ...contactColumns(input.supplier_contact),
        createdByUserId: actor.userId,
        createdByApiKeyId: actor.apiKeyId,
      },
    });
    await recordActivity(tx, organizationId, actor, [
      { entityType: 'claim', entityId: claim.id, action: 'created', changes: changedFields({}, claimFields(claim)) },
    ]);
    const alerts = await admitAlerts(
      tx,
      actor,
      organizationId,
      claim,
      alertIds,
      input.alerts?.alert_ids !== undefined,
      false,
    );
    return { claimId: claim.id, alerts };
  });
}

// Fields sent as they are change nothing: a claim written back as read keeps its updated_at and
// records no entry. A status change is recorded as `status_changed` (with any other field changed
// in the same request), its effect on the alerts as one entry per alert.
export async function patchClaim(
  deps: Deps,
  organizationId: string,
  who: Who,
  claimId: string,
  input: PatchClaimInput,
  assertCurrent: (claim: ClaimRecord) => Promise<void>,
): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const claim = await lockClaim(tx, organizationId, claimId);
    await assertCurrent(claim);
    const data: Prisma.ClaimUncheckedUpdateInput = { ...contactColumns(input.supplier_contact) };
    if (input.title !== undefined) data.title = input.title;
    if (input.note !== undefined) data.note = input.note;
    const entries: ActivityEntryInput[] = [];
    let statusChanged = false;
    if (input.status !== undefined) {
      const now = new Date();
      const change = changeStatus(claim.status, input.status, now);
      if (change.outcome === 'refused') throw errors.conflict(change.reason, change.message);
      if (change.outcome === 'updated') {
        statusChanged = true;
        Object.assign(data, {
          status: change.status,
          completedAt: change.completedAt,
          cancelledAt: change.cancelledAt,
        });
        entries.push(...(await applyAlertEffect(tx, claim.id, change.alertEffect, now)));
      }
    }
    const after = { ...claim, ...(data as Partial<ClaimRecord>) };
    const changes = changedFields(claimFields(claim), claimFields(after), CLAIM_AUDITED_FIELDS);
    if (Object.keys(changes).length === 0) return;
    await tx.claim.update({ where: { id: claim.id }, data });
    await recordActivity(tx, organizationId, who, [
      { entityType: 'claim', entityId: claim.id, action: statusChanged ? 'status_changed' : 'updated', changes },
      ...entries,
    ]);
  });
}

// Answers the entries of the alerts it changed (dismissed or claimed again, with their status
// before and after).
async function applyAlertEffect(
  tx: Tx,
  claimId: string,
  effect: 'none' | 'dismiss_open' | 'restore_cancelled',
  now: Date,
): Promise<ActivityEntryInput[]> {
  const statusEntries = (rows: { id: string; status: string }[], after: string, action: string): ActivityEntryInput[] =>
    rows.map((row) => ({
      entityType: 'alert',
      entityId: row.id,
      action,
      changes: { status: { before: row.status, after } },
    }));
  if (effect === 'dismiss_open') {
    // Pending and claimed alerts become dismissed; credited ones stay credited. They stay in the
    // cancelled claim (its record of what was claimed) but are free: a re-check may replace them,
    // and reopening one takes it out of the claim.
    const changing = await tx.alert.findMany({
      where: { claimId, status: { in: ['pending', 'claimed'] } },
      select: { id: true, status: true },
    });
    await countInBatches(
      changing.map((a) => a.id),
      (ids) =>
        tx.alert.updateMany({
          where: { id: { in: ids } },
          data: {
            status: 'dismissed',
            dismissalCategory: CLAIM_CANCELLED_CATEGORY,
            dismissalNote: null,
            dismissedAt: now,
          },
        }),
    );
    return statusEntries(changing, 'dismissed', 'dismissed');
  }
  if (effect === 'restore_cancelled') {
    const changing = await tx.alert.findMany({
      where: { claimId, status: 'dismissed', dismissalCategory: CLAIM_CANCELLED_CATEGORY },
      select: { id: true, status: true },
    });
    await countInBatches(
      changing.map((a) => a.id),
      (ids) =>
        tx.alert.updateMany({
          where: { id: { in: ids } },
          data: { status: 'claimed', dismissalCategory: null, dismissalNote: null, dismissedAt: null },
        }),
    );
    return statusEntries(changing, 'claimed', 'claimed');
  }
  return [];
}

// Deleting a claim lets go of its alerts: claimed ones return to pending or become dismissed
// (category claim_deleted) as alert_outcome says; credited and dismissed ones keep their status.
// A completed claim's alerts cannot change, so it must be reopened first.
export async function deleteClaim(
  deps: Deps,
  organizationId: string,
  who: Who,
  claimId: string,
  outcome: 'pending' | 'dismissed',
  assertCurrent: (claim: ClaimRecord) => Promise<void>,
): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const claim = await lockClaim(tx, organizationId, claimId);
    await assertCurrent(claim);
    if (claim.status === 'completed')
      throw errors.conflict(
        'claim_completed',
        'The claim is completed: its alerts cannot change. Reopen it (status in_progress) before deleting it.',
      );
    const now = new Date();
    const released =
      outcome === 'pending'
        ? { status: 'pending' as const, claimId: null }
        : {
            status: 'dismissed' as const,
            claimId: null,
            dismissalCategory: CLAIM_DELETED_CATEGORY,
            dismissalNote: null,
            dismissedAt: now,
          };
    const held = await tx.alert.findMany({ where: { claimId: claim.id }, select: { id: true, status: true } });
    await tx.alert.updateMany({ where: { claimId: claim.id, status: { in: ['pending', 'claimed'] } }, data: released });
    await tx.alert.updateMany({ where: { claimId: claim.id }, data: { claimId: null } });
    await tx.claim.delete({ where: { id: claim.id } });
    const moves = held.map((alert) => ({
      id: alert.id,
      statusBefore: alert.status,
      statusAfter: alert.status === 'pending' || alert.status === 'claimed' ? outcome : alert.status,
      claimBefore: claim.id,
      claimAfter: null,
    }));
    await recordActivity(tx, organizationId, who, [
      {
        entityType: 'claim',
        entityId: claim.id,
        action: 'deleted',
        changes: changedFields(claimFields(claim), {}, CLAIM_AUDITED_FIELDS),
      },
      ...alertMoveEntries(claim.id, 'alerts_removed', moves).slice(1),
    ]);
  });
}
