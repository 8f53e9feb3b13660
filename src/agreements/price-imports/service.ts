import { createHash, randomUUID } from 'node:crypto';
import type { AppDeps } from '../../deps.js';
import { recordActivity, type Actor } from '../../activity/record.js';
import type { RequestActor } from '../../auth/actor.js';
import { findDocuments, sealDocument } from '../../documents/service.js';
import type { PriceImport } from '../../generated/prisma/client.js';
import { z } from 'zod';
import { Prisma } from '../../db/client.js';
import { errors } from '../../http/errors.js';
import { keyset, pageOf, pageParams, resolvePage, type SortColumn } from '../../http/pagination.js';
import { booleanParam } from '../../http/schemas.js';
import { rowAfterRun, workStatusOf } from '../../runs/read-model.js';
import { findRun, startRun } from '../../runs/service.js';
import { toSafeCsv } from '../../shared/spreadsheet-cells.js';
import { findAgreement, type AgreementWithLinks } from '../service.js';

type Deps = Pick<AppDeps, 'db' | 'temporal' | 'config' | 'runTypes' | 'logger' | 'storage' | 'cursors'>;

export interface PriceImportEntry {
  document_id: string;
  default_currency: string;
  mode?: 'add' | 'replace_document' | 'replace_all';
  instructions?: string;
  worksheets?: string[];
}

// The same bytes (storage's content hash) with the same settings on the same agreement.
function reuseKeyOf(agreementId: string, contentHash: string, entry: PriceImportEntry): string {
  const settings = [
    agreementId,
    contentHash,
    entry.default_currency,
    entry.mode ?? 'add',
    entry.instructions ?? '',
    [...(entry.worksheets ?? [])].sort(),
  ];
  return createHash('sha256').update(JSON.stringify(settings)).digest('hex');
}

export async function startPriceImports(
  deps: Deps,
  agreement: AgreementWithLinks,
  entries: PriceImportEntry[],
  createdByUserId: string | null,
) {
  const documents = await findDocuments(
    deps,
    agreement.organizationId,
    entries.map((e) => e.document_id),
  );
  const planned = [];
  for (const [index, entry] of entries.entries()) {
    const document = await sealDocument(deps, documents[index]!, `entries.${index}.document_id`);
    const stat = await deps.storage.stat(document.storageKey);
    if (!stat)
      throw errors.validation(`The bytes of document ${document.id} are not in storage.`, [
        { field: `entries.${index}.document_id`, message: 'not in storage' },
      ]);
    const reuseKey = reuseKeyOf(agreement.id, stat.etag, entry);
    const previous = await deps.db.priceImport.findFirst({
      where: { agreementId: agreement.id, reuseKey },
      orderBy: { createdAt: 'desc' },
    });
    const previousStatus = previous
      ? workStatusOf((await findRun(deps, agreement.organizationId, previous.workflowRunId)).status)
      : null;
    planned.push({
      entry,
      reuseKey,
      reuse: previous && previousStatus !== 'failed' && previousStatus !== 'cancelled' ? previous : null,
    });
  }
  const fresh = planned.filter((p) => !p.reuse);
  const runId = randomUUID();
  const created = fresh.map((p) => ({
    id: randomUUID(),
    organizationId: agreement.organizationId,
    agreementId: agreement.id,
    documentId: p.entry.document_id,
    defaultCurrency: p.entry.default_currency,
    mode: p.entry.mode ?? 'add',
    instructions: p.entry.instructions ?? null,
    worksheets: p.entry.worksheets ?? [],
    reuseKey: p.reuseKey,
    workflowRunId: runId,
  }));
  if (created.length > 0) {
    await deps.db.priceImport.createMany({ data: created });
    try {
      await startRun(deps, {
        organizationId: agreement.organizationId,
        type: 'price_import',
        runId,
        owner: { type: 'agreement', id: agreement.id },
        input: { importIds: created.map((c) => c.id) },
        createdByUserId,
      });
    } catch (error) {
      await deps.db.priceImport.deleteMany({ where: { id: { in: created.map((c) => c.id) } } });
      throw error;
    }
  }
  const ids = planned.map((p) => p.reuse?.id ?? created[fresh.indexOf(p)]!.id);
  const records = await deps.db.priceImport.findMany({ where: { id: { in: ids } } });
  const imports = planned.map((p, i) => ({ record: records.find((r) => r.id === ids[i])!, reused: p.reuse !== null }));
  return { runId: created.length > 0 ? runId : null, imports };
}

export async function findPriceImport(
  deps: Pick<AppDeps, 'db'>,
  agreementId: string,
  importId: string,
): Promise<PriceImport> {
  const priceImport = await deps.db.priceImport.findFirst({ where: { id: importId, agreementId } });
  if (!priceImport) throw errors.notFound('price import');
  return priceImport;
}

