import { randomUUID } from 'node:crypto';
import type { RequestActor } from '../auth/actor.js';
import { Prisma, type Db } from '../db/client.js';
import type { AppDeps } from '../deps.js';
import { candidatePairs, type CandidateQuery } from '../checks/candidates.js';
import type { CheckPair } from '../checks/eligibility.js';
import { MAX_CHECKS_PER_RUN, startCheckRun } from '../checks/service.js';
import { ApiError, errors } from '../http/errors.js';
import { pageOf, resolvePage, type SortColumn } from '../http/pagination.js';
import type { RouteResponse } from '../http/route.js';
import { isTerminal } from '../runs/read-model.js';
import { formatAmount } from '../shared/money.js';
import { deterministicUuid } from '../shared/ids.js';
import type { SelectionInput } from './schemas.js';
import {
  firstDistinctInvoiceIds,
  limitViolations,
  MAX_SELECTION_AGREEMENTS,
  MAX_SELECTION_CHECKS,
  replacementImpact,
  runBatches,
  sampleInvoiceIds,
  selectionFingerprint,
  summarizeExclusions,
  type AlertGroup,
  type Exclusion,
} from './selection.js';
import { containsText } from '../http/schemas.js';
import { escapeLike } from '../http/sql-filters.js';

// Check selections: which (invoice, agreement) pairs a bulk check would run on, what it would do
// to their alerts, and starting it. Every request computes the selection afresh from its input;
// the fingerprint ties a start to the preview the client saw.

// A scope larger than this is not counted in full: the preview says so (complete: false).
const SCAN_LIMIT = MAX_SELECTION_CHECKS * 10;
// Receipts live in idempotency_records under a key no client can send (keys have no spaces).
const RECEIPT_PREFIX = 'check-selection receipt ';

export interface Selection {
  mode: 'outstanding' | 'again';
  pairs: CheckPair[];
  excluded: Exclusion[];
  sampleInvoiceIds: string[];
  complete: boolean;
}

interface ResolvedScope {
  agreementIds: string[];
  topicId?: string;
  pairs?: CheckPair[];
  leftOut: Exclusion[];
}

function invalid(field: string, message: string): ApiError {
  return errors.validation('The check selection names records that cannot be used.', [{ field, message }]);
}

async function assertAllExist(found: { id: string }[], wanted: string[], field: string, what: string) {
  const known = new Set(found.map((row) => row.id));
  const unknown = wanted.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw errors.validation(
      `Unknown ${what}.`,
      unknown.map((id) => ({ field, message: `no ${what} ${id}` })),
    );
}

async function agreementsScope(db: Db, organizationId: string, ids: string[], field: string): Promise<ResolvedScope> {
  const found = await db.agreement.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true } });
  await assertAllExist(found, ids, field, 'agreement');
  return { agreementIds: [...new Set(ids)], leftOut: [] };
}

type AgreementFilter = {
  tag_ids?: string[];
  supplier_ids?: string[];
  search?: string;
  has_price_items?: boolean;
  has_instructions?: boolean;
  has_documents?: boolean;
  has_pending_alerts?: boolean;
};

// The agreement filter's booleans: true keeps agreements that have the thing, false those without.
function presenceWhere(value: boolean | undefined, has: Prisma.AgreementWhereInput): Prisma.AgreementWhereInput {
  if (value === undefined) return {};
  return value ? has : { NOT: has };
}

