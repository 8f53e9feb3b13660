import { z } from 'zod';
import { ApiError, errors } from '../../http/errors.js';
import type { OperationResponse } from '../operations.js';
import { defineAction, definePage, type ActionResult, type WebInput } from '../page.js';
import { filledQuery, listUrl } from '../query.js';
import type { Refusal } from '../refusal.js';
import type { Texts } from '../texts/index.js';
import { labelsOf } from '../labels.js';
import { alertListData, bulkFilterOf, resolvedAlertQuery, type BulkForm, type BulkOutcome } from './alert-list.js';

// Triage in bulk (issue 28): the alerts list's bulk form posts here with the list's own query
// string, so the list is known again (its filter for "every alert matching", its page to show
// after). Each action is one of the API's bulk commands: dismissAlerts (category, note),
// creditAlerts, createClaim or addClaimAlerts, with `alert_ids` (the boxes ticked) or `filter`
// (every alert the list's filter matches). The answer is the list again, changed, with the
// command's outcome: how many changed, which were left alone and why.
//
// And the grouped view: GET /v1/alerts/groups by topic, agreement or supplier, each group
// linking to the list filtered by it, with its impact per currency.

// At most this many refused alerts are named on the page (the count says how many in all).
const REFUSED_SHOWN = 50;

const uuid = z.string().uuid();
const formText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => (value ? value : undefined));

const bulkBody = z.object({
  // Repeated fields arrive as an array, one as a string.
  alert_ids: z
    .union([uuid, z.array(uuid).max(1000)])
    .optional()
    .transform((ids) => (ids === undefined ? [] : Array.isArray(ids) ? ids : [ids])),
  scope: z.enum(['selected', 'filter']).default('selected'),
  action: z.enum(['dismiss', 'credit', 'claim']),
  category: formText(100),
  note: formText(5000),
  // An open claim's id, or "new" (with a title).
  claim_id: z.string().trim().max(100).default('new'),
  title: formText(500),
});
type BulkBody = z.infer<typeof bulkBody>;

function refusedOf(t: Texts, skipped: { id: string; reason: string }[]): Pick<BulkOutcome, 'refused' | 'refusedCount'> {
  return {
    refused: skipped.slice(0, REFUSED_SHOWN).map((s) => ({
      id: s.id,
      reason: s.reason,
      message: t.codes.skipReasons[s.reason] ?? t.codes.cannotChange,
    })),
    refusedCount: skipped.length,
  };
}

function commandOutcome(
  t: Texts,
  action: 'dismiss' | 'credit',
  result: OperationResponse<'dismissAlerts'>,
): BulkOutcome {
  const parts = [t.triage.changed(result.updated.length, action)];
  if (result.unchanged.length) parts.push(t.triage.alreadyChanged(result.unchanged.length, action));
  if (result.skipped.length) parts.push(t.triage.leftAlone(result.skipped.length));
  return { message: parts.join(' '), claim: null, ...refusedOf(t, result.skipped) };
}

type Selection = { alert_ids: string[] } | { filter: NonNullable<ReturnType<typeof bulkFilterOf>> };

// The alerts the command acts on: the boxes ticked, or every alert the list's filter matches.
async function selectionOf(input: WebInput<unknown, never>, body: BulkBody) {
  const t = input.t.triage;
  if (body.scope === 'filter') {
    if (input.session.teamView?.mine)
      throw errors.validation(t.notInTeamView, [{ field: 'scope', message: t.notInTeamViewField }]);
    const resolved = await resolvedAlertQuery(input);
    const filter = bulkFilterOf(resolved.filter);
    if (!filter || resolved.nothing)
      throw errors.validation(t.needsAgreement, [{ field: 'scope', message: t.needsAgreementField }]);
    const agreements = filter.agreement_ids ?? [];
    return { selection: { filter } as Selection, agreementId: agreements.length === 1 ? agreements[0]! : null };
  }
  if (body.alert_ids.length === 0)
    throw errors.validation(t.selectFirst, [{ field: 'alert_ids', message: t.selectFirstField }]);
  return { selection: { alert_ids: body.alert_ids } as Selection, agreementId: null };
}

async function act(input: WebInput<unknown, never>, body: BulkBody): Promise<BulkOutcome> {
  const { call } = input;
  const t = input.t.triage;
  const { selection, agreementId } = await selectionOf(input, body);
  if (body.action === 'dismiss') {
    const result = await call('dismissAlerts', {
      body: { ...selection, category: body.category ?? null, note: body.note ?? null },
    });
    return commandOutcome(input.t, 'dismiss', result);
  }
  if (body.action === 'credit')
    return commandOutcome(input.t, 'credit', await call('creditAlerts', { body: selection }));
  if (body.claim_id === 'new' || body.claim_id === '') {
    if (!body.title) throw errors.validation(t.nameClaim, [{ field: 'title', message: t.nameClaimField }]);
    // A claim is on one agreement: the filter's, else the first selected alert's (the API refuses
    // alerts of another agreement, and says which).
    const agreement =
      agreementId ??
      ('alert_ids' in selection
        ? (await call('getAlert', { params: { id: selection.alert_ids[0]! } })).agreement_id
        : null);
    if (!agreement) throw errors.validation(t.oneAgreement, [{ field: 'claim_id', message: t.oneAgreementField }]);
    const claim = await call('createClaim', {
      body: { agreement_id: agreement, title: body.title, alerts: selection },
    });
    return {
      message: t.claimCreated(claim.reference, claim.summary.counts.claimed),
      claim: { id: claim.id, reference: claim.reference },
      refused: [],
      refusedCount: 0,
    };
  }
  const change = await call('addClaimAlerts', { params: { id: body.claim_id }, body: selection });
  const parts = [t.addedToClaim(change.added.length + change.moved.length, change.claim.reference)];
  if (change.unchanged.length) parts.push(t.alreadyInClaim(change.unchanged.length));
  if (change.skipped.length) parts.push(t.leftAlone(change.skipped.length));
  return {
    message: parts.join(' '),
    claim: { id: change.claim.id, reference: change.claim.reference },
    ...refusedOf(input.t, change.skipped),
  };
}

