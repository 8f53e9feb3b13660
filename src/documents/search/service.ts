import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../deps.js';
import type { Document, DocumentIndex } from '../../generated/prisma/client.js';
import { errors } from '../../http/errors.js';
import { startRun } from '../../runs/service.js';
import { deterministicUuid } from '../../shared/ids.js';
import { findDocuments, sealDocument } from '../service.js';
import type { SearchRequest, UNAVAILABLE_REASONS } from './schemas.js';
import {
  foldForSearch,
  headlineOptions,
  normalizeQuery,
  parseHeadline,
  phraseMatches,
  phrasePattern,
  SEARCH_CONFIG,
  type Highlight,
} from './text.js';
import { inBatches } from '../../shared/batches.js';

type Deps = Pick<AppDeps, 'db' | 'temporal' | 'config' | 'runTypes' | 'logger' | 'storage'>;
type ScopedDocument = Document & { searchIndex: DocumentIndex | null };

interface PassageRow {
  document_id: string;
  ordinal: number;
  page: number | null;
  sheet: string | null;
  start_offset: number;
  end_offset: number;
  text: string;
  score: number | null;
  highlights: Highlight[];
}

// Starts a run that extracts and indexes one document (again); search keeps answering from an
// earlier index until the new one replaces it.
export async function startDocumentIndex(
  deps: Deps,
  organizationId: string,
  documentId: string,
  request: { createdByUserId: string | null; idempotencyKey: string | null },
) {
  const [document] = await findDocuments(deps, organizationId, [documentId]);
  await sealDocument(deps, document!);
  const runId = request.idempotencyKey
    ? deterministicUuid(`document-index:${organizationId}:${documentId}:${request.idempotencyKey}`)
    : randomUUID();
  const existing = await deps.db.documentIndex.findUnique({ where: { documentId } });
  if (!existing)
    await deps.db.documentIndex.create({
      data: { documentId, organizationId, status: 'queued', workflowRunId: runId },
    });
  try {
    await startRun(deps, {
      organizationId,
      type: 'document_index',
      runId,
      owner: { type: 'document', id: documentId },
      input: { documentId, maxPassages: deps.config.DOCUMENT_INDEX_MAX_PASSAGES },
      createdByUserId: request.createdByUserId,
    });
  } catch (error) {
    if (!existing)
      await deps.db.documentIndex.deleteMany({ where: { documentId, workflowRunId: runId, status: 'queued' } });
    throw error;
  }
  return { workflow_run_id: runId, document_id: documentId };
}

export async function searchDocuments(deps: Deps, organizationId: string, request: SearchRequest) {
  const scopeIds = await scopeOf(deps, organizationId, request);
  // An agreement's documents can be any number: batched under PostgreSQL's bind-parameter limit.
  const documents = await inBatches(scopeIds, (ids) =>
    deps.db.document.findMany({ where: { organizationId, id: { in: ids } }, include: { searchIndex: true } }),
  );
  const searchable = documents.filter((d) => d.searchIndex?.indexedAt);
  const byId = new Map(documents.map((d) => [d.id, d]));
  const searchableIds = scopeIds.filter((id) => byId.get(id)?.searchIndex?.indexedAt);
  const rows =
    searchableIds.length === 0
      ? []
      : request.mode === 'exact'
        ? await exactPassages(deps, organizationId, searchableIds, request)
        : await rankedPassages(deps, organizationId, searchableIds, request);
  const visible = rows.slice(0, request.limit);
  const links = await deps.db.agreementDocument.findMany({
    where: { organizationId, documentId: { in: [...new Set(visible.map((r) => r.document_id))] } },
    select: { agreementId: true, documentId: true },
  });
  const partialDocuments = searchable.filter((d) => d.searchIndex!.partial);
  return {
    query: request.query,
    mode: request.mode,
    passages: visible.map((row) => ({
      document_id: row.document_id,
      file_name: byId.get(row.document_id)!.fileName,
      agreement_ids: links
        .filter((l) => l.documentId === row.document_id)
        .map((l) => l.agreementId)
        .sort(),
      position: {
        passage: row.ordinal,
        page: row.page,
        sheet: row.sheet,
        start_offset: row.start_offset,
        end_offset: row.end_offset,
      },
      text: row.text,
      highlights: row.highlights,
      score: row.score,
    })),
    has_more: rows.length > request.limit,
    unavailable_documents: scopeIds.flatMap((id) => unavailability(id, byId.get(id))),
    partial: partialDocuments.length > 0,
    partial_documents: partialDocuments.map((d) => ({
      document_id: d.id,
      indexed_passages: d.searchIndex!.passageCount,
      reason: d.searchIndex!.partialReason ?? 'not fully indexed',
    })),
  };
}

