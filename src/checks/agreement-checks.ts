import { withLinks } from '../agreements/service.js';
import type { RequestActor } from '../auth/actor.js';
import type { AppDeps } from '../deps.js';
import { errors } from '../http/errors.js';
import { candidatePairs } from './candidates.js';
import { MAX_CHECKS_PER_RUN, startCheckRun } from './service.js';

// Checks started for agreements: one agreement's matched invoices, or every active agreement's.

export async function assertTopicOfAgreement(
  deps: AppDeps,
  organizationId: string,
  agreementId: string,
  topicId: string | undefined,
) {
  if (!topicId) return;
  const topic = await deps.db.alertTopic.findFirst({ where: { id: topicId, organizationId, agreementId } });
  if (!topic)
    throw errors.validation('The topic is not a topic of this agreement.', [
      { field: 'topic_id', message: `no topic ${topicId} on this agreement` },
    ]);
}

// One agreement's outstanding (or, with include_checked, all) matched invoices as one run.
export async function checkAgreement(
  deps: AppDeps,
  actor: RequestActor,
  agreementId: string,
  options: { topicId?: string; includeChecked: boolean },
  runKey: string | null,
) {
  const page = await candidatePairs(
    deps.db,
    actor.organizationId,
    { agreementIds: [agreementId], mode: options.includeChecked ? 'again' : 'outstanding', topicId: options.topicId },
    MAX_CHECKS_PER_RUN,
  );
  if (page.eligible.length === 0) return { workflowRunId: null, page };
  const workflowRunId = await startCheckRun(deps, actor, { type: 'agreement', id: agreementId }, page.eligible, runKey);
  return { workflowRunId, page };
}

// The organization's active agreements to check (all, or those named), with their links. A named
// agreement that does not exist in the organization is refused; one that is not active is skipped.
export async function activeAgreementsToCheck(deps: AppDeps, organizationId: string, agreementIds?: string[]) {
  const agreements = await withLinks(
    deps.db,
    await deps.db.agreement.findMany({
      where: {
        organizationId,
        status: 'active',
        ...(agreementIds ? { id: { in: agreementIds } } : {}),
      },
      orderBy: { id: 'asc' },
    }),
  );
  if (agreementIds && agreements.length < agreementIds.length) {
    const known = new Set(
      (
        await deps.db.agreement.findMany({
          where: { organizationId, id: { in: agreementIds } },
          select: { id: true },
        })
      ).map((a) => a.id),
    );
    const unknown = agreementIds.filter((id) => !known.has(id));
    if (unknown.length > 0)
      throw errors.validation(
        'Unknown agreements.',
        unknown.map((id) => ({ field: 'agreement_ids', message: `no agreement ${id}` })),
      );
  }
  return agreements;
}
