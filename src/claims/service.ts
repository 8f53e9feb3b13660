import { randomUUID } from 'node:crypto';
import { countInBatches } from '../shared/batches.js';
import { changedFields, recordActivity, type ActivityEntryInput, type Actor } from '../activity/record.js';
import { alertWhereOf } from '../alerts/filters.js';
import { MAX_BULK_ALERTS } from '../alerts/schemas.js';
import type { AlertStatus } from '../alerts/state-machine.js';
import type { MemberActor, RequestActor } from '../auth/actor.js';
import type { AppDeps } from '../deps.js';
import type { Prisma } from '../generated/prisma/client.js';
import { ApiError, errors } from '../http/errors.js';
import type {
  AddAlertsInput,
  AlertSelection,
  ClaimFilter,
  ClaimStatus,
  CreateClaimInput,
  PatchClaimInput,
} from './schemas.js';
import { CLAIM_INCLUDE, type ClaimRecord } from './serialize.js';
import {
  admit,
  alertChangesRefusal,
  changeStatus,
  CLAIM_CANCELLED_CATEGORY,
  CLAIM_DELETED_CATEGORY,
  release,
  REFUSAL_MESSAGES,
  type CandidateAlert,
  type RefusalReason,
  type TargetClaim,
} from './state-machine.js';
import { containsText } from '../http/schemas.js';

type Deps = Pick<AppDeps, 'db'>;
type Tx = Prisma.TransactionClient;
type Who = RequestActor | Actor;

// ---- Activity (docs/activity.md) ----

// The claim's own fields as the API shows them: what `created`, `updated`, `status_changed` and
// `deleted` entries compare.
export const CLAIM_AUDITED_FIELDS = [
  'reference',
  'agreement_id',
  'supplier_id',
  'title',
  'status',
  'supplier_contact',
  'note',
] as const;
export function claimFields(
  claim: Pick<
    ClaimRecord,
    | 'reference'
    | 'agreementId'
    | 'supplierId'
    | 'title'
    | 'status'
    | 'supplierContactName'
    | 'supplierContactEmail'
    | 'note'
  >,
) {
  const contact =
    claim.supplierContactName !== null || claim.supplierContactEmail !== null
      ? { name: claim.supplierContactName, email: claim.supplierContactEmail }
      : null;
  return {
    reference: claim.reference,
    agreement_id: claim.agreementId,
    supplier_id: claim.supplierId,
    title: claim.title,
    status: claim.status,
    supplier_contact: contact,
    note: claim.note,
  };
}

// Alerts entering or leaving a claim: one entry on the claim naming them, one on each alert with
// its status and claim before and after.
interface AlertMove {
  id: string;
  statusBefore: string;
  statusAfter: string;
  claimBefore: string | null;
  claimAfter: string | null;
}
function alertMoveEntries(
  claimId: string,
  action: 'alerts_added' | 'alerts_removed',
  moves: AlertMove[],
): ActivityEntryInput[] {
  if (moves.length === 0) return [];
  const ids = moves.map((move) => move.id);
  return [
    {
      entityType: 'claim',
      entityId: claimId,
      action,
      changes: { alert_ids: action === 'alerts_added' ? { before: null, after: ids } : { before: ids, after: null } },
    },
    ...moves.map((move) => ({
      entityType: 'alert' as const,
      entityId: move.id,
      action: action === 'alerts_added' ? 'claim_added' : 'claim_removed',
      changes: changedFields(
        { status: move.statusBefore, claim_id: move.claimBefore },
        { status: move.statusAfter, claim_id: move.claimAfter },
      ),
    })),
  ];
}

export async function findClaim(deps: Deps, organizationId: string, id: string): Promise<ClaimRecord> {
  const claim = await deps.db.claim.findFirst({ where: { id, organizationId }, include: CLAIM_INCLUDE });
  if (!claim) throw errors.notFound('claim');
  return claim;
}

// ---- Lists ----

function range(field: 'createdAt' | 'updatedAt', from?: string, before?: string): Prisma.ClaimWhereInput {
  if (!from && !before) return {};
  return { [field]: { ...(from ? { gte: new Date(from) } : {}), ...(before ? { lt: new Date(before) } : {}) } };
}

export function claimWhere(organizationId: string, filter: ClaimFilter): Prisma.ClaimWhereInput {
  const supplier: Prisma.ClaimWhereInput = !filter.supplier_ids
    ? {}
    : filter.supplier_operator === 'is_not'
      ? { OR: [{ supplierId: null }, { supplierId: { notIn: filter.supplier_ids } }] }
      : { supplierId: { in: filter.supplier_ids } };
  return {
    AND: [
      { organizationId },
      filter.agreement_ids ? { agreementId: { in: filter.agreement_ids } } : {},
      filter.statuses ? { status: { in: filter.statuses } } : {},
      supplier,
      filter.search ? { OR: [{ title: containsText(filter.search) }, { reference: containsText(filter.search) }] } : {},
      range('createdAt', filter.created_from, filter.created_before),
      range('updatedAt', filter.updated_from, filter.updated_before),
    ],
  };
}

