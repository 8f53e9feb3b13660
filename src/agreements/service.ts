import { randomUUID } from 'node:crypto';
import { changedFields, recordActivity, type Actor } from '../activity/record.js';
import { canonicalJson } from '../shared/canonical-json.js';
import type { RequestActor } from '../auth/actor.js';
import type { AppDeps } from '../deps.js';
import { jsonColumn, modelAndExtras, Prisma } from '../db/client.js';
import type { RawReader } from '../db/client.js';
import type { Agreement, DocumentClassification, DocumentProcessingStatus } from '../generated/prisma/client.js';
import { errors, type FieldIssue } from '../http/errors.js';
import { isTerminal } from '../runs/read-model.js';
import { extended, renewalActionOf, RenewalError } from './renewal.js';
import type { AgreementInput } from './schemas.js';
import { markAgreementTermsChanged } from './terms-state.js';

export type AgreementWithLinks = Agreement & {
  suppliers: { supplierId: string }[];
  recipients: { recipientId: string }[];
  tags: { tagId: string }[];
  // Whether it has any price item (readiness needs no more; counting would read every item).
  hasPriceItems: boolean;
  // Imported documents, for readiness (docs/agreement-documents.md).
  documents: { status: DocumentProcessingStatus; classification: DocumentClassification | null }[];
};

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);
const dateOf = (value: string | null | undefined) => (value ? new Date(`${value}T00:00:00Z`) : null);

// The links every agreement view shows, as columns of a statement over agreements `a` (Prisma's
// include takes five statements, and its price-item count aggregates the whole price_items table).
// The id lists come as JSON: parsing a JSON array costs the pg driver a fraction of a PostgreSQL
// array literal's parse.
const LINK_COLUMNS = Prisma.sql`
  to_json(ARRAY(SELECT s.supplier_id FROM agreement_suppliers s WHERE s.agreement_id = a.id)) AS "supplierIds",
  to_json(ARRAY(SELECT r.recipient_id FROM agreement_recipients r WHERE r.agreement_id = a.id)) AS "recipientIds",
  to_json(ARRAY(SELECT t.tag_id FROM agreement_tags t WHERE t.agreement_id = a.id)) AS "tagIds",
  EXISTS (SELECT 1 FROM price_items p WHERE p.agreement_id = a.id) AS "hasPriceItems",
  (SELECT json_agg(json_build_object('status', d.status, 'classification', d.classification))
     FROM agreement_documents d WHERE d.agreement_id = a.id) AS "documents"`;

// As read: JSON parsed by the pg pool, text from Prisma's raw query (in a transaction).
interface LinkColumns {
  supplierIds: unknown;
  recipientIds: unknown;
  tagIds: unknown;
  hasPriceItems: boolean;
  documents: unknown;
}

const LINK_COLUMN_NAMES: ReadonlySet<string> = new Set([
  'supplierIds',
  'recipientIds',
  'tagIds',
  'hasPriceItems',
  'documents',
] satisfies (keyof LinkColumns)[]);

// Adds the links to the agreement object itself (a fresh row of this read): a copy of every field
// was a visible cost of a list page in the profile.
function linked(agreement: Agreement, link: LinkColumns | undefined): AgreementWithLinks {
  return Object.assign(agreement, {
    suppliers: (jsonColumn<string[]>(link?.supplierIds) ?? []).map((supplierId) => ({ supplierId })),
    recipients: (jsonColumn<string[]>(link?.recipientIds) ?? []).map((recipientId) => ({ recipientId })),
    tags: (jsonColumn<string[]>(link?.tagIds) ?? []).map((tagId) => ({ tagId })),
    hasPriceItems: link?.hasPriceItems ?? false,
    documents: jsonColumn<AgreementWithLinks['documents']>(link?.documents) ?? [],
  });
}

// The links of agreements already read, for any number of them in one statement.
export async function withLinks(db: RawReader, agreements: Agreement[]): Promise<AgreementWithLinks[]> {
  if (agreements.length === 0) return [];
  const rows = await db.$queryRaw<(LinkColumns & { id: string })[]>`
    SELECT a.id::text AS "id", ${LINK_COLUMNS} FROM unnest(${agreements.map((a) => a.id)}::uuid[]) AS a(id)`;
  const links = new Map(rows.map((row) => [row.id, row]));
  return agreements.map((agreement) => linked(agreement, links.get(agreement.id)));
}

