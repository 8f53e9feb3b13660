import { recordActivity, type Actor } from '../activity/record.js';
import { alertWhereOf } from '../alerts/filters.js';
import { MAX_BULK_ALERTS } from '../alerts/schemas.js';
import type { AlertStatus } from '../alerts/state-machine.js';
import type { RequestActor } from '../auth/actor.js';
import type { AppDeps } from '../deps.js';
import type { Prisma } from '../generated/prisma/client.js';
import { ApiError, errors } from '../http/errors.js';
import { alertMoveEntries, type AlertMove } from './activity-entries.js';
import { findClaim, lockClaim, lockClaimRows, touchClaims } from './records.js';
import type { AddAlertsInput, AlertSelection, ClaimStatus } from './schemas.js';
import {
  admit,
  alertChangesRefusal,
  release,
  REFUSAL_MESSAGES,
  type CandidateAlert,
  type RefusalReason,
  type TargetClaim,
} from './state-machine.js';

// Alerts in and out of a claim: adding (moving from other open claims), removing.

type Deps = Pick<AppDeps, 'db'>;
type Tx = Prisma.TransactionClient;
type Who = RequestActor | Actor;

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
export async function selectAlertIds(deps: Deps, organizationId: string, selection: AlertSelection): Promise<string[]> {
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
export async function admitAlerts(
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
    await touchClaims(tx, [claim.id, ...movedFrom.keys()]);
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
      await touchClaims(tx, [claim.id]);
      await recordActivity(tx, organizationId, who, alertMoveEntries(claim.id, 'alerts_removed', moves));
    }
    return result;
  });
}