async function filterScope(
  db: Db,
  organizationId: string,
  filter: AgreementFilter,
  field: string,
): Promise<ResolvedScope> {
  if (filter.tag_ids) {
    await assertAllExist(
      await db.tag.findMany({ where: { organizationId, id: { in: filter.tag_ids } }, select: { id: true } }),
      filter.tag_ids,
      `${field}.tag_ids`,
      'tag',
    );
  }
  if (filter.supplier_ids) {
    const suppliers = await db.supplier.findMany({
      where: { organizationId, id: { in: filter.supplier_ids } },
      select: { id: true },
    });
    await assertAllExist(suppliers, filter.supplier_ids, `${field}.supplier_ids`, 'supplier');
  }
  const agreements = await db.agreement.findMany({
    where: {
      AND: [
        { organizationId },
        filter.tag_ids ? { tags: { some: { tagId: { in: filter.tag_ids } } } } : {},
        filter.supplier_ids ? { suppliers: { some: { supplierId: { in: filter.supplier_ids } } } } : {},
        filter.search ? { title: containsText(filter.search) } : {},
        presenceWhere(filter.has_price_items, { priceItems: { some: {} } }),
        // Blank instructions are none (readiness reads them the same way).
        presenceWhere(filter.has_instructions, {
          AND: [{ instructions: { not: null } }, { NOT: { instructions: '' } }],
        }),
        presenceWhere(filter.has_documents, { documents: { some: { status: 'completed' } } }),
        presenceWhere(filter.has_pending_alerts, {
          matches: { some: { active: true, alerts: { some: { status: 'pending' } } } },
        }),
      ],
    },
    select: { id: true, status: true },
    orderBy: { id: 'asc' },
  });
  // Only active agreements can be checked; the others are counted once each, not per invoice.
  return {
    agreementIds: agreements.filter((a) => a.status === 'active').map((a) => a.id),
    leftOut: agreements
      .filter((a) => a.status !== 'active')
      .map((a) => ({ reason: 'agreement_not_active', invoiceId: null, agreementId: a.id })),
  };
}

async function topicScope(db: Db, organizationId: string, topicId: string, field: string): Promise<ResolvedScope> {
  const topic = await db.alertTopic.findFirst({
    where: { id: topicId, organizationId },
    select: { agreementId: true },
  });
  if (!topic) throw invalid(field, `no topic ${topicId}`);
  return { agreementIds: [topic.agreementId], topicId, leftOut: [] };
}

// A finished check run's items that did not complete; their keys are `${invoiceId}:${agreementId}`.
async function runScope(db: Db, organizationId: string, runId: string, field: string): Promise<ResolvedScope> {
  const run = await db.workflowRun.findFirst({
    where: { id: runId, organizationId },
    select: { type: true, status: true },
  });
  if (!run) throw invalid(field, `no workflow run ${runId}`);
  if (run.type !== 'check') throw invalid(field, `workflow run ${runId} is a ${run.type} run, not a check run`);
  // Its unfinished items may still be worked on: choosing them again would check them twice.
  if (!isTerminal(run.status))
    throw invalid(field, `workflow run ${runId} is still ${run.status}; wait for it to finish or cancel it`);
  const items = await db.workflowRunItem.findMany({
    where: { runId, status: { not: 'completed' } },
    select: { key: true },
  });
  const pairs = items.map((item) => {
    const [invoiceId, agreementId] = item.key.split(':');
    return { invoiceId: invoiceId!, agreementId: agreementId! };
  });
  return { agreementIds: [...new Set(pairs.map((pair) => pair.agreementId))], pairs, leftOut: [] };
}

function resolveScope(
  db: Db,
  organizationId: string,
  scope: SelectionInput['scope'],
  prefix: string,
): Promise<ResolvedScope> {
  const field = `${prefix}scope`;
  if ('agreement_ids' in scope)
    return agreementsScope(db, organizationId, scope.agreement_ids, `${field}.agreement_ids`);
  if ('agreement_filter' in scope)
    return filterScope(db, organizationId, scope.agreement_filter, `${field}.agreement_filter`);
  if ('topic_id' in scope) return topicScope(db, organizationId, scope.topic_id, `${field}.topic_id`);
  return runScope(db, organizationId, scope.workflow_run_id, `${field}.workflow_run_id`);
}

async function invoiceFilter(
  db: Db,
  organizationId: string,
  invoices: SelectionInput['invoices'],
  prefix: string,
): Promise<Partial<CandidateQuery>> {
  if (!invoices || 'sample' in invoices) return {};
  if ('invoice_ids' in invoices) {
    const found = await db.invoice.findMany({
      where: { organizationId, id: { in: invoices.invoice_ids }, deletedAt: null },
      select: { id: true },
    });
    await assertAllExist(found, invoices.invoice_ids, `${prefix}invoices.invoice_ids`, 'invoice');
    return { invoiceIds: [...new Set(invoices.invoice_ids)] };
  }
  return { issuedFrom: invoices.issued_from, issuedThrough: invoices.issued_through };
}