// Agreements with their links in one statement: those of `where` (SQL over agreements `a`), in
// `orderBy`, at most `limit` (a list page).
export async function readAgreementsWithLinks(
  reader: RawReader,
  where: Prisma.Sql,
  orderBy: Prisma.Sql,
  limit: number,
): Promise<AgreementWithLinks[]> {
  const rows = await reader.$queryRaw<Record<string, unknown>[]>`
    SELECT a.*, ${LINK_COLUMNS}
      FROM (SELECT * FROM agreements a WHERE ${where} ORDER BY ${orderBy} LIMIT ${limit}) a
     ORDER BY ${orderBy}`;
  return rows.map((row) => linked(...modelAndExtras<Agreement, LinkColumns>(row, LINK_COLUMN_NAMES)));
}

export async function findAgreement(
  deps: Pick<AppDeps, 'db'>,
  organizationId: string,
  id: string,
): Promise<AgreementWithLinks> {
  const agreement = await deps.db.agreement.findFirst({ where: { id, organizationId } });
  if (!agreement) throw errors.notFound('agreement');
  return (await withLinks(deps.db, [agreement]))[0]!;
}

// What is still missing before checks can run against the agreement.
export function readinessOf(agreement: AgreementWithLinks) {
  const missing: string[] = [];
  if (!agreement.title) missing.push('title');
  if (agreement.suppliers.length === 0) missing.push('supplier');
  if (agreement.status !== 'active') missing.push('active_status');
  // Terms a check can use: agreed prices, instructions in plain language, or a terms document read.
  const termsDocument = agreement.documents.some((d) => d.status === 'completed' && d.classification === 'terms');
  if (!agreement.hasPriceItems && !agreement.instructions?.trim() && !termsDocument) missing.push('usable_terms');
  // Imported documents are classified and indexed in the background.
  if (agreement.documents.some((d) => d.status === 'queued' || d.status === 'processing'))
    missing.push('documents_processing');
  return { ready: missing.length === 0, missing };
}

export function serializeAgreement(agreement: AgreementWithLinks) {
  const action = renewalActionOf(agreement);
  return {
    id: agreement.id,
    title: agreement.title,
    status: agreement.status,
    supplier_ids: agreement.suppliers.map((s) => s.supplierId).sort(),
    recipient_ids: agreement.recipients.map((r) => r.recipientId).sort(),
    effective_date: day(agreement.effectiveDate),
    expiration_date: day(agreement.expirationDate),
    tag_ids: agreement.tags.map((t) => t.tagId).sort(),
    applicability: (agreement.applicability as Record<string, string[]> | null) ?? null,
    instructions: agreement.instructions,
    renewal: {
      auto_renews: agreement.autoRenews,
      period_months: agreement.renewalPeriodMonths,
      notice_days: agreement.noticePeriodDays,
    },
    renewal_action: { kind: action.kind, deadline: day(action.deadline) },
    readiness: readinessOf(agreement),
    created_at: agreement.createdAt.toISOString(),
    updated_at: agreement.updatedAt.toISOString(),
  };
}

async function unknownReferences(
  tx: Prisma.TransactionClient,
  organizationId: string,
  input: AgreementInput,
): Promise<FieldIssue[]> {
  const check = async (
    field: string,
    ids: string[] | undefined,
    find: (ids: string[]) => Promise<{ id: string }[]>,
  ) => {
    if (!ids?.length) return [];
    const found = new Set((await find(ids)).map((row) => row.id));
    return ids
      .filter((id) => !found.has(id))
      .map((id) => ({ field, message: `no ${field.replace(/_ids$/, '')} ${id}` }));
  };
  const where = (ids: string[]) => ({ where: { organizationId, id: { in: ids } }, select: { id: true } });
  return [
    ...(await check('supplier_ids', input.supplier_ids, (ids) => tx.supplier.findMany(where(ids)))),
    ...(await check('recipient_ids', input.recipient_ids, (ids) => tx.recipient.findMany(where(ids)))),
    ...(await check('tag_ids', input.tag_ids, (ids) => tx.tag.findMany(where(ids)))),
  ];
}

// The agreement as it will be after the change, for the rules that span fields.
function ruleProblems(merged: {
  title: string | null;
  status: string;
  effectiveDate: Date | null;
  expirationDate: Date | null;
}): FieldIssue[] {
  const problems: FieldIssue[] = [];
  if (merged.status === 'active' && !merged.title)
    problems.push({ field: 'title', message: 'an active agreement needs a title' });
  if (merged.effectiveDate && merged.expirationDate && merged.expirationDate < merged.effectiveDate) {
    problems.push({ field: 'expiration_date', message: 'must not be before effective_date' });
  }
  return problems;
}

