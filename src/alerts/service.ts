import { randomUUID } from 'node:crypto';
import {
  changedFields,
  NothingChanged,
  orUnchanged,
  recordActivity,
  type ActivityEntryInput,
  type Actor,
} from '../activity/record.js';
import type { MemberActor, RequestActor } from '../auth/actor.js';
import { suggestInstructionEdits } from '../agreements/context-suggestions/service.js';
import type { AppDeps } from '../deps.js';
import { Prisma } from '../db/client.js';
import type { InvoiceLine } from '../generated/prisma/client.js';
import { ApiError, errors, type FieldIssue } from '../http/errors.js';
import { alertWhereOf } from './filters.js';
import { lineImpact, type ExpectedPrice } from './impact.js';
import { MAX_BULK_ALERTS, type BulkSelection, type CreateAlertInput, type PatchAlertInput } from './schemas.js';
import { ALERT_INCLUDE, serializeAlert, type AlertWithMatch } from './serialize.js';
import {
  claimHold,
  transition,
  type AlertChanges,
  type AlertCommand,
  type ClaimStatusOfAlert,
} from './state-machine.js';

type Deps = Pick<AppDeps, 'db'>;
type Tx = Prisma.TransactionClient;
// Who a change is recorded as done by (docs/audit.md).
type ActingAs = RequestActor | Actor;

// The money-relevant fields of an alert as the API shows them: what its activity entries compare.
const AUDITED_FIELDS = [
  'status',
  'title',
  'explanation',
  'impact_amount',
  'currency_code',
  'expected',
  'confidence',
  'citations',
  'invoice_item_id',
  'correction_type',
  'topic_id',
  'claim_id',
  'dismissal',
  'credit',
] as const;

export function alertActivity(
  action: string,
  before: AlertWithMatch | null,
  after: AlertWithMatch | null,
): ActivityEntryInput {
  const view = (alert: AlertWithMatch | null) => (alert ? (serializeAlert(alert) as Record<string, unknown>) : {});
  return {
    entityType: 'alert',
    entityId: (after ?? before)!.id,
    action,
    changes: changedFields(view(before), view(after), AUDITED_FIELDS),
  };
}

export async function findAlert(deps: Deps, organizationId: string, id: string): Promise<AlertWithMatch> {
  const alert = await deps.db.alert.findFirst({ where: { id, organizationId }, include: ALERT_INCLUDE });
  if (!alert) throw errors.notFound('alert');
  return alert;
}

function invalid(field: string, message: string) {
  return errors.validation(`${field} ${message}.`, [{ field, message }]);
}

// A topic of the alert's agreement (topics group alerts per agreement).
export async function assertTopicOfAgreement(
  deps: Deps,
  organizationId: string,
  topicId: string,
  agreementId: string,
  field = 'topic_id',
) {
  const topic = await deps.db.alertTopic.findFirst({
    where: { id: topicId, organizationId },
    select: { agreementId: true },
  });
  if (!topic) throw invalid(field, 'names no alert topic');
  if (topic.agreementId !== agreementId) throw invalid(field, 'names a topic of another agreement');
}

async function lineOfInvoice(deps: Deps, invoiceId: string, lineId: string): Promise<InvoiceLine> {
  const line = await deps.db.invoiceLine.findFirst({ where: { id: lineId, invoiceId } });
  if (!line) throw invalid('invoice_item_id', 'is not a line of the invoice');
  return line;
}

// The impact of an alert: as sent, else calculated from `expected` for a line alert.
function impactOf(
  sent: string | undefined,
  line: InvoiceLine | null,
  expected: ExpectedPrice[] | null | undefined,
  currency: string | null,
): string {
  if (sent !== undefined) return sent;
  if (!line) throw invalid('impact_amount', 'is required for an alert on the whole invoice (no invoice_item_id)');
  if (!expected) throw invalid('impact_amount', 'is required unless expected prices are sent');
  const result = lineImpact(line, expected, currency);
  if (!result.ok) throw invalid('impact_amount', `cannot be calculated (${result.reason}); send it`);
  return result.amount;
}

async function matchedPair(deps: Deps, organizationId: string, invoiceId: string, agreementId: string) {
  const [invoice, agreement] = await Promise.all([
    deps.db.invoice.findFirst({
      where: { id: invoiceId, organizationId, deletedAt: null },
      select: { id: true, currencyCode: true },
    }),
    deps.db.agreement.findFirst({ where: { id: agreementId, organizationId }, select: { id: true } }),
  ]);
  const issues: FieldIssue[] = [];
  if (!invoice) issues.push({ field: 'invoice_id', message: 'names no invoice' });
  if (!agreement) issues.push({ field: 'agreement_id', message: 'names no agreement' });
  if (issues.length > 0) throw errors.validation('The alert names records that do not exist.', issues);
  const match = await deps.db.invoiceAgreementMatch.findUnique({
    where: { invoiceId_agreementId: { invoiceId, agreementId } },
  });
  if (!match?.active) throw invalid('invoice_id', 'is not matched to the agreement');
  return invoice!;
}