// ---- Alerts in and out ----

export interface AlertChangeResult {
  added: string[];
  moved: string[];
  removed: string[];
  unchanged: string[];
  skipped: { id: string; reason: string }[];
}

const emptyChange = (): AlertChangeResult => ({ added: [], moved: [], removed: [], unchanged: [], skipped: [] });

// The ids a selection names: alert_ids exactly (every one must be an alert of the organization,
// else nothing changes), or what the alert list filter shows (at most MAX_BULK_ALERTS).
async function selectAlertIds(deps: Deps, organizationId: string, selection: AlertSelection): Promise<string[]> {
  if (selection.alert_ids) {
    const ids = [...new Set(selection.alert_ids)];
    const rows = await deps.db.$queryRaw<
      { id: string }[]
    >`SELECT id::text FROM alerts WHERE organization_id = ${organizationId}::uuid AND id = ANY(${ids}::uuid[])`;
    const found = new Set(rows.map((row) => row.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw errors.validation(
        'Some alert_ids name no alert; nothing was changed.',
        missing.map((id) => ({ field: 'alert_ids', message: `no alert ${id}` })),
      );
    }
    return ids;
  }
  const rows = await deps.db.alert.findMany({
    where: await alertWhereOf(deps.db, organizationId, selection.filter!),
    select: { id: true },
    orderBy: { id: 'asc' },
    take: MAX_BULK_ALERTS + 1,
  });
  if (rows.length > MAX_BULK_ALERTS)
    throw errors.validation(`The filter matches more than ${MAX_BULK_ALERTS} alerts; narrow it.`, [
      { field: 'filter', message: 'matches too many alerts' },
    ]);
  return rows.map((row) => row.id);
}

// Locks the alerts for the rest of the transaction and reads what admission needs, in one
// statement (ids as one array parameter, whatever their number).
async function lockedCandidates(tx: Tx, ids: string[]): Promise<CandidateAlert[]> {
  if (ids.length === 0) return [];
  const rows = await tx.$queryRaw<
    {
      id: string;
      agreement_id: string;
      status: AlertStatus;
      claim_id: string | null;
      claim_status: ClaimStatus | null;
      supplier_id: string | null;
      set_aside: boolean;
    }[]
  >`
    SELECT a.id::text, a.agreement_id::text, a.status::text AS status, a.claim_id::text, c.status::text AS claim_status,
           i.supplier_id::text, (NOT m.active OR i.deleted_at IS NOT NULL) AS set_aside
      FROM alerts a
      JOIN invoice_agreement_matches m ON m.invoice_id = a.invoice_id AND m.agreement_id = a.agreement_id
      JOIN invoices i ON i.id = a.invoice_id
      LEFT JOIN claims c ON c.id = a.claim_id
     WHERE a.id = ANY(${ids}::uuid[])
     ORDER BY a.id
       FOR UPDATE OF a`;
  return rows.map((row) => ({
    id: row.id,
    agreementId: row.agreement_id,
    supplierId: row.supplier_id,
    status: row.status,
    claimId: row.claim_id,
    claimStatus: row.claim_status,
    setAside: row.set_aside,
  }));
}

function notClaimable(refused: { id: string; reason: RefusalReason }[]): ApiError {
  return new ApiError(409, 'alerts_not_claimable', 'Some alerts cannot be added to the claim; nothing was changed.', {
    details: refused.map(({ id, reason }) => ({
      field: 'alert_ids',
      alert_id: id,
      reason,
      message: REFUSAL_MESSAGES[reason],
    })),
  });
}

// Adds alerts to a claim whose row the caller has locked. Named alerts are all or nothing (409
// alerts_not_claimable, with the reason per alert); alerts a filter selected that cannot be
// claimed are skipped with their reason.
async function admitAlerts(
  tx: Tx,
  who: Who,
  organizationId: string,
  claim: TargetClaim,
  ids: string[],
  named: boolean,
  moveFromOpenClaims: boolean,
): Promise<AlertChangeResult> {
  const result = emptyChange();
  const refused: { id: string; reason: RefusalReason }[] = [];
  const movedFrom = new Map<string, AlertMove[]>();
  const moves: AlertMove[] = [];
  for (const alert of await lockedCandidates(tx, ids)) {
    const admission = admit(alert, claim, moveFromOpenClaims);
    if (admission.outcome === 'unchanged') result.unchanged.push(alert.id);
    else if (admission.outcome === 'refused') refused.push({ id: alert.id, reason: admission.reason });
    else {
      const move = {
        id: alert.id,
        statusBefore: alert.status,
        statusAfter: 'claimed',
        claimBefore: alert.claimId,
        claimAfter: claim.id,
      };
      moves.push(move);
      if (admission.outcome === 'move') {
        result.moved.push(alert.id);
        movedFrom.set(admission.fromClaimId, [...(movedFrom.get(admission.fromClaimId) ?? []), move]);
      } else result.added.push(alert.id);
    }
  }
  if (named && refused.length > 0) throw notClaimable(refused);
  result.skipped = refused;
  const entering = [...result.added, ...result.moved];
  if (entering.length > 0) {
    await tx.$executeRaw`UPDATE alerts SET status = 'claimed', claim_id = ${claim.id}::uuid, updated_at = now() WHERE id = ANY(${entering}::uuid[])`;
    await touch(tx, [claim.id, ...movedFrom.keys()]);
    // A moved alert gets one entry (claim_added, from its claim to this one); its former claim
    // records the alerts it lost.
    const sources = [...movedFrom.entries()].map(([fromId, lost]) => ({
      entityType: 'claim' as const,
      entityId: fromId,
      action: 'alerts_removed',
      changes: { alert_ids: { before: lost.map((m) => m.id), after: null } },
    }));
    await recordActivity(tx, organizationId, who, [...alertMoveEntries(claim.id, 'alerts_added', moves), ...sources]);
  }
  return result;
}

async function touch(tx: Tx, claimIds: string[]): Promise<void> {
  await tx.claim.updateMany({ where: { id: { in: claimIds } }, data: { updatedAt: new Date() } });
}

async function lockClaimRows(tx: Tx, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)].sort();
  await tx.$queryRaw`SELECT id FROM claims WHERE id = ANY(${unique}::uuid[]) ORDER BY id FOR UPDATE`;
}

