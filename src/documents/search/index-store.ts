import type { ExtractionResult, Passage } from '../extraction-model.js';
import { Prisma, type Db } from '../../db/client.js';
import { foldForSearch, SEARCH_CONFIG } from './text.js';
import { publicFailure } from '../../shared/failures.js';

// Writes a document's passages and its index state. Passages are replaced as a whole, under a
// row lock on the document's index row, so two runs indexing the same document take turns.

// A type, not an interface: Prisma's JSON input accepts it.
export type IndexFailure = { code: string; message: string };

export interface IndexSummary {
  status: 'completed' | 'failed';
  format: string | null;
  passage_count: number;
  partial: boolean;
  partial_reason: string | null;
  failure: IndexFailure | null;
}

const INSERT_BATCH = 500;

// Creates the index row if needed and marks it processing for this run (search keeps using the
// passages of an earlier index meanwhile).
export async function markIndexing(
  db: Db,
  document: { id: string; organizationId: string },
  runId: string,
): Promise<void> {
  await db.documentIndex.upsert({
    where: { documentId: document.id },
    create: {
      documentId: document.id,
      organizationId: document.organizationId,
      status: 'processing',
      workflowRunId: runId,
    },
    update: { status: 'processing', workflowRunId: runId },
  });
}

export function partialReasonOf(extraction: ExtractionResult, maxPassages: number): string | null {
  if (extraction.kind !== 'text') return null;
  if (extraction.passages.length > maxPassages) {
    return `Only the first ${maxPassages} of ${extraction.passages.length} passages are indexed; the rest of the document is not searched.`;
  }
  if (extraction.truncated)
    return 'Text extraction stopped at a limit (text length, page count or time); the rest of the document is not searched.';
  return null;
}

export async function storeExtraction(
  db: Db,
  document: { id: string; organizationId: string },
  runId: string,
  extraction: ExtractionResult,
  maxPassages: number,
): Promise<IndexSummary> {
  const summary = summarize(extraction, maxPassages);
  const passages = extraction.kind === 'text' ? extraction.passages.slice(0, maxPassages) : [];
  await db.$transaction(
    async (tx) => {
      await tx.documentIndex.upsert({
        where: { documentId: document.id },
        create: { documentId: document.id, organizationId: document.organizationId, workflowRunId: runId },
        update: {},
      });
      await tx.$queryRaw`SELECT 1 FROM document_indexes WHERE document_id = ${document.id}::uuid FOR UPDATE`;
      await tx.$executeRaw`DELETE FROM document_passages WHERE document_id = ${document.id}::uuid`;
      for (let from = 0; from < passages.length; from += INSERT_BATCH) {
        await insertPassages(tx, document, passages.slice(from, from + INSERT_BATCH));
      }
      await tx.documentIndex.update({
        where: { documentId: document.id },
        data: {
          status: summary.status,
          format: summary.format,
          passageCount: summary.passage_count,
          characterCount: extraction.kind === 'text' ? extraction.characterCount : null,
          partial: summary.partial,
          partialReason: summary.partial_reason,
          failure: summary.failure ?? Prisma.DbNull,
          workflowRunId: runId,
          indexedAt: summary.status === 'completed' ? new Date() : null,
        },
      });
    },
    { timeout: 120_000 },
  );
  return summary;
}

function summarize(extraction: ExtractionResult, maxPassages: number): IndexSummary {
  if (extraction.kind === 'failed') {
    return {
      status: 'failed',
      format: null,
      passage_count: 0,
      partial: false,
      partial_reason: null,
      failure: publicFailure({ code: extraction.code, message: extraction.message }),
    };
  }
  const partialReason = partialReasonOf(extraction, maxPassages);
  return {
    status: 'completed',
    format: extraction.format,
    passage_count: Math.min(extraction.passages.length, maxPassages),
    partial: partialReason !== null,
    partial_reason: partialReason,
    failure: null,
  };
}

async function insertPassages(
  tx: Prisma.TransactionClient,
  document: { id: string; organizationId: string },
  passages: Passage[],
): Promise<void> {
  const column = <T>(pick: (p: Passage) => T) => passages.map(pick);
  await tx.$executeRaw`
    INSERT INTO document_passages (document_id, ordinal, organization_id, page, sheet, start_offset, end_offset, text, search_vector)
    SELECT ${document.id}::uuid, p.ordinal, ${document.organizationId}::uuid, p.page, p.sheet, p.start_offset, p.end_offset, p.text,
           to_tsvector(${SEARCH_CONFIG}::regconfig, p.folded)
    FROM unnest(${column((p) => p.index)}::int[], ${column((p) => p.page)}::int[], ${column((p) => p.sheet)}::text[],
                ${column((p) => p.startOffset)}::int[], ${column((p) => p.endOffset)}::int[], ${column((p) => p.text)}::text[],
                ${column((p) => foldForSearch(p.text))}::text[])
         AS p(ordinal, page, sheet, start_offset, end_offset, text, folded)`;
}