// The documents to search: the agreement's (an unknown agreement is 404) or the ones named.
async function scopeOf(deps: Deps, organizationId: string, request: SearchRequest): Promise<string[]> {
  if (request.document_ids) return request.document_ids;
  const agreement = await deps.db.agreement.findFirst({
    where: { id: request.agreement_id!, organizationId },
    select: { id: true },
  });
  if (!agreement) throw errors.notFound('agreement');
  const links = await deps.db.agreementDocument.findMany({
    where: { agreementId: agreement.id },
    orderBy: { createdAt: 'asc' },
    select: { documentId: true },
  });
  return links.map((l) => l.documentId);
}

function unavailability(documentId: string, document: ScopedDocument | undefined) {
  const reason = (code: (typeof UNAVAILABLE_REASONS)[number], message: string) => [
    { document_id: documentId, reason: code, message },
  ];
  if (!document) return reason('not_found', 'No such document in this organization.');
  const index = document.searchIndex;
  if (index?.indexedAt) return [];
  if (!index)
    return reason('not_indexed', 'The document is not indexed; POST /v1/documents/{id}/index prepares it for search.');
  if (index.status === 'failed')
    return reason('failed', (index.failure as { message?: string } | null)?.message ?? 'Indexing failed.');
  return reason('indexing', 'The document is being indexed; search again when its run has finished.');
}

async function rankedPassages(
  deps: Deps,
  organizationId: string,
  documentIds: string[],
  request: SearchRequest,
): Promise<PassageRow[]> {
  const rows = await deps.db.$queryRaw<(Omit<PassageRow, 'highlights'> & { headline: string })[]>`
    WITH hits AS (
      SELECT p.document_id, p.ordinal, p.page, p.sheet, p.start_offset, p.end_offset, p.text,
             ts_rank_cd(p.search_vector, q.query) AS score, q.query
      FROM document_passages p, websearch_to_tsquery(${SEARCH_CONFIG}::regconfig, ${foldForSearch(normalizeQuery(request.query))}) AS q(query)
      WHERE p.organization_id = ${organizationId}::uuid AND p.document_id = ANY(${documentIds}::uuid[]) AND p.search_vector @@ q.query
      ORDER BY score DESC, p.document_id, p.ordinal
      LIMIT ${request.limit + 1}
    )
    SELECT document_id::text AS document_id, ordinal, page, sheet, start_offset, end_offset, text, score::float8 AS score,
           ts_headline(${SEARCH_CONFIG}::regconfig, text, query, ${headlineOptions()}) AS headline
    FROM hits
    ORDER BY score DESC, document_id, ordinal`;
  return rows.map(({ headline, ...row }) => ({ ...row, highlights: parseHeadline(headline, row.text) ?? [] }));
}

async function exactPassages(
  deps: Deps,
  organizationId: string,
  documentIds: string[],
  request: SearchRequest,
): Promise<PassageRow[]> {
  const pattern = phrasePattern(request.query);
  const rows = await deps.db.$queryRaw<Omit<PassageRow, 'highlights' | 'score'>[]>`
    SELECT document_id::text AS document_id, ordinal, page, sheet, start_offset, end_offset, text
    FROM document_passages
    WHERE organization_id = ${organizationId}::uuid AND document_id = ANY(${documentIds}::uuid[]) AND text ~* ${pattern}
    ORDER BY array_position(${documentIds}::uuid[], document_id), ordinal
    LIMIT ${request.limit + 1}`;
  return rows.map((row) => ({ ...row, score: null, highlights: phraseMatches(row.text, pattern) }));
}
