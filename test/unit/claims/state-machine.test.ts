import { describe, expect, it } from 'vitest';
import {
  admit,
  alertChangesRefusal,
  changeStatus,
  release,
  type CandidateAlert,
} from '../../../src/claims/state-machine.js';
import { CLAIM_STATUSES } from '../../../src/claims/schemas.js';

const now = new Date('2026-05-01T10:00:00Z');
const claim = { id: 'claim-1', agreementId: 'agreement-1', supplierId: 'supplier-1' };
const alert = (extra: Partial<CandidateAlert> = {}): CandidateAlert => ({
  id: 'alert-1',
  agreementId: 'agreement-1',
  supplierId: 'supplier-1',
  status: 'pending',
  claimId: null,
  claimStatus: null,
  setAside: false,
  ...extra,
});

describe('claim state machine', () => {
  it('changes nothing when the status is already held', () => {
    for (const status of CLAIM_STATUSES) expect(changeStatus(status, status, now)).toEqual({ outcome: 'unchanged' });
  });

  it('goes to in_progress, completed and cancelled from any status, and never back to pending', () => {
    for (const from of CLAIM_STATUSES) {
      for (const to of ['in_progress', 'completed', 'cancelled'] as const) {
        if (from === to) continue;
        const change = changeStatus(from, to, now);
        expect(change.outcome, `${from} -> ${to}`).toBe('updated');
      }
      if (from !== 'pending')
        expect(changeStatus(from, 'pending', now)).toMatchObject({ outcome: 'refused', reason: 'invalid_transition' });
    }
  });

  it('dismisses open alerts on cancel, restores them when leaving cancelled, and stamps the current status only', () => {
    expect(changeStatus('in_progress', 'cancelled', now)).toEqual({
      outcome: 'updated',
      status: 'cancelled',
      alertEffect: 'dismiss_open',
      completedAt: null,
      cancelledAt: now,
    });
    expect(changeStatus('completed', 'cancelled', now)).toMatchObject({ alertEffect: 'dismiss_open' });
    expect(changeStatus('cancelled', 'in_progress', now)).toEqual({
      outcome: 'updated',
      status: 'in_progress',
      alertEffect: 'restore_cancelled',
      completedAt: null,
      cancelledAt: null,
    });
    expect(changeStatus('cancelled', 'completed', now)).toMatchObject({
      alertEffect: 'restore_cancelled',
      completedAt: now,
    });
    // Reopen: completed -> in_progress, alerts untouched, completed_at cleared.
    expect(changeStatus('completed', 'in_progress', now)).toEqual({
      outcome: 'updated',
      status: 'in_progress',
      alertEffect: 'none',
      completedAt: null,
      cancelledAt: null,
    });
    expect(changeStatus('pending', 'completed', now)).toMatchObject({ alertEffect: 'none', completedAt: now });
  });

  it('lets alerts change only in open claims', () => {
    expect(alertChangesRefusal('pending')).toBeNull();
    expect(alertChangesRefusal('in_progress')).toBeNull();
    expect(alertChangesRefusal('completed')?.code).toBe('claim_completed');
    expect(alertChangesRefusal('cancelled')?.code).toBe('claim_cancelled');
  });

  it('admits pending alerts of its agreement and supplier, one claim at a time', () => {
    expect(admit(alert(), claim, false)).toEqual({ outcome: 'add' });
    expect(admit(alert({ status: 'claimed', claimId: 'claim-1', claimStatus: 'pending' }), claim, false)).toEqual({
      outcome: 'unchanged',
    });
    expect(admit(alert({ agreementId: 'agreement-2' }), claim, false)).toEqual({
      outcome: 'refused',
      reason: 'other_agreement',
    });
    expect(admit(alert({ supplierId: 'supplier-2' }), claim, false)).toEqual({
      outcome: 'refused',
      reason: 'other_supplier',
    });
    expect(admit(alert({ supplierId: 'supplier-2' }), { ...claim, supplierId: null }, false)).toEqual({
      outcome: 'add',
    });
    expect(admit(alert({ setAside: true }), claim, false)).toEqual({ outcome: 'refused', reason: 'set_aside' });
    expect(admit(alert({ status: 'dismissed' }), claim, false)).toEqual({ outcome: 'refused', reason: 'dismissed' });
    expect(admit(alert({ status: 'credited' }), claim, true)).toEqual({ outcome: 'refused', reason: 'credited' });
    // A dismissed alert left in a cancelled claim must be reopened first.
    expect(admit(alert({ status: 'dismissed', claimId: 'old', claimStatus: 'cancelled' }), claim, false)).toEqual({
      outcome: 'refused',
      reason: 'dismissed',
    });
  });

  it('moves claimed alerts from other open claims only when asked, never from a completed one', () => {
    const elsewhere = (claimStatus: 'pending' | 'in_progress' | 'completed') =>
      alert({ status: 'claimed', claimId: 'claim-2', claimStatus });
    expect(admit(elsewhere('pending'), claim, false)).toEqual({ outcome: 'refused', reason: 'in_other_claim' });
    expect(admit(elsewhere('in_progress'), claim, true)).toEqual({ outcome: 'move', fromClaimId: 'claim-2' });
    expect(admit(elsewhere('completed'), claim, true)).toEqual({ outcome: 'refused', reason: 'in_completed_claim' });
  });

  it('releases only alerts the claim holds', () => {
    expect(release({ claimId: 'claim-1', status: 'claimed' }, 'claim-1')).toBe('remove');
    expect(release({ claimId: 'claim-2', status: 'claimed' }, 'claim-1')).toBe('unchanged');
    expect(release({ claimId: null, status: 'pending' }, 'claim-1')).toBe('unchanged');
  });
});