export async function createAlert(deps: Deps, actor: MemberActor, input: CreateAlertInput): Promise<AlertWithMatch> {
  const organizationId = actor.organizationId;
  const invoice = await matchedPair(deps, organizationId, input.invoice_id, input.agreement_id);
  const line = input.invoice_item_id ? await lineOfInvoice(deps, invoice.id, input.invoice_item_id) : null;
  if (input.topic_id) await assertTopicOfAgreement(deps, organizationId, input.topic_id, input.agreement_id);
  const impact = impactOf(input.impact_amount, line, input.expected, invoice.currencyCode);
  return deps.db.$transaction(async (tx) => {
    const alert = await tx.alert.create({
      data: {
        id: randomUUID(),
        organizationId,
        invoiceId: invoice.id,
        agreementId: input.agreement_id,
        title: input.title,
        explanation: input.explanation,
        impactAmount: new Prisma.Decimal(impact),
        currencyCode: invoice.currencyCode,
        expected: input.expected ? (input.expected as Prisma.InputJsonValue) : Prisma.DbNull,
        confidenceLevel: input.confidence.level,
        citations: input.citations as Prisma.InputJsonValue,
        invoiceLineId: line?.id ?? null,
        correctionType: input.correction_type,
        topicId: input.topic_id ?? null,
        // API keys belong to users: the alert records both; a session is the user themself.
        origin: actor.apiKeyId ? 'api_key' : 'user',
        createdByUserId: actor.userId,
        createdByApiKeyId: actor.apiKeyId,
      },
      include: ALERT_INCLUDE,
    });
    await recordActivity(tx, organizationId, actor, [alertActivity('created', null, alert)]);
    return alert;
  });
}

// Only the sent fields change; nothing is re-checked.
export async function patchAlert(
  deps: Deps,
  actor: ActingAs,
  alert: AlertWithMatch,
  input: PatchAlertInput,
): Promise<AlertWithMatch> {
  assertNotInCompletedClaim(alert);
  const data: Prisma.AlertUncheckedUpdateInput = {};
  const lineId = input.invoice_item_id === undefined ? alert.invoiceLineId : input.invoice_item_id;
  const line =
    lineId && (input.invoice_item_id !== undefined || input.expected)
      ? await lineOfInvoice(deps, alert.invoiceId, lineId)
      : null;
  if (input.topic_id) await assertTopicOfAgreement(deps, alert.organizationId, input.topic_id, alert.agreementId);
  if (input.title !== undefined) data.title = input.title;
  if (input.explanation !== undefined) data.explanation = input.explanation;
  if (input.confidence !== undefined) data.confidenceLevel = input.confidence.level;
  if (input.citations !== undefined) data.citations = input.citations as Prisma.InputJsonValue;
  if (input.correction_type !== undefined) data.correctionType = input.correction_type;
  if (input.topic_id !== undefined) data.topicId = input.topic_id;
  if (input.invoice_item_id !== undefined) data.invoiceLineId = input.invoice_item_id;
  if (input.expected !== undefined) data.expected = input.expected ? input.expected : Prisma.DbNull;
  if (input.impact_amount !== undefined) data.impactAmount = new Prisma.Decimal(input.impact_amount);
  else if (input.expected && line) {
    // New expected prices on a line alert recalculate the impact, as on creation.
    data.impactAmount = new Prisma.Decimal(
      impactOf(undefined, line, input.expected, alert.currencyCode ?? alert.match.invoice.currencyCode),
    );
  }
  const patched = deps.db.$transaction(async (tx) => {
    const updated = await tx.alert.update({ where: { id: alert.id }, data, include: ALERT_INCLUDE });
    const entry = alertActivity('updated', alert, updated);
    // A patch that changes nothing (the alert sent back as read) is undone: no entry, same updated_at.
    if (Object.keys(entry.changes!).length === 0) throw new NothingChanged();
    await recordActivity(tx, alert.organizationId, actor, [entry]);
    return updated;
  });
  return orUnchanged(patched, () => alert);
}

const claimStateOf = (alert: { claimId: string | null; claim: { status: ClaimStatusOfAlert } | null }) => ({
  claimId: alert.claimId,
  claimStatus: alert.claim?.status ?? null,
});

