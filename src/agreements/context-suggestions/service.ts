import { recordActivity, type Actor } from '../../activity/record.js';
import type { RequestActor } from '../../auth/actor.js';
import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../deps.js';
import type { Prisma } from '../../db/client.js';
import type { ContextSuggestion } from '../../generated/prisma/client.js';
import { errors } from '../../http/errors.js';
import { isSuppressed, parseDirectives } from './directives.js';
import {
  instructionPresent,
  proposeEdit,
  subjectOf,
  type DismissedAlert,
  type Dismissal,
  type Proposal,
} from './proposal.js';
import { markAgreementTermsChanged } from '../terms-state.js';

export const SUGGESTION_STATUSES = ['pending', 'accepted', 'rejected'] as const;
export type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];

// The agreement's instructions are limited to this length everywhere (see agreements/schemas.ts).
const MAX_INSTRUCTIONS_CHARS = 20_000;

export function serializeSuggestion(suggestion: ContextSuggestion) {
  return {
    id: suggestion.id,
    agreement_id: suggestion.agreementId,
    alert_id: suggestion.alertId,
    status: suggestion.status as SuggestionStatus,
    instruction: suggestion.instruction,
    reason: suggestion.reason,
    created_at: suggestion.createdAt.toISOString(),
    decided_at: suggestion.decidedAt?.toISOString() ?? null,
  };
}

type Agreement = { id: string; instructions: string | null };
type LoadedAlert = { id: string; agreementId: string; view: DismissedAlert };

// One read per table for the whole set: the dismissed alerts, their lines, their agreements.
async function loadDismissedAlerts(
  db: AppDeps['db'],
  organizationId: string,
  alertIds: string[],
): Promise<{ alerts: LoadedAlert[]; agreements: Map<string, Agreement> }> {
  const rows = await db.alert.findMany({ where: { id: { in: alertIds }, organizationId, status: 'dismissed' } });
  const lineIds = rows.flatMap((alert) => (alert.invoiceLineId ? [alert.invoiceLineId] : []));
  const agreementIds = [...new Set(rows.map((alert) => alert.agreementId))];
  const [lines, agreements] = await Promise.all([
    lineIds.length
      ? db.invoiceLine.findMany({
          where: { id: { in: lineIds }, organizationId },
          select: { id: true, sellerItemId: true, description: true, unitPrice: true },
        })
      : [],
    agreementIds.length
      ? db.agreement.findMany({
          where: { id: { in: agreementIds }, organizationId },
          select: { id: true, instructions: true },
        })
      : [],
  ]);
  const lineById = new Map(lines.map((line) => [line.id, line]));
  const rowById = new Map(rows.map((alert) => [alert.id, alert]));
  // In the order given: of two alerts suggesting the same edit, the first is the one recorded.
  const alerts = alertIds.flatMap((id) => {
    const alert = rowById.get(id);
    if (!alert) return [];
    const line = alert.invoiceLineId ? lineById.get(alert.invoiceLineId) : undefined;
    const view: DismissedAlert = {
      checker: alert.checker,
      fingerprint: alert.fingerprint,
      title: alert.title,
      currencyCode: alert.currencyCode,
      line: line
        ? {
            sellerItemId: line.sellerItemId,
            description: line.description,
            unitPrice: line.unitPrice?.toString() ?? null,
          }
        : null,
    };
    return [{ id, agreementId: alert.agreementId, view }];
  });
  return { alerts, agreements: new Map(agreements.map((agreement) => [agreement.id, agreement])) };
}

// The edit one dismissed alert suggests, or null when its agreement already says it.
function suggestionFor(alert: LoadedAlert, agreement: Agreement, dismissal: Dismissal) {
  const proposal = proposeEdit(alert.view, dismissal);
  // Nothing to suggest when the instructions already say it (or something broader does).
  if (instructionPresent(agreement.instructions, proposal.instruction)) return null;
  const subject = subjectOf(alert.view);
  if (subject && isSuppressed(subject, parseDirectives(agreement.instructions))) return null;
  return proposal;
}

async function suggest(
  deps: Pick<AppDeps, 'db' | 'logger'>,
  input: { organizationId: string; alertIds: string[] } & Dismissal,
): Promise<void> {
  const { alerts, agreements } = await loadDismissedAlerts(deps.db, input.organizationId, input.alertIds);
  const dismissal = { category: input.category, note: input.note };
  const seen = new Set<string>();
  const data: Prisma.ContextSuggestionCreateManyInput[] = [];
  const now = Date.now();
  for (const alert of alerts) {
    const agreement = agreements.get(alert.agreementId);
    if (!agreement) continue;
    let proposal: Proposal | null;
    try {
      proposal = suggestionFor(alert, agreement, dismissal);
    } catch (error) {
      deps.logger.warn({ err: error, alert_id: alert.id }, 'could not suggest an instruction edit');
      continue;
    }
    const key = `${alert.agreementId} ${proposal?.editKey}`;
    if (!proposal || seen.has(key)) continue;
    seen.add(key);
    data.push({
      id: randomUUID(),
      organizationId: input.organizationId,
      agreementId: alert.agreementId,
      alertId: alert.id,
      status: 'pending',
      // A millisecond apart in dismissal order, so the list (newest first) reads as when the
      // suggestions were made one alert at a time.
      createdAt: new Date(now + data.length),
      ...proposal,
    });
  }
  if (data.length === 0) return;
  // The unique (agreement, edit key) makes "suggested once, whatever was decided" hold under races.
  await deps.db.contextSuggestion.createMany({ data, skipDuplicates: true });
}