// The selection as it stands now. `prefix` names the fields in validation errors ("selection.").
export async function computeSelection(
  db: Db,
  organizationId: string,
  input: SelectionInput,
  prefix = '',
): Promise<Selection> {
  const scope = await resolveScope(db, organizationId, input.scope, prefix);
  const invoices = await invoiceFilter(db, organizationId, input.invoices, prefix);
  const selection: Selection = {
    mode: input.mode,
    pairs: [],
    excluded: [...scope.leftOut],
    sampleInvoiceIds: [],
    complete: true,
  };
  if (scope.agreementIds.length === 0) return selection;
  const query: CandidateQuery = {
    agreementIds: scope.agreementIds,
    mode: input.mode,
    topicId: scope.topicId,
    pairs: scope.pairs,
    ...invoices,
  };
  const page = await candidatePairs(db, organizationId, query, SCAN_LIMIT);
  selection.complete = !page.hasMore;
  const excluded = page.excluded.map((e) => ({ reason: e.reason, invoiceId: e.invoiceId, agreementId: e.agreementId }));
  if (input.invoices && 'sample' in input.invoices) {
    const sample = sampleInvoiceIds(
      page.eligible.map((pair) => pair.invoiceId),
      String(input.invoices.sample.seed),
      input.invoices.sample.size,
    );
    const sampled = new Set(sample);
    selection.pairs = page.eligible.filter((pair) => sampled.has(pair.invoiceId));
    selection.excluded.push(...excluded.filter((e) => sampled.has(e.invoiceId)));
    selection.sampleInvoiceIds = sample;
  } else {
    selection.pairs = page.eligible;
    selection.excluded.push(...excluded);
    selection.sampleInvoiceIds = firstDistinctInvoiceIds(page.eligible);
  }
  return selection;
}

const distinct = (values: string[]) => [...new Set(values)];

async function versionsOf(db: Db, table: 'invoices' | 'agreements', ids: string[]): Promise<Record<string, string>> {
  if (ids.length === 0) return {};
  const rows =
    table === 'invoices'
      ? await db.$queryRaw<
          { id: string; version: Date }[]
        >`SELECT id::text, content_changed_at AS version FROM invoices WHERE id = ANY(${ids}::uuid[])`
      : await db.$queryRaw<
          { id: string; version: Date }[]
        >`SELECT id::text, terms_changed_at AS version FROM agreements WHERE id = ANY(${ids}::uuid[])`;
  return Object.fromEntries(rows.map((row) => [row.id, row.version.toISOString()]));
}

async function alertGroups(db: Db, organizationId: string, pairs: CheckPair[]): Promise<AlertGroup[]> {
  if (pairs.length === 0) return [];
  const rows = await db.$queryRaw<
    { status: AlertGroup['status']; in_claim: boolean; currency_code: string | null; count: number; amount: string }[]
  >`
    SELECT a.status::text AS status, (c.id IS NOT NULL) AS in_claim, a.currency_code, count(*)::int AS count, sum(a.impact_amount)::text AS amount
      FROM alerts a
      -- Held: in a claim that is not cancelled (a check replaces what a cancelled claim left).
      LEFT JOIN claims c ON c.id = a.claim_id AND c.status <> 'cancelled'
      JOIN unnest(${pairs.map((p) => p.invoiceId)}::uuid[], ${pairs.map((p) => p.agreementId)}::uuid[]) AS p(invoice_id, agreement_id)
        ON a.invoice_id = p.invoice_id AND a.agreement_id = p.agreement_id
     WHERE a.organization_id = ${organizationId}::uuid
     GROUP BY 1, 2, 3`;
  return rows.map((row) => ({
    status: row.status,
    inClaim: row.in_claim,
    currencyCode: row.currency_code,
    count: row.count,
    amount: row.amount,
  }));
}