// Alerts in a completed claim cannot be changed or deleted (spec, Alert transitions): 409.
export function assertNotInCompletedClaim(alert: {
  claimId: string | null;
  claim: { status: ClaimStatusOfAlert } | null;
}): void {
  if (claimHold(claimStateOf(alert)) === 'claim_completed') {
    throw errors.conflict(
      'alert_in_completed_claim',
      'The alert is in a completed claim and cannot change; reopen the claim (status in_progress) first.',
      { claim_id: alert.claimId },
    );
  }
}

// Named alerts in a completed claim make the whole command 409 (nothing changes), as unknown
// ids make it 400; a filter's are skipped with reason claim_completed.
function rejectCompletedClaims(alerts: AlertWithMatch[]): void {
  const held = alerts.filter((alert) => claimHold(claimStateOf(alert)) === 'claim_completed');
  if (held.length === 0) return;
  throw new ApiError(
    409,
    'alert_in_completed_claim',
    'Some alerts are in a completed claim and cannot change; nothing was changed.',
    {
      details: held.map((alert) => ({
        field: 'alert_ids',
        alert_id: alert.id,
        claim_id: alert.claimId,
        message: 'in a completed claim',
      })),
    },
  );
}

// Unlocked topics left without any alert by a deletion go with it (a topic emptied by moving
// alerts out is not touched: only deletions call this).
export async function removeEmptiedTopics(
  tx: Tx,
  organizationId: string,
  actor: ActingAs,
  topicIds: (string | null)[],
): Promise<void> {
  const ids = [...new Set(topicIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return;
  const removed = await tx.$queryRaw<{ id: string; title: string; description: string | null }[]>`
    DELETE FROM alert_topics t
    WHERE t.id = ANY(${ids}::uuid[]) AND NOT t.is_locked AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a.topic_id = t.id)
    RETURNING t.id, t.title, t.description`;
  await recordActivity(
    tx,
    organizationId,
    actor,
    removed.map((topic) => ({
      entityType: 'topic' as const,
      entityId: topic.id,
      action: 'deleted',
      changes: changedFields({ title: topic.title, description: topic.description }, {}, ['title', 'description']),
    })),
  );
}

export async function deleteAlert(deps: Deps, actor: ActingAs, alert: AlertWithMatch): Promise<void> {
  assertNotInCompletedClaim(alert);
  if (claimHold(claimStateOf(alert)))
    throw errors.conflict('alert_in_claim', 'The alert is in a claim; remove it from the claim first.', {
      claim_id: alert.claimId,
    });
  await deps.db.$transaction(async (tx) => {
    // Not taken into a claim meanwhile (an alert left in a cancelled claim may go).
    const { count } = await tx.alert.deleteMany({
      where: { id: alert.id, OR: [{ claimId: null }, { claim: { status: 'cancelled' } }] },
    });
    if (count > 0) await recordActivity(tx, alert.organizationId, actor, [alertActivity('deleted', alert, null)]);
    await removeEmptiedTopics(tx, alert.organizationId, actor, [alert.topicId]);
  });
}

// ---- Bulk commands ----

export interface BulkResult {
  updated: string[];
  unchanged: string[];
  skipped: { id: string; reason: string }[];
}

interface Selected {
  ids: string[];
  // Ids sent that name no alert of the organization.
  missing: string[];
}

async function select(deps: Deps, organizationId: string, selection: BulkSelection): Promise<Selected> {
  if (selection.alert_ids) {
    const ids = [...new Set(selection.alert_ids)];
    const found = await deps.db.alert.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true } });
    const known = new Set(found.map((a) => a.id));
    return { ids: ids.filter((id) => known.has(id)), missing: ids.filter((id) => !known.has(id)) };
  }
  const rows = await deps.db.alert.findMany({
    where: await alertWhereOf(deps.db, organizationId, selection.filter!),
    select: { id: true },
    orderBy: { id: 'asc' },
    take: MAX_BULK_ALERTS + 1,
  });
  if (rows.length > MAX_BULK_ALERTS) throw invalid('filter', `matches more than ${MAX_BULK_ALERTS} alerts; narrow it`);
  return { ids: rows.map((r) => r.id), missing: [] };
}

function rejectMissing(missing: string[]): void {
  if (missing.length === 0) return;
  throw errors.validation(
    'Some alert_ids name no alert; nothing was changed.',
    missing.map((id) => ({ field: 'alert_ids', message: `no alert ${id}` })),
  );
}