// The renewal terms a sent `renewal` object stands for: what it leaves out is the default (no
// automatic renewal, no period, no notice).
function renewalTermsOf(renewal: NonNullable<AgreementInput['renewal']>) {
  return {
    auto_renews: renewal.auto_renews ?? false,
    period_months: renewal.period_months ?? null,
    notice_days: renewal.notice_days ?? null,
  };
}

function columnsOf(input: AgreementInput, current: Agreement | null): Prisma.AgreementUncheckedUpdateInput {
  const data: Prisma.AgreementUncheckedUpdateInput = {};
  if (input.title !== undefined) data.title = input.title;
  if (input.status !== undefined) data.status = input.status;
  if (input.effective_date !== undefined) data.effectiveDate = dateOf(input.effective_date);
  if (input.expiration_date !== undefined) data.expirationDate = dateOf(input.expiration_date);
  if (input.applicability !== undefined)
    data.applicability = input.applicability === null ? Prisma.DbNull : input.applicability;
  if (input.instructions !== undefined) data.instructions = input.instructions;
  if (input.renewal !== undefined) {
    // An object replaces the whole value (spec, PATCH): terms it leaves out are cleared.
    const terms = renewalTermsOf(input.renewal);
    data.autoRenews = terms.auto_renews;
    data.renewalPeriodMonths = terms.period_months;
    data.noticePeriodDays = terms.notice_days;
  }
  if (input.renewal_action?.type === 'cancel') {
    data.expirationDate = dateOf(input.renewal_action.expiration_date);
    data.autoRenews = false;
  }
  if (input.renewal_action?.type === 'extend') {
    const terms = {
      expirationDate: (data.expirationDate as Date | null | undefined) ?? current?.expirationDate ?? null,
      autoRenews: (data.autoRenews as boolean | undefined) ?? current?.autoRenews ?? false,
      renewalPeriodMonths:
        (data.renewalPeriodMonths as number | null | undefined) ?? current?.renewalPeriodMonths ?? null,
      noticePeriodDays: null,
    };
    try {
      data.expirationDate = extended(terms);
    } catch (error) {
      if (error instanceof RenewalError)
        throw errors.validation(error.message, [{ field: 'renewal_action', message: error.message }]);
      throw error;
    }
  }
  return data;
}

async function replaceLinks(tx: Prisma.TransactionClient, agreementId: string, input: AgreementInput): Promise<void> {
  if (input.supplier_ids) {
    await tx.agreementSupplier.deleteMany({ where: { agreementId } });
    await tx.agreementSupplier.createMany({
      data: [...new Set(input.supplier_ids)].map((supplierId) => ({ agreementId, supplierId })),
    });
  }
  if (input.recipient_ids) {
    await tx.agreementRecipient.deleteMany({ where: { agreementId } });
    await tx.agreementRecipient.createMany({
      data: [...new Set(input.recipient_ids)].map((recipientId) => ({ agreementId, recipientId })),
    });
  }
  if (input.tag_ids) {
    await tx.agreementTagLink.deleteMany({ where: { agreementId } });
    await tx.agreementTagLink.createMany({
      data: [...new Set(input.tag_ids)].map((tagId) => ({ agreementId, tagId })),
    });
  }
}

// Keeps the derived renewal columns (filters and sort) in step with the terms.
async function refreshRenewalColumns(tx: Prisma.TransactionClient, agreementId: string): Promise<void> {
  const agreement = await tx.agreement.findUniqueOrThrow({ where: { id: agreementId } });
  const action = renewalActionOf(agreement);
  await tx.agreement.update({
    where: { id: agreementId },
    data: { renewalActionKind: action.kind, renewalDeadline: action.deadline },
  });
}

// The agreement's own fields as the API shows them: what its activity entries compare.
const AGREEMENT_FIELDS = [
  'title',
  'status',
  'supplier_ids',
  'recipient_ids',
  'effective_date',
  'expiration_date',
  'tag_ids',
  'applicability',
  'instructions',
  'renewal',
] as const;
// Changes of these do not change the terms a check reads.
const NOT_TERMS = new Set(['title', 'tag_ids']);

function agreementView(agreement: AgreementWithLinks | null): Record<string, unknown> {
  return agreement ? serializeAgreement(agreement) : {};
}

