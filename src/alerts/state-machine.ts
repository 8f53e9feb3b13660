// The alert state machine of the spec ("States and transitions > Alert") for the commands a user
// sends: dismiss, credit, uncredit, reopen. Pure: it says what a command does to one alert, and
// the service applies it. Claims move alerts to and from `claimed`; that is the claims' table
// (src/claims/state-machine.ts). Here: an alert in an open claim changes only through its claim;
// one in a completed claim not at all; one left in a cancelled claim is free, and leaves that
// claim when it becomes pending again.

export type AlertStatus = 'pending' | 'claimed' | 'credited' | 'dismissed';
export type AlertCommand = 'dismiss' | 'credit' | 'uncredit' | 'reopen';

// Why a command was not applied to an alert (the bulk response's skipped[].reason).
export type SkipReason = 'in_claim' | 'claim_completed' | 'not_pending' | 'not_credited' | 'credited_by_claim';
export type ClaimStatusOfAlert = 'pending' | 'in_progress' | 'completed' | 'cancelled';

export interface AlertState {
  status: AlertStatus;
  claimId: string | null;
  // The status of the claim holding the alert (null when none).
  claimStatus: ClaimStatusOfAlert | null;
  creditedBy: string | null;
  statusBeforeCredit: AlertStatus | null;
  dismissalCategory: string | null;
  dismissalNote: string | null;
}

export interface CommandInput {
  category?: string | null;
  note?: string | null;
  now: Date;
}

// Column changes, named as the Prisma model's fields.
export interface AlertChanges {
  status?: AlertStatus;
  dismissalCategory?: string | null;
  dismissalNote?: string | null;
  dismissedAt?: Date | null;
  creditedBy?: string | null;
  creditedAt?: Date | null;
  statusBeforeCredit?: AlertStatus | null;
  claimId?: null;
}

export type Transition =
  { outcome: 'updated'; changes: AlertChanges } | { outcome: 'unchanged' } | { outcome: 'skipped'; reason: SkipReason };

type Rule = (state: AlertState, input: CommandInput) => Transition;

const unchanged: Rule = () => ({ outcome: 'unchanged' });
const skip =
  (reason: SkipReason): Rule =>
  () => ({ outcome: 'skipped', reason });
const update = (changes: AlertChanges): Transition => ({ outcome: 'updated', changes });

const dismissal = (input: CommandInput) => ({
  dismissalCategory: input.category ?? null,
  dismissalNote: input.note ?? null,
});

// One row per (command, from-status). A repeat (the alert already holds the command's result)
// is `unchanged`; a status the command does not start from is `skipped`.
export const TRANSITIONS: Record<AlertCommand, Record<AlertStatus, Rule>> = {
  dismiss: {
    pending: (_, input) => update({ status: 'dismissed', ...dismissal(input), dismissedAt: input.now }),
    // Dismissing again replaces the reason; the same reason again changes nothing.
    dismissed: (state, input) => {
      const reason = dismissal(input);
      const same = state.dismissalCategory === reason.dismissalCategory && state.dismissalNote === reason.dismissalNote;
      return same ? { outcome: 'unchanged' } : update(reason);
    },
    credited: skip('not_pending'),
    claimed: skip('in_claim'),
  },
  credit: {
    pending: (_, input) =>
      update({ status: 'credited', creditedBy: 'user', creditedAt: input.now, statusBeforeCredit: 'pending' }),
    credited: unchanged,
    dismissed: skip('not_pending'),
    claimed: skip('in_claim'),
  },
  uncredit: {
    // Only a user's credit can be undone; a claim's credit belongs to the claim.
    credited: (state) =>
      state.creditedBy === 'user'
        ? update({
            status: state.statusBeforeCredit ?? 'pending',
            creditedBy: null,
            creditedAt: null,
            statusBeforeCredit: null,
          })
        : { outcome: 'skipped', reason: 'credited_by_claim' },
    // Uncredit leads back to pending: pending again is the repeat.
    pending: unchanged,
    dismissed: skip('not_credited'),
    claimed: skip('in_claim'),
  },
  reopen: {
    dismissed: () => update({ status: 'pending', dismissalCategory: null, dismissalNote: null, dismissedAt: null }),
    // "credit is kept": the credit record stays for the history; only the status changes.
    credited: () => update({ status: 'pending' }),
    pending: unchanged,
    claimed: skip('in_claim'),
  },
};

// Why an alert's claim stops a change: a completed claim's alerts cannot change at all; an open
// claim's change only through the claim (moved out, cancelled, deleted). A cancelled claim holds
// nothing back.
export function claimHold(state: Pick<AlertState, 'claimId' | 'claimStatus'>): 'claim_completed' | 'in_claim' | null {
  if (state.claimId === null || state.claimStatus === 'cancelled') return null;
  return state.claimStatus === 'completed' ? 'claim_completed' : 'in_claim';
}

export function transition(command: AlertCommand, state: AlertState, input: CommandInput): Transition {
  const hold = claimHold(state);
  if (hold) return { outcome: 'skipped', reason: hold };
  const result = TRANSITIONS[command][state.status](state, input);
  // Back to pending, an alert of a cancelled claim leaves it: it may be claimed anew.
  if (result.outcome === 'updated' && result.changes.status === 'pending' && state.claimId !== null) {
    return { outcome: 'updated', changes: { ...result.changes, claimId: null } };
  }
  return result;
}
