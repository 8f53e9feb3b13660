// The claim state machine of the spec ("States and transitions > Claim" and the Alert rows that
// name claims), pure: it says what a status change does to a claim and its alerts, and whether
// an alert may enter or leave a claim. The service applies it in one transaction.

import type { AlertStatus } from '../alerts/state-machine.js';
import type { ClaimStatus } from './schemas.js';

export type { ClaimStatus };

// A claim that still collects alerts: its claimed (invoice, agreement) pairs are not re-checked.
export const OPEN_CLAIM_STATUSES: readonly ClaimStatus[] = ['pending', 'in_progress'];
export const isOpen = (status: ClaimStatus) => OPEN_CLAIM_STATUSES.includes(status);

// The dismissal category alerts get when their claim is cancelled, or deleted with
// alert_outcome=dismissed.
export const CLAIM_CANCELLED_CATEGORY = 'claim_cancelled';
export const CLAIM_DELETED_CATEGORY = 'claim_deleted';

// What a status change does to the claim's alerts:
// - dismiss_open: pending and claimed alerts become dismissed (claim_cancelled); credited stay.
// - restore_cancelled: leaving `cancelled`, the alerts the cancellation dismissed (still in the
//   claim, category claim_cancelled) are claimed again.
export type AlertEffect = 'none' | 'dismiss_open' | 'restore_cancelled';

export type StatusChange =
  | { outcome: 'unchanged' }
  | {
      outcome: 'updated';
      status: ClaimStatus;
      alertEffect: AlertEffect;
      completedAt: Date | null;
      cancelledAt: Date | null;
    }
  | { outcome: 'refused'; reason: 'invalid_transition'; message: string };

export function changeStatus(from: ClaimStatus, to: ClaimStatus, now: Date): StatusChange {
  // Setting a state already held changes nothing (spec "Conditional repeat").
  if (from === to) return { outcome: 'unchanged' };
  // The table has no row into pending: a claim that moved on does not go back to "not started".
  if (to === 'pending')
    return {
      outcome: 'refused',
      reason: 'invalid_transition',
      message: `A claim cannot go back from ${from} to pending; use in_progress.`,
    };
  const alertEffect: AlertEffect =
    to === 'cancelled' ? 'dismiss_open' : from === 'cancelled' ? 'restore_cancelled' : 'none';
  return {
    outcome: 'updated',
    status: to,
    alertEffect,
    // The stamps describe the current status: reopening clears completed_at.
    completedAt: to === 'completed' ? now : null,
    cancelledAt: to === 'cancelled' ? now : null,
  };
}

// Whether the claim accepts alert changes (add, remove) in its current status.
export function alertChangesRefusal(status: ClaimStatus): { code: string; message: string } | null {
  if (status === 'completed')
    return {
      code: 'claim_completed',
      message: 'The claim is completed: its alerts cannot change. Reopen it (status in_progress) first.',
    };
  if (status === 'cancelled')
    return {
      code: 'claim_cancelled',
      message: 'The claim is cancelled: its alerts cannot change. Set it in_progress first.',
    };
  return null;
}

export interface CandidateAlert {
  id: string;
  agreementId: string;
  supplierId: string | null;
  status: AlertStatus;
  claimId: string | null;
  claimStatus: ClaimStatus | null;
  setAside: boolean;
}

export interface TargetClaim {
  id: string;
  agreementId: string;
  supplierId: string | null;
}

export type RefusalReason =
  | 'other_agreement'
  | 'other_supplier'
  | 'set_aside'
  | 'dismissed'
  | 'credited'
  | 'in_other_claim'
  | 'in_completed_claim';

export const REFUSAL_MESSAGES: Record<RefusalReason, string> = {
  other_agreement: "The alert is on another agreement than the claim's.",
  other_supplier: "The alert's invoice is from another supplier than the claim's.",
  set_aside: 'The invoice no longer matches the agreement (the alert is set aside).',
  dismissed: 'The alert is dismissed; reopen it first.',
  credited: 'The alert is credited: the supplier already paid it back.',
  in_other_claim: 'The alert is in another open claim; send move_from_open_claims: true to move it.',
  in_completed_claim: 'The alert is in a completed claim and cannot change.',
};

export type Admission =
  | { outcome: 'add' }
  | { outcome: 'move'; fromClaimId: string }
  | { outcome: 'unchanged' }
  | { outcome: 'refused'; reason: RefusalReason };

// One claim at a time per alert: a pending alert of the claim's agreement (and supplier) enters;
// a claimed one moves from another open claim only when asked to.
export function admit(alert: CandidateAlert, claim: TargetClaim, moveFromOpenClaims: boolean): Admission {
  if (alert.claimId === claim.id && alert.status === 'claimed') return { outcome: 'unchanged' };
  if (alert.agreementId !== claim.agreementId) return { outcome: 'refused', reason: 'other_agreement' };
  if (alert.setAside) return { outcome: 'refused', reason: 'set_aside' };
  if (claim.supplierId !== null && alert.supplierId !== claim.supplierId)
    return { outcome: 'refused', reason: 'other_supplier' };
  if (alert.status === 'dismissed') return { outcome: 'refused', reason: 'dismissed' };
  if (alert.status === 'credited') return { outcome: 'refused', reason: 'credited' };
  const heldElsewhere = alert.claimId !== null && alert.claimId !== claim.id && alert.claimStatus !== 'cancelled';
  if (heldElsewhere) {
    if (alert.claimStatus === 'completed') return { outcome: 'refused', reason: 'in_completed_claim' };
    return moveFromOpenClaims
      ? { outcome: 'move', fromClaimId: alert.claimId! }
      : { outcome: 'refused', reason: 'in_other_claim' };
  }
  return { outcome: 'add' };
}

// Removing an alert the claim does not hold changes nothing; a claimed one returns to pending.
export function release(
  alert: { claimId: string | null; status: AlertStatus },
  claimId: string,
): 'remove' | 'unchanged' {
  return alert.claimId === claimId ? 'remove' : 'unchanged';
}
