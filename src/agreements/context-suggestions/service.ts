import { recordActivity, type Actor } from '../../activity/record.js';
import type { RequestActor } from '../../auth/actor.js';
import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../deps.js';
import type { Prisma } from '../../db/client.js';
import type { ContextSuggestion } from '../../generated/prisma/client.js';
import { errors } from '../../http/errors.js';
import { isSuppressed, parseDirectives } from './directives.js';
import { instructionPresent, proposeEdit, subjectOf, type DismissedAlert } from './proposal.js';
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

async function loadDismissedAlert(db: AppDeps['db'], organizationId: string, alertId: string) {
  const alert = await db.alert.findFirst({ where: { id: alertId, organizationId } });
  if (!alert || alert.status !== 'dismissed') return null;
  const line = alert.invoiceLineId
    ? await db.invoiceLine.findFirst({ where: { id: alert.invoiceLineId, organizationId } })
    : null;
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
  return { agreementId: alert.agreementId, view };
}

async function suggest(
  deps: Pick<AppDeps, 'db'>,
  input: { organizationId: string; alertId: string; category: string | null; note: string | null },
): Promise<void> {
  const alert = await loadDismissedAlert(deps.db, input.organizationId, input.alertId);
  if (!alert) return;
  const agreement = await deps.db.agreement.findFirst({
    where: { id: alert.agreementId, organizationId: input.organizationId },
    select: { instructions: true },
  });
  if (!agreement) return;
  const proposal = proposeEdit(alert.view, { category: input.category, note: input.note });
  // Nothing to suggest when the instructions already say it (or something broader does).
  if (instructionPresent(agreement.instructions, proposal.instruction)) return;
  const subject = subjectOf(alert.view);
  if (subject && isSuppressed(subject, parseDirectives(agreement.instructions))) return;
  // The unique (agreement, edit key) makes "suggested once, whatever was decided" hold under races.
  await deps.db.contextSuggestion.createMany({
    data: [
      {
        id: randomUUID(),
        organizationId: input.organizationId,
        agreementId: alert.agreementId,
        alertId: input.alertId,
        status: 'pending',
        ...proposal,
      },
    ],
    skipDuplicates: true,
  });
}

/**
 * Called after an alert's dismissal committed (when `suggest_instructions` is not false): suggests
 * the instruction edit that keeps the same alert from being raised again, unless that edit was
 * suggested before (pending, accepted or rejected) or the instructions already hold it. Best
 * effort: a failure is logged, never thrown, so it cannot undo or fail the dismissal.
 */
export async function suggestInstructionEdit(
  deps: Pick<AppDeps, 'db' | 'logger'>,
  input: { organizationId: string; alertId: string; category: string | null; note: string | null },
): Promise<void> {
  try {
    await suggest(deps, input);
  } catch (error) {
    deps.logger.warn({ err: error, alert_id: input.alertId }, 'could not suggest an instruction edit');
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