// Whether the input only repeats what the agreement already holds (a client writing back what it
// read): then nothing is written, not even updated_at.
function repeatsCurrent(current: AgreementWithLinks, input: AgreementInput): boolean {
  if (input.renewal_action !== undefined) return false;
  const view = serializeAgreement(current) as Record<string, unknown>;
  const sortedUnique = (ids: string[]) => [...new Set(ids)].sort();
  return Object.entries(input).every(([key, value]) => {
    if (value === undefined) return true;
    if (key === 'supplier_ids' || key === 'recipient_ids' || key === 'tag_ids')
      return canonicalJson(sortedUnique(value as string[])) === canonicalJson(view[key]);
    if (key === 'renewal')
      return (
        canonicalJson(renewalTermsOf(value as NonNullable<AgreementInput['renewal']>)) === canonicalJson(view.renewal)
      );
    return canonicalJson(value) === canonicalJson(view[key]);
  });
}

async function saveAgreement(
  deps: Pick<AppDeps, 'db'>,
  actor: RequestActor | Actor,
  organizationId: string,
  input: AgreementInput,
  current: AgreementWithLinks | null,
): Promise<string> {
  if (current && repeatsCurrent(current, input)) return current.id;
  const data = columnsOf(input, current);
  const merged = {
    title: data.title !== undefined ? (data.title as string | null) : (current?.title ?? null),
    status: (data.status as string | undefined) ?? current?.status ?? 'draft',
    effectiveDate:
      data.effectiveDate !== undefined ? (data.effectiveDate as Date | null) : (current?.effectiveDate ?? null),
    expirationDate:
      data.expirationDate !== undefined ? (data.expirationDate as Date | null) : (current?.expirationDate ?? null),
  };
  return deps.db.$transaction(async (tx) => {
    const problems = [...ruleProblems(merged), ...(await unknownReferences(tx, organizationId, input))];
    if (problems.length > 0) throw errors.validation('The agreement did not validate; nothing was changed.', problems);
    const id = current?.id ?? randomUUID();
    if (current) await tx.agreement.update({ where: { id }, data });
    else await tx.agreement.create({ data: { ...(data as Prisma.AgreementUncheckedCreateInput), id, organizationId } });
    await replaceLinks(tx, id, input);
    await refreshRenewalColumns(tx, id);
    const saved = (await withLinks(tx, [await tx.agreement.findUniqueOrThrow({ where: { id } })]))[0]!;
    const changes = changedFields(agreementView(current), agreementView(saved), AGREEMENT_FIELDS);
    if (current && Object.keys(changes).some((field) => !NOT_TERMS.has(field))) await markAgreementTermsChanged(tx, id);
    await recordActivity(tx, organizationId, actor, [
      { entityType: 'agreement', entityId: id, action: current ? 'updated' : 'created', changes },
    ]);
    return id;
  });
}

export function createAgreement(
  deps: Pick<AppDeps, 'db'>,
  actor: RequestActor | Actor,
  organizationId: string,
  input: AgreementInput,
): Promise<string> {
  return saveAgreement(deps, actor, organizationId, input, null);
}

export function updateAgreement(
  deps: Pick<AppDeps, 'db'>,
  actor: RequestActor | Actor,
  current: AgreementWithLinks,
  input: AgreementInput,
): Promise<string> {
  return saveAgreement(deps, actor, current.organizationId, input, current);
}

// Permanent. Refused while a run still works on the agreement (refresh, check, price import, ...).
export async function deleteAgreement(
  deps: Pick<AppDeps, 'db'>,
  actor: RequestActor | Actor,
  agreement: AgreementWithLinks,
): Promise<void> {
  const runs = await deps.db.workflowRun.findMany({
    where: { organizationId: agreement.organizationId, ownerType: 'agreement', ownerId: agreement.id },
    select: { id: true, status: true },
  });
  const busy = runs.filter((run) => !isTerminal(run.status));
  if (busy.length > 0) {
    throw errors.conflict(
      'agreement_busy',
      'The service is still working on this agreement; retry when its runs have finished.',
      {
        workflow_run_ids: busy.map((run) => run.id),
      },
    );
  }
  // Claims hold money records (refunds) and the supplier's correspondence: they are not deleted
  // with an agreement; delete the claims first.
  const claims = await deps.db.claim.count({
    where: { organizationId: agreement.organizationId, agreementId: agreement.id },
  });
  if (claims > 0) throw errors.conflict('agreement_has_claims', 'The agreement has claims; delete them first.');
  await deps.db.$transaction(async (tx) => {
    const { count } = await tx.agreement.deleteMany({ where: { id: agreement.id } });
    // Its price items, documents and topics go with it: the entry keeps what the agreement was.
    if (count > 0) {
      await recordActivity(tx, agreement.organizationId, actor, [
        {
          entityType: 'agreement',
          entityId: agreement.id,
          action: 'deleted',
          changes: changedFields(agreementView(agreement), {}, AGREEMENT_FIELDS),
        },
      ]);
    }
  });
}
