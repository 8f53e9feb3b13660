import { z } from 'zod';
import { ApiError, errors } from '../../http/errors.js';
import { labelsOf } from '../labels.js';
import { mayCall, type OperationResponse } from '../operations.js';
import { defineAction, definePage, type ActionResult, type WebInput } from '../page.js';
import { agreementSuggestions, firstText } from '../pickers.js';
import { actOrShowRefusal } from '../refusal.js';
import type { Texts } from '../texts/index.js';
import { alertListData, DISMISS_CATEGORIES } from './alert-list.js';
import { alertTriagePages } from './alert-triage.js';

// Alerts: triage (GET /v1/alerts with its filters, newest open alerts first) and one alert with
// its impact and evidence, and the actions a finance person takes on it: dismiss with a reason,
// mark credited, reopen, add to a claim (an open one of its agreement, or a new one). Every
// action is the API's own command (dismissAlerts, creditAlerts, reopenAlerts, addClaimAlerts,
// createClaim); a refusal shows on the alert page with the API's code and message.

const alertParams = z.object({ id: z.string().uuid() });
const formText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => (value ? value : undefined));

// Everything the alert page shows, for the page and for an action that failed (shown again with
// the error above the forms).
async function alertPage({
  params,
  call,
  deps,
  credential,
}: Pick<WebInput<{ id: string }, unknown>, 'params' | 'call' | 'deps' | 'credential' | 't'>) {
  const alert = await call('getAlert', { params: { id: params.id } });
  const canWrite = mayCall(credential, 'dismissAlerts');
  const [invoice, openClaims, labels] = await Promise.all([
    call('getInvoice', { params: { id: alert.invoice_id } }),
    canWrite && alert.status === 'pending'
      ? call('listClaims', {
          query: {
            agreement_ids: alert.agreement_id,
            statuses: 'pending,in_progress',
            limit: '50',
            sort: 'updated_at',
            direction: 'desc',
          },
        })
      : Promise.resolve({ data: [], next_cursor: null }),
    labelsOf(deps, credential.organizationId, {
      agreements: [alert.agreement_id],
      suppliers: [alert.supplier_id],
      topics: [alert.topic_id],
      claims: [alert.claim_id],
    }),
  ]);
  const line = alert.invoice_item_id ? (invoice.line_items.find((l) => l.id === alert.invoice_item_id) ?? null) : null;
  return {
    title: alert.title,
    alert,
    invoice,
    line,
    labels,
    openClaims: openClaims.data,
    canWrite,
    categories: DISMISS_CATEGORIES,
  };
}

// Runs an alert action: back to the alert with a notice, or the alert page again with the refusal.
function onAlert(input: WebInput<{ id: string }, never>, act: (t: Texts) => Promise<string>): Promise<ActionResult> {
  return actOrShowRefusal({ view: 'alert', nav: 'alerts', load: () => alertPage(input) }, async () => ({
    redirect: `/app/alerts/${input.params.id}`,
    notice: await act(input.t),
  }));
}

type BulkResult = OperationResponse<'dismissAlerts'>;

function refusedUnlessApplied(t: Texts, result: BulkResult): void {
  const skipped = result.skipped[0];
  if (skipped) throw new ApiError(409, skipped.reason, t.codes.skipReasons[skipped.reason] ?? t.codes.cannotChange);
}

function commandAction(command: 'credit' | 'reopen', done: (t: Texts) => string) {
  return defineAction({
    path: `/alerts/:id/${command}`,
    level: 'write',
    params: alertParams,
    handle: (input) =>
      onAlert(input, async (t) => {
        refusedUnlessApplied(t, await input.call(`${command}Alerts`, { body: { alert_ids: [input.params.id] } }));
        return done(t);
      }),
  });
}

export const alertPages = [
  definePage({
    path: '/alerts',
    nav: 'alerts',
    title: (t) => t.alerts.listTitle,
    view: 'alerts',
    load: (input) => alertListData(input),
  }),
  // Before /alerts/:id: /alerts/groups is a page of its own, and /alerts/bulk its action.
  ...alertTriagePages,
  definePage({
    path: '/suggest/agreements',
    nav: null,
    title: (t) => t.alerts.agreementsTitle,
    view: 'suggestions',
    load: async ({ ctx, call }) => ({ options: await agreementSuggestions(call, firstText(ctx.query.agreement)) }),
  }),
  definePage({
    path: '/alerts/:id',
    nav: 'alerts',
    title: (t) => t.alerts.pageTitle,
    view: 'alert',
    params: alertParams,
    load: alertPage,
  }),
  defineAction({
    path: '/alerts/:id/dismiss',
    level: 'write',
    params: alertParams,
    body: z.object({ category: formText(100), note: formText(5000) }),
    handle: (input) =>
      onAlert(input, async (t) => {
        const { category, note } = input.body;
        refusedUnlessApplied(
          t,
          await input.call('dismissAlerts', {
            body: { alert_ids: [input.params.id], category: category ?? null, note: note ?? null },
          }),
        );
        return t.alerts.dismissedNotice;
      }),
  }),
  commandAction('credit', (t) => t.alerts.creditedNotice),
  commandAction('reopen', (t) => t.alerts.reopenedNotice),
  defineAction({
    path: '/alerts/:id/claim',
    level: 'write',
    params: alertParams,
    // claim_id: an open claim of the alert's agreement, or "new" with a title.
    body: z.object({ claim_id: z.string().trim().max(100).default(''), title: formText(500) }),
    handle: (input) =>
      onAlert(input, async (t) => {
        const { claim_id: claimId, title } = input.body;
        if (claimId === 'new' || claimId === '') {
          if (!title)
            throw errors.validation(t.alerts.nameClaim, [{ field: 'title', message: t.alerts.nameClaimField }]);
          const alert = await input.call('getAlert', { params: { id: input.params.id } });
          const claim = await input.call('createClaim', {
            body: { agreement_id: alert.agreement_id, title, alerts: { alert_ids: [input.params.id] } },
          });
          return t.alerts.addedToNewClaim(claim.reference);
        }
        const change = await input.call('addClaimAlerts', {
          params: { id: claimId },
          body: { alert_ids: [input.params.id] },
        });
        return t.alerts.addedToClaim(change.claim.reference);
      }),
  }),
];