// A refusal as the page shows it; a claim's all-or-nothing refusal names each alert and why.
function refusalOf(t: Texts, caught: ApiError): { refusal: Refusal; outcome?: BulkOutcome } {
  const raw = Array.isArray(caught.extra.details) ? (caught.extra.details as Record<string, unknown>[]) : [];
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const details = raw.map((d) => ({ field: text(d.field), message: text(d.message) }));
  const perAlert = raw.filter((d) => typeof d.alert_id === 'string');
  const refusal: Refusal = { code: caught.code, message: caught.message, details: perAlert.length ? [] : details };
  if (perAlert.length === 0) return { refusal };
  return {
    refusal,
    outcome: {
      message: caught.message,
      claim: null,
      ...refusedOf(
        t,
        perAlert.map((d) => ({ id: text(d.alert_id), reason: text(d.reason) })),
      ),
    },
  };
}

export const alertTriagePages = [
  defineAction({
    path: '/alerts/bulk',
    level: 'write',
    body: bulkBody,
    handle: async (input): Promise<ActionResult> => {
      const { body } = input;
      const form: BulkForm = {
        selected: body.alert_ids,
        scope: body.scope,
        category: body.category,
        note: body.note,
        claimId: body.claim_id,
        title: body.title,
      };
      try {
        const outcome = await act(input, body);
        // The list again, as it is now; the scope and the claim picked stay, the boxes are cleared.
        const data = await alertListData(input, {
          form: { selected: [], scope: body.scope, claimId: outcome.claim?.id ?? body.claim_id },
          outcome,
        });
        return { view: 'alerts', title: data.title, nav: 'alerts', data };
      } catch (caught) {
        if (!(caught instanceof ApiError) || caught.status >= 500) throw caught;
        const data = await alertListData(input, { form, ...refusalOf(input.t, caught) });
        return { view: 'alerts', title: data.title, nav: 'alerts', status: caught.status, data };
      }
    },
  }),
  definePage({
    path: '/alerts/groups',
    nav: 'alerts',
    title: (t) => t.triage.groupsTitle,
    view: 'alert-groups',
    query: z.object({ group_by: z.enum(['topic', 'agreement', 'supplier']).default('topic') }).passthrough(),
    load: async (input) => {
      const { ctx, call, deps, credential, query } = input;
      const t = input.t.triage;
      const groupBy = query.group_by;
      const { query: listQuery, filter, nothing, agreement, supplier } = await resolvedAlertQuery(input);
      const cursor = filledQuery(ctx.query, ['cursor']).cursor;
      const [page, metrics] = await Promise.all([
        nothing
          ? Promise.resolve({ data: [], next_cursor: null })
          : call('getAlertGroups', {
              query: { group_by: groupBy, limit: '50', ...filter, ...(cursor ? { cursor } : {}) },
            }),
        nothing ? Promise.resolve({ counts: { total: 0 }, impact: [] }) : call('getAlertMetrics', { query: filter }),
      ]);
      // The list filtered by one group, keeping the other filters (status, search, ...).
      const { cursor: _cursor, sort: _sort, direction: _direction, ...kept } = listQuery;
      const key = { topic: 'topic_ids', agreement: 'agreement_ids', supplier: 'supplier_ids' }[groupBy];
      const linkOf = (groupKey: string | null) =>
        groupKey === null && groupBy !== 'topic'
          ? null
          : listUrl('/app/alerts', { ...kept, [key]: groupKey ?? 'null' });
      const labels = await labelsOf(deps, credential.organizationId, {
        agreements: listQuery.agreement_ids?.split(','),
      });
      const here = { ...kept, group_by: groupBy };
      return {
        title: `${t.groupsTitle}: ${t.groupBy[groupBy]}`,
        groupBy,
        groups: page.data.map((g) => ({ ...g, url: linkOf(g.key) })),
        metrics,
        nextUrl: page.next_cursor ? listUrl('/app/alerts/groups', here, { cursor: page.next_cursor }) : null,
        firstUrl: cursor ? listUrl('/app/alerts/groups', here) : null,
        tabs: (['topic', 'agreement', 'supplier'] as const).map((by) => ({
          by,
          label: t.groupBy[by],
          url: listUrl('/app/alerts/groups', { ...kept, group_by: by }),
        })),
        listUrl: listUrl('/app/alerts', kept),
        status: listQuery.statuses,
        kept,
        chosen: {
          agreement: agreement.text || (labels.agreements.size === 1 ? [...labels.agreements.values()][0] : null),
          supplier: supplier.text || null,
        },
      };
    },
  }),
];