export async function describeSelection(db: Db, organizationId: string, selection: Selection) {
  const invoiceIds = distinct(selection.pairs.map((pair) => pair.invoiceId));
  const agreementIds = distinct(selection.pairs.map((pair) => pair.agreementId));
  const [invoiceVersions, agreementVersions, groups] = await Promise.all([
    versionsOf(db, 'invoices', invoiceIds),
    versionsOf(db, 'agreements', agreementIds),
    alertGroups(db, organizationId, selection.pairs),
  ]);
  const replacement = replacementImpact(groups);
  const counts = { checks: selection.pairs.length, agreements: agreementIds.length };
  return {
    checks: counts.checks,
    agreements: counts.agreements,
    invoices: invoiceIds.length,
    sample_invoice_ids: selection.sampleInvoiceIds,
    exclusions: summarizeExclusions(selection.excluded),
    replacement_impact: replacement,
    limits: { max_checks: MAX_SELECTION_CHECKS, max_agreement_runs: MAX_SELECTION_AGREEMENTS } as const,
    within_limits: selection.complete && limitViolations(counts).length === 0,
    complete: selection.complete,
    fingerprint: selectionFingerprint({
      mode: selection.mode,
      pairs: selection.pairs,
      invoiceVersions,
      agreementVersions,
      replacement,
    }),
  };
}

export async function previewSelection(db: Db, organizationId: string, input: SelectionInput) {
  return describeSelection(db, organizationId, await computeSelection(db, organizationId, input));
}

// Candidate invoices, newest issue date first (undated last). The cursor is bound to the
// selection input and the search, so it cannot be replayed against another selection.
const ISSUE_ORDER: SortColumn = { field: 'sortDate', kind: 'string' };
const UNDATED = '0001-01-01';

interface CandidateInvoiceRow {
  id: string;
  sortDate: string;
  invoice_number: string | null;
  supplier_id: string | null;
  supplier_name: string | null;
  issue_date: string | null;
  currency_code: string | null;
  tax_exclusive_amount: string | null;
  tax_inclusive_amount: string | null;
  payable_amount: string | null;
}

export async function candidateInvoicesPage(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  organizationId: string,
  request: { selection: SelectionInput; limit: number; cursor?: string; search?: string },
) {
  const page = resolvePage(
    deps.cursors,
    { limit: request.limit, cursor: request.cursor },
    { sort: 'issue_date', direction: 'desc' },
    { selection: request.selection, search: request.search },
  );
  const selection = await computeSelection(deps.db, organizationId, request.selection, 'selection.');
  const agreementsOf = new Map<string, string[]>();
  for (const pair of selection.pairs)
    agreementsOf.set(pair.invoiceId, [...(agreementsOf.get(pair.invoiceId) ?? []), pair.agreementId]);
  if (agreementsOf.size === 0) return { data: [], next_cursor: null };
  const conditions = [
    Prisma.sql`i.organization_id = ${organizationId}::uuid`,
    Prisma.sql`i.id = ANY(${[...agreementsOf.keys()]}::uuid[])`,
  ];
  if (request.search) {
    const pattern = `%${escapeLike(request.search)}%`;
    conditions.push(
      Prisma.sql`(i.invoice_number ILIKE ${pattern} OR s.name ILIKE ${pattern} OR i.supplier_party->>'name' ILIKE ${pattern})`,
    );
  }
  if (page.after)
    conditions.push(
      Prisma.sql`(COALESCE(i.issue_date, ${UNDATED}::date), i.id) < (${page.after.value}::date, ${page.after.id}::uuid)`,
    );
  const rows = await deps.db.$queryRaw<CandidateInvoiceRow[]>`
    SELECT i.id::text, to_char(COALESCE(i.issue_date, ${UNDATED}::date), 'YYYY-MM-DD') AS "sortDate", i.invoice_number, i.supplier_id::text,
           COALESCE(s.name, i.supplier_party->>'name') AS supplier_name, to_char(i.issue_date, 'YYYY-MM-DD') AS issue_date, i.currency_code,
           i.tax_exclusive_amount::text, i.tax_inclusive_amount::text, i.payable_amount::text
      FROM invoices i LEFT JOIN suppliers s ON s.id = i.supplier_id
     WHERE ${Prisma.join(conditions, ' AND ')}
     ORDER BY COALESCE(i.issue_date, ${UNDATED}::date) DESC, i.id DESC
     LIMIT ${page.limit + 1}`;
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, ISSUE_ORDER, rows);
  return {
    data: visible.map((row) => ({
      id: row.id,
      invoice_number: row.invoice_number,
      supplier: { id: row.supplier_id, name: row.supplier_name },
      issue_date: row.issue_date,
      amounts: {
        currency_code: row.currency_code,
        excluding_vat: formatAmount(row.tax_exclusive_amount),
        including_vat: formatAmount(row.tax_inclusive_amount),
        payable: formatAmount(row.payable_amount),
      },
      agreement_ids: agreementsOf.get(row.id)!,
    })),
    next_cursor: nextCursor,
  };
}

