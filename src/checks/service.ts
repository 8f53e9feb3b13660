import type { RequestActor } from '../auth/actor.js';
import type { AppDeps } from '../deps.js';
import type { ComplianceCheck } from '../generated/prisma/client.js';
import { startRun } from '../runs/service.js';
import { deterministicUuid } from '../shared/ids.js';
import type { CheckPair } from './eligibility.js';

// Starting check runs. A run checks at most MAX_CHECKS_PER_RUN pairs; callers that select more
// answer `has_more` so the client asks again for the rest.
export const MAX_CHECKS_PER_RUN = 1000;

export interface CheckRunOwner {
  type: 'invoice' | 'agreement';
  id: string;
}

export async function startCheckRun(
  deps: AppDeps,
  actor: RequestActor,
  owner: CheckRunOwner,
  pairs: CheckPair[],
  runKey: string | null,
): Promise<string> {
  const run = await startRun(deps, {
    organizationId: actor.organizationId,
    type: 'check',
    owner,
    input: { pairs },
    runId: runKey ? deterministicUuid(`check:${actor.organizationId}:${runKey}`) : undefined,
    createdByUserId: actor.userId,
  });
  return run.id;
}

export function serializeCheck(
  check: ComplianceCheck & { invoice: { contentChangedAt: Date }; agreement: { termsChangedAt: Date } },
) {
  const outdated =
    check.status === 'completed' &&
    (check.invoiceVersionAt < check.invoice.contentChangedAt ||
      check.agreementVersionAt < check.agreement.termsChangedAt);
  return {
    id: check.id,
    invoice_id: check.invoiceId,
    agreement_id: check.agreementId,
    workflow_run_id: check.workflowRunId,
    status: check.status,
    outdated,
    findings_count: check.findingsCount,
    failure: (check.failure as { code: string; message: string } | null) ?? null,
    invoice_version_at: check.invoiceVersionAt.toISOString(),
    agreement_version_at: check.agreementVersionAt.toISOString(),
    started_at: check.startedAt.toISOString(),
    completed_at: check.completedAt?.toISOString() ?? null,
  };
}