export async function viewPriceImport(deps: Deps, readBeforeRun: PriceImport, reused = false) {
  const run = await findRun(deps, readBeforeRun.organizationId, readBeforeRun.workflowRunId);
  const priceImport = await rowAfterRun(run, readBeforeRun, () =>
    findPriceImport(deps, readBeforeRun.agreementId, readBeforeRun.id),
  );
  const status = workStatusOf(run.status);
  return {
    id: priceImport.id,
    agreement_id: priceImport.agreementId,
    document_id: priceImport.documentId,
    default_currency: priceImport.defaultCurrency,
    mode: priceImport.mode,
    instructions: priceImport.instructions,
    worksheets: priceImport.worksheets,
    status,
    reused,
    rows: priceImport.finishedAt
      ? {
          found: priceImport.rowsFound ?? 0,
          added: priceImport.rowsAdded ?? 0,
          skipped: priceImport.rowsSkipped ?? 0,
          rejected: priceImport.rowsRejected ?? 0,
        }
      : null,
    failure:
      status === 'failed' ? ((priceImport.failure ?? run.failure) as { code: string; message: string } | null) : null,
    needs_review: needsReview(priceImport),
    workflow_run_id: priceImport.workflowRunId,
    created_at: priceImport.createdAt.toISOString(),
    finished_at: priceImport.finishedAt?.toISOString() ?? null,
  };
}

// A finished import a person should look at: it could not be read completely, or rows of it
// were rejected, and nobody has confirmed it since. The same rule as a Prisma filter (the list)
// and on one record (the view).
const NEEDS_REVIEW: Prisma.PriceImportWhereInput = {
  finishedAt: { not: null },
  reviewedAt: null,
  OR: [{ failure: { not: Prisma.DbNull } }, { rowsRejected: { gt: 0 } }],
};

function needsReview(priceImport: PriceImport): boolean {
  if (priceImport.finishedAt === null || priceImport.reviewedAt !== null) return false;
  return priceImport.failure !== null || (priceImport.rowsRejected ?? 0) > 0;
}

// A person has looked at an import that needed review (its rejected rows, or why it failed) and
// done what was needed (added the missing prices by hand, or nothing): it leaves the review queue,
// recorded on the agreement's timeline. An import that needs no review is left as it is.
export async function confirmPriceImportReview(
  deps: Pick<AppDeps, 'db'>,
  actor: RequestActor | Actor,
  priceImport: PriceImport,
): Promise<PriceImport> {
  if (!needsReview(priceImport)) return priceImport;
  return deps.db.$transaction(async (tx) => {
    const reviewed = await tx.priceImport.update({ where: { id: priceImport.id }, data: { reviewedAt: new Date() } });
    await recordActivity(tx, priceImport.organizationId, actor, [
      {
        entityType: 'agreement',
        entityId: priceImport.agreementId,
        action: 'price_import_review_confirmed',
        changes: {
          price_import_id: { before: priceImport.id, after: priceImport.id },
          needs_review: { before: true, after: false },
        },
      },
    ]);
    return reviewed;
  });
}

const CREATED_AT: SortColumn = { field: 'createdAt', kind: 'date' };

export const priceImportListQuery = z.object({
  ...pageParams(['created_at']),
  needs_review: booleanParam.optional().meta({
    description:
      'true: finished imports a person should look at (not read completely, or rows rejected); false: the others',
  }),
});

export async function listPriceImports(deps: Deps, agreementId: string, query: z.infer<typeof priceImportListQuery>) {
  const { limit, cursor, sort, direction, needs_review } = query;
  const page = resolvePage(
    deps.cursors,
    { limit, cursor, sort, direction },
    { sort: 'created_at', direction: 'desc' },
    { needs_review },
  );
  const { where, orderBy, take } = keyset(page, CREATED_AT);
  const review = needs_review === undefined ? {} : needs_review ? NEEDS_REVIEW : { NOT: NEEDS_REVIEW };
  const rows = await deps.db.priceImport.findMany({ where: { AND: [{ agreementId }, review, where] }, orderBy, take });
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, CREATED_AT, rows);
  return { data: await Promise.all(visible.map((record) => viewPriceImport(deps, record))), next_cursor: nextCursor };
}

// Every row an import of an agreement of the organization found, with its outcome, as CSV.
export async function priceImportRowsCsv(
  deps: Pick<AppDeps, 'db'>,
  organizationId: string,
  agreementId: string,
  importId: string,
): Promise<{ importId: string; csv: string }> {
  const agreement = await findAgreement(deps, organizationId, agreementId);
  const priceImport = await findPriceImport(deps, agreement.id, importId);
  const rows = await deps.db.priceImportRow.findMany({
    where: { importId: priceImport.id },
    orderBy: { position: 'asc' },
  });
  const csv = toSafeCsv(
    rows.map((row) => ({
      sheet: row.sheet,
      row: row.rowNumber,
      outcome: row.outcome,
      reason: row.reason,
      price_item_id: row.priceItemId,
      cells: JSON.stringify(row.raw),
    })),
    { columns: ['sheet', 'row', 'outcome', 'reason', 'price_item_id', 'cells'], numberColumns: ['row'] },
  );
  return { importId: priceImport.id, csv };
}