/**
 * Called after alerts' dismissal committed (when `suggest_instructions` is not false): suggests,
 * for each dismissed alert, the instruction edit that keeps the same alert from being raised again,
 * unless that edit was suggested before (pending, accepted or rejected) or the instructions already
 * hold it. The whole set in a few statements, whatever its size. Best effort: a failure is logged,
 * never thrown, so it cannot undo or fail the dismissal.
 */
export async function suggestInstructionEdits(
  deps: Pick<AppDeps, 'db' | 'logger'>,
  input: { organizationId: string; alertIds: string[] } & Dismissal,
): Promise<void> {
  if (input.alertIds.length === 0) return;
  try {
    await suggest(deps, input);
  } catch (error) {
    deps.logger.warn({ err: error, alert_ids: input.alertIds }, 'could not suggest instruction edits');
  }
}

export async function findSuggestion(
  deps: Pick<AppDeps, 'db'>,
  organizationId: string,
  agreementId: string,
  suggestionId: string,
): Promise<ContextSuggestion> {
  const suggestion = await deps.db.contextSuggestion.findFirst({
    where: { id: suggestionId, agreementId, organizationId },
  });
  if (!suggestion) throw errors.notFound('context suggestion');
  return suggestion;
}

function appended(instructions: string | null, line: string): string {
  const current = (instructions ?? '').trimEnd();
  return current ? `${current}\n${line}` : line;
}

// Appends the line under a row lock on the agreement, so two accepts at once cannot lose a line.
async function appendInstruction(
  tx: Prisma.TransactionClient,
  actor: RequestActor | Actor,
  agreementId: string,
  line: string,
): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM agreements WHERE id = ${agreementId}::uuid FOR UPDATE`;
  const agreement = await tx.agreement.findUniqueOrThrow({
    where: { id: agreementId },
    select: { instructions: true, organizationId: true },
  });
  if (instructionPresent(agreement.instructions, line)) return;
  const instructions = appended(agreement.instructions, line);
  if (instructions.length > MAX_INSTRUCTIONS_CHARS) {
    throw errors.conflict(
      'instructions_too_long',
      `The instructions would exceed ${MAX_INSTRUCTIONS_CHARS} characters; shorten them before accepting.`,
    );
  }
  // New terms: checks made before are outdated and the next check reads the directive.
  await tx.agreement.update({ where: { id: agreementId }, data: { instructions } });
  await markAgreementTermsChanged(tx, agreementId);
  await recordActivity(tx, agreement.organizationId, actor, [
    {
      entityType: 'agreement',
      entityId: agreementId,
      action: 'instructions_suggestion_accepted',
      changes: { instructions: { before: agreement.instructions, after: instructions } },
    },
  ]);
}

function alreadyDecided(wanted: 'accepted' | 'rejected') {
  if (wanted === 'accepted') {
    return errors.conflict(
      'suggestion_rejected',
      'This suggestion was rejected; a rejected suggestion cannot be accepted. Edit the instructions instead.',
    );
  }
  return errors.conflict(
    'suggestion_accepted',
    'This suggestion was accepted and its line is in the instructions; edit the instructions to remove it.',
  );
}

async function decide(
  deps: Pick<AppDeps, 'db'>,
  actor: RequestActor | Actor,
  suggestion: ContextSuggestion,
  wanted: 'accepted' | 'rejected',
): Promise<ContextSuggestion> {
  if (suggestion.status === wanted) return suggestion;
  if (suggestion.status !== 'pending') throw alreadyDecided(wanted);
  return deps.db.$transaction(async (tx) => {
    if (wanted === 'accepted') await appendInstruction(tx, actor, suggestion.agreementId, suggestion.instruction);
    const changed = await tx.contextSuggestion.updateMany({
      where: { id: suggestion.id, status: 'pending' },
      data: { status: wanted, decidedAt: new Date() },
    });
    const current = await tx.contextSuggestion.findUniqueOrThrow({ where: { id: suggestion.id } });
    // Decided by a concurrent request: the same decision is a repeat, the other one a conflict
    // (and rolls back the line appended above).
    if (changed.count === 0 && current.status !== wanted) throw alreadyDecided(wanted);
    return current;
  });
}

export function acceptSuggestion(
  deps: Pick<AppDeps, 'db'>,
  actor: RequestActor | Actor,
  suggestion: ContextSuggestion,
): Promise<ContextSuggestion> {
  return decide(deps, actor, suggestion, 'accepted');
}

export function rejectSuggestion(
  deps: Pick<AppDeps, 'db'>,
  actor: RequestActor | Actor,
  suggestion: ContextSuggestion,
): Promise<ContextSuggestion> {
  return decide(deps, actor, suggestion, 'rejected');
}