// Locks the rows for the rest of the transaction, so concurrent commands apply one after the other.
async function lockedAlerts(tx: Tx, ids: string[]) {
  if (ids.length === 0) return [];
  await tx.$queryRaw`SELECT id FROM alerts WHERE id = ANY(${ids}::uuid[]) ORDER BY id FOR UPDATE`;
  return tx.alert.findMany({ where: { id: { in: ids } }, include: ALERT_INCLUDE, orderBy: { id: 'asc' } });
}

const COMMAND_ACTIONS: Record<AlertCommand, string> = {
  dismiss: 'dismissed',
  credit: 'credited',
  uncredit: 'uncredited',
  reopen: 'reopened',
};

const isSetAside = (alert: AlertWithMatch) => !alert.match.active || alert.match.invoice.deletedAt !== null;

// Applies one command to every selected alert in one transaction, following the transition table.
export async function runCommand(
  deps: Deps,
  actor: ActingAs,
  organizationId: string,
  command: AlertCommand,
  selection: BulkSelection,
  input: { category?: string | null; note?: string | null } = {},
): Promise<BulkResult> {
  const { ids, missing } = await select(deps, organizationId, selection);
  rejectMissing(missing);
  const now = new Date();
  return deps.db.$transaction(async (tx) => {
    const result: BulkResult = { updated: [], unchanged: [], skipped: [] };
    const batches = new Map<string, { changes: AlertChanges; ids: string[] }>();
    const activity: ActivityEntryInput[] = [];
    const alerts = await lockedAlerts(tx, ids);
    if (selection.alert_ids) rejectCompletedClaims(alerts);
    for (const alert of alerts) {
      if (isSetAside(alert)) {
        result.skipped.push({ id: alert.id, reason: 'set_aside' });
        continue;
      }
      const state = {
        ...alert,
        ...claimStateOf(alert),
        status: alert.status,
        statusBeforeCredit: alert.statusBeforeCredit,
      };
      const outcome = transition(command, state, { ...input, now });
      if (outcome.outcome === 'unchanged') result.unchanged.push(alert.id);
      else if (outcome.outcome === 'skipped') result.skipped.push({ id: alert.id, reason: outcome.reason });
      else {
        // Alerts with the same changes go in one statement.
        const key = JSON.stringify(outcome.changes);
        const batch = batches.get(key) ?? { changes: outcome.changes, ids: [] };
        batch.ids.push(alert.id);
        batches.set(key, batch);
        result.updated.push(alert.id);
        activity.push(alertActivity(COMMAND_ACTIONS[command], alert, { ...alert, ...outcome.changes }));
      }
    }
    for (const batch of batches.values())
      await tx.alert.updateMany({ where: { id: { in: batch.ids } }, data: batch.changes });
    await recordActivity(tx, organizationId, actor, activity);
    return result;
  });
}

export interface BulkDeleteResult {
  deleted: string[];
  unchanged: string[];
  skipped: { id: string; reason: string }[];
}

export async function bulkDelete(
  deps: Deps,
  actor: ActingAs,
  organizationId: string,
  selection: BulkSelection,
): Promise<BulkDeleteResult> {
  const { ids, missing } = await select(deps, organizationId, selection);
  return deps.db.$transaction(async (tx) => {
    // Removing what is already gone changes nothing (spec "Conditional repeat").
    const result: BulkDeleteResult = { deleted: [], unchanged: [...missing], skipped: [] };
    const alerts = await lockedAlerts(tx, ids);
    if (selection.alert_ids) rejectCompletedClaims(alerts);
    const gone = ids.filter((id) => !alerts.some((a) => a.id === id));
    result.unchanged.push(...gone);
    const deletable = alerts.filter((alert) => {
      const hold = claimHold(claimStateOf(alert));
      if (hold) result.skipped.push({ id: alert.id, reason: hold });
      else if (isSetAside(alert)) result.skipped.push({ id: alert.id, reason: 'set_aside' });
      else return true;
      return false;
    });
    await tx.alert.deleteMany({ where: { id: { in: deletable.map((a) => a.id) } } });
    await recordActivity(
      tx,
      organizationId,
      actor,
      deletable.map((alert) => alertActivity('deleted', alert, null)),
    );
    await removeEmptiedTopics(
      tx,
      organizationId,
      actor,
      deletable.map((a) => a.topicId),
    );
    result.deleted = deletable.map((a) => a.id);
    return result;
  });
}

// After a dismissal commits: each newly dismissed alert may yield a suggested instruction edit.
// Best effort: a failure is logged and never fails (or undoes) the dismissal.
export async function suggestAfterDismissal(
  deps: Pick<AppDeps, 'db' | 'logger'>,
  organizationId: string,
  alertIds: string[],
  reason: { category: string | null; note: string | null },
): Promise<void> {
  await suggestInstructionEdits(deps, { organizationId, alertIds, ...reason });
}