async function lockClaim(tx: Tx, organizationId: string, id: string): Promise<ClaimRecord> {
  const locked = await tx.$queryRaw<
    { id: string }[]
  >`SELECT id FROM claims WHERE id = ${id}::uuid AND organization_id = ${organizationId}::uuid FOR UPDATE`;
  if (locked.length === 0) throw errors.notFound('claim');
  return tx.claim.findUniqueOrThrow({ where: { id }, include: CLAIM_INCLUDE });
}

function assertAlertsChangeable(status: ClaimStatus): void {
  const refusal = alertChangesRefusal(status);
  if (refusal) throw errors.conflict(refusal.code, refusal.message);
}

export async function addAlerts(
  deps: Deps,
  organizationId: string,
  who: Who,
  claimId: string,
  input: AddAlertsInput,
): Promise<AlertChangeResult> {
  // Another organization's claim is not found before anything about the alerts is said.
  await findClaim(deps, organizationId, claimId);
  const ids = await selectAlertIds(deps, organizationId, input);
  return deps.db.$transaction(async (tx) => {
    // Every claim involved is locked before the alerts, in id order (as a status change locks its
    // claim, then its alerts), so a move never interleaves with the source claim's completion.
    const holders = await tx.$queryRaw<
      { claim_id: string }[]
    >`SELECT DISTINCT claim_id::text FROM alerts WHERE id = ANY(${ids}::uuid[]) AND claim_id IS NOT NULL`;
    await lockClaimRows(tx, [claimId, ...holders.map((h) => h.claim_id)]);
    const claim = await lockClaim(tx, organizationId, claimId);
    assertAlertsChangeable(claim.status);
    return admitAlerts(tx, who, organizationId, claim, ids, input.alert_ids !== undefined, input.move_from_open_claims);
  });
}

// A removed alert returns to pending; one the claim does not hold is unchanged.
export async function removeAlerts(
  deps: Deps,
  organizationId: string,
  who: Who,
  claimId: string,
  selection: AlertSelection,
): Promise<AlertChangeResult> {
  await findClaim(deps, organizationId, claimId);
  const ids = await selectAlertIds(deps, organizationId, selection);
  return deps.db.$transaction(async (tx) => {
    const claim = await lockClaim(tx, organizationId, claimId);
    assertAlertsChangeable(claim.status);
    const result = emptyChange();
    const moves: AlertMove[] = [];
    for (const alert of await lockedCandidates(tx, ids)) {
      if (release(alert, claim.id) === 'remove') {
        result.removed.push(alert.id);
        moves.push({
          id: alert.id,
          statusBefore: alert.status,
          statusAfter: alert.status === 'claimed' ? 'pending' : alert.status,
          claimBefore: claim.id,
          claimAfter: null,
        });
      } else result.unchanged.push(alert.id);
    }
    if (result.removed.length > 0) {
      // Claimed alerts return to pending; any other status is kept.
      await tx.$executeRaw`
        UPDATE alerts SET status = CASE WHEN status = 'claimed' THEN 'pending'::"AlertStatus" ELSE status END, claim_id = NULL, updated_at = now()
         WHERE id = ANY(${result.removed}::uuid[])`;
      await touch(tx, [claim.id]);
      await recordActivity(tx, organizationId, who, alertMoveEntries(claim.id, 'alerts_removed', moves));
    }
    return result;
  });
}

// ---- Create, change, delete ----

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
