import { changedFields, type ActivityEntryInput } from '../activity/record.js';
import type { ClaimRecord } from './serialize.js';

// A claim's activity entries (docs/activity.md).

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
export interface AlertMove {
  id: string;
  statusBefore: string;
  statusAfter: string;
  claimBefore: string | null;
  claimAfter: string | null;
}
export function alertMoveEntries(
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