// The receipt key: derived from the Idempotency-Key when there is one (a repeat derives the same
// run ids), else new. Run ids derive from it, so a crashed start repeated with the key cannot
// start a run twice.
function receiptKeyFor(organizationId: string, idempotencyKey: string | null): string {
  return idempotencyKey ? deterministicUuid(`check-selection:${organizationId}:${idempotencyKey}`) : randomUUID();
}

export async function startSelection(
  deps: AppDeps,
  actor: RequestActor,
  input: SelectionInput & { fingerprint: string },
  idempotencyKey: string | null,
): Promise<RouteResponse> {
  const organizationId = actor.organizationId;
  const { fingerprint, ...selectionInput } = input;
  const selection = await computeSelection(deps.db, organizationId, selectionInput);
  const described = await describeSelection(deps.db, organizationId, selection);
  if (described.fingerprint !== fingerprint) {
    throw errors.conflict(
      'selection_changed',
      'The selection changed since its preview; nothing was started. Review the new preview and start again.',
      { fingerprint: described.fingerprint, preview: described },
    );
  }
  const violations = selection.complete
    ? limitViolations({ checks: described.checks, agreements: described.agreements })
    : [`the selection has more than ${SCAN_LIMIT} checks`];
  if (violations.length > 0) {
    throw new ApiError(400, 'validation_error', 'The selection is too large to start at once; narrow it.', {
      description: 'selection_too_large',
      details: violations.map((message) => ({ field: 'scope', message })),
    });
  }
  if (selection.pairs.length === 0) {
    throw errors.conflict('nothing_eligible', 'Nothing is eligible for a check; no run was started.', {
      exclusions: described.exclusions,
    });
  }
  const receiptKey = receiptKeyFor(organizationId, idempotencyKey);
  const runIds: string[] = [];
  for (const batch of runBatches(selection.pairs, MAX_CHECKS_PER_RUN)) {
    const runKey = `selection:${receiptKey}:${batch.agreementId}:${batch.part}`;
    runIds.push(await startCheckRun(deps, actor, { type: 'agreement', id: batch.agreementId }, batch.pairs, runKey));
  }
  const body = {
    receipt_key: receiptKey,
    workflow_run_ids: runIds,
    checks: described.checks,
    agreements: described.agreements,
    invoices: described.invoices,
    fingerprint,
  };
  await storeReceipt(deps.db, organizationId, receiptKey, body);
  return { status: 202, body, headers: { Location: `/v1/check-selections/${receiptKey}` } };
}

async function storeReceipt(
  db: Db,
  organizationId: string,
  receiptKey: string,
  body: Record<string, unknown>,
): Promise<void> {
  const key = `${RECEIPT_PREFIX}${receiptKey}`;
  const record = {
    state: 'completed',
    requestDigest: 'receipt',
    responseStatus: 200,
    responseBody: body as Prisma.InputJsonValue,
    completedAt: new Date(),
  };
  await db.idempotencyRecord.upsert({
    where: { organizationId_key: { organizationId, key } },
    create: { organizationId, key, ...record },
    update: record,
  });
}

export async function readReceipt(db: Db, organizationId: string, receiptKey: string): Promise<unknown> {
  const record = await db.idempotencyRecord.findUnique({
    where: { organizationId_key: { organizationId, key: `${RECEIPT_PREFIX}${receiptKey}` } },
  });
  if (!record?.responseBody) throw errors.notFound('check selection');
  return record.responseBody;
}
