import { describe, expect, it } from 'vitest';
import {
  transition,
  TRANSITIONS,
  type AlertCommand,
  type AlertState,
  type AlertStatus,
} from '../../../src/alerts/state-machine.js';

const now = new Date('2026-05-01T10:00:00Z');
const state = (status: AlertStatus, extra: Partial<AlertState> = {}): AlertState => ({
  status,
  claimId: null,
  claimStatus: null,
  creditedBy: null,
  statusBeforeCredit: null,
  dismissalCategory: null,
  dismissalNote: null,
  ...extra,
});
// Applies changes as the service does, to follow a sequence of commands.
const apply = (
  from: AlertState,
  command: AlertCommand,
  input: { category?: string | null; note?: string | null } = {},
): AlertState => {
  const result = transition(command, from, { ...input, now });
  return result.outcome === 'updated' ? { ...from, ...result.changes } : from;
};

describe('alert state machine', () => {
  it('has a rule for every command from every status', () => {
    for (const command of Object.keys(TRANSITIONS) as AlertCommand[]) {
      expect(Object.keys(TRANSITIONS[command]).sort()).toEqual(['claimed', 'credited', 'dismissed', 'pending']);
    }
  });

  it('dismisses a pending alert with its reason', () => {
    expect(transition('dismiss', state('pending'), { category: 'agreed_exception', note: 'ok by phone', now })).toEqual(
      {
        outcome: 'updated',
        changes: {
          status: 'dismissed',
          dismissalCategory: 'agreed_exception',
          dismissalNote: 'ok by phone',
          dismissedAt: now,
        },
      },
    );
  });

  it('replaces the reason when dismissed again, and changes nothing with the same reason', () => {
    const dismissed = state('dismissed', { dismissalCategory: 'a', dismissalNote: 'n' });
    expect(transition('dismiss', dismissed, { category: 'a', note: 'n', now })).toEqual({ outcome: 'unchanged' });
    expect(transition('dismiss', dismissed, { category: 'b', now })).toEqual({
      outcome: 'updated',
      changes: { dismissalCategory: 'b', dismissalNote: null },
    });
  });

  it('credits a pending alert as the user, remembering the status before', () => {
    expect(transition('credit', state('pending'), { now })).toEqual({
      outcome: 'updated',
      changes: { status: 'credited', creditedBy: 'user', creditedAt: now, statusBeforeCredit: 'pending' },
    });
    expect(transition('credit', state('credited', { creditedBy: 'user' }), { now })).toEqual({ outcome: 'unchanged' });
  });

  it("uncredits only a user's credit, back to the status before, removing the credit", () => {
    const credited = state('credited', { creditedBy: 'user', statusBeforeCredit: 'pending' });
    expect(transition('uncredit', credited, { now })).toEqual({
      outcome: 'updated',
      changes: { status: 'pending', creditedBy: null, creditedAt: null, statusBeforeCredit: null },
    });
    expect(transition('uncredit', state('credited', { creditedBy: 'claim' }), { now })).toEqual({
      outcome: 'skipped',
      reason: 'credited_by_claim',
    });
    expect(transition('uncredit', state('pending'), { now })).toEqual({ outcome: 'unchanged' });
    expect(transition('uncredit', state('dismissed'), { now })).toEqual({ outcome: 'skipped', reason: 'not_credited' });
  });

  it('reopens dismissed (clearing the reason) and credited (keeping the credit) alerts', () => {
    expect(transition('reopen', state('dismissed', { dismissalCategory: 'a' }), { now })).toEqual({
      outcome: 'updated',
      changes: { status: 'pending', dismissalCategory: null, dismissalNote: null, dismissedAt: null },
    });
    expect(transition('reopen', state('credited', { creditedBy: 'user' }), { now })).toEqual({
      outcome: 'updated',
      changes: { status: 'pending' },
    });
    expect(transition('reopen', state('pending'), { now })).toEqual({ outcome: 'unchanged' });
  });

  it('skips what the table does not allow', () => {
    expect(transition('dismiss', state('credited'), { now })).toEqual({ outcome: 'skipped', reason: 'not_pending' });
    expect(transition('credit', state('dismissed'), { now })).toEqual({ outcome: 'skipped', reason: 'not_pending' });
    for (const command of ['dismiss', 'credit', 'uncredit', 'reopen'] as const) {
      expect(transition(command, state('claimed', { claimId: 'c' }), { now })).toEqual({
        outcome: 'skipped',
        reason: 'in_claim',
      });
      // An alert in a claim changes only through the claim, whatever its status.
      expect(transition(command, state('credited', { claimId: 'c', creditedBy: 'claim' }), { now })).toEqual({
        outcome: 'skipped',
        reason: 'in_claim',
      });
    }
  });

  it('refuses every change of an alert in a completed claim, and frees alerts of a cancelled one', () => {
    for (const command of ['dismiss', 'credit', 'uncredit', 'reopen'] as const) {
      expect(transition(command, state('claimed', { claimId: 'c', claimStatus: 'completed' }), { now })).toEqual({
        outcome: 'skipped',
        reason: 'claim_completed',
      });
      expect(transition(command, state('claimed', { claimId: 'c', claimStatus: 'in_progress' }), { now })).toEqual({
        outcome: 'skipped',
        reason: 'in_claim',
      });
    }
    // Dismissed by the cancellation: reopening takes it out of the cancelled claim.
    const cancelled = state('dismissed', {
      claimId: 'c',
      claimStatus: 'cancelled',
      dismissalCategory: 'claim_cancelled',
    });
    expect(transition('reopen', cancelled, { now })).toEqual({
      outcome: 'updated',
      changes: { status: 'pending', dismissalCategory: null, dismissalNote: null, dismissedAt: null, claimId: null },
    });
    // Another reason replaces the cancellation's; it stays in the claim's record.
    expect(transition('dismiss', cancelled, { category: 'duplicate', now })).toEqual({
      outcome: 'updated',
      changes: { dismissalCategory: 'duplicate', dismissalNote: null },
    });
  });

  it('changes nothing further on any repeated command', () => {
    const sequences: [AlertCommand, AlertStatus][] = [
      ['dismiss', 'pending'],
      ['credit', 'pending'],
      ['reopen', 'dismissed'],
      ['reopen', 'credited'],
    ];
    for (const [command, from] of sequences) {
      const once = apply(state(from, { creditedBy: from === 'credited' ? 'user' : null }), command);
      expect(transition(command, once, { now }), `${command} from ${from}`).toEqual({ outcome: 'unchanged' });
    }
    const uncredited = apply(apply(state('pending'), 'credit'), 'uncredit');
    expect(uncredited.status).toBe('pending');
    expect(transition('uncredit', uncredited, { now })).toEqual({ outcome: 'unchanged' });
  });
});
