// The worker's side of learning from a correction (docs/invoice-parsing.md, "Learning from a
// correction"): an import whose PDF shows a supplier with a recorded lesson learns the layout from
// the lesson's document (once; the memory is stored) and reads the PDF again with it. Reading the
// corrected PDF's words is parser work (a helper process, up to 20 s), so it happens here and not
// in the API's PATCH; and it happens when the memory is first needed, inside the import that
// needs it, so the next invoice of the supplier is always read with the latest correction.
import { Prisma, type Db } from '../db/client.js';
import type { SupplierLayout } from '../generated/prisma/client.js';
import { isMissingObject, type ObjectStorage } from '../storage/object-storage.js';
import { MAX_INVOICE_FILE_BYTES } from './imports.js';
import type { LayoutLesson } from './layout-lessons.js';
import { parseInvoiceDocument, type ParseInput, type ParseOutcome } from './parsing/index.js';
import { learnLayout } from './parsing/layout/learn.js';
import type { LayoutMemory, SupplierLayoutMemory } from './parsing/layout/memory.js';
import { readPdfWordsIsolated } from './parsing/pdf.js';

/** A document shows one supplier; more rows for its keys come only from concurrent corrections. */
const LAYOUTS_PER_DOCUMENT = 3;

interface Deps {
  db: Db;
  storage: ObjectStorage;
}

/**
 * The outcome as it stands, or the PDF read again with the remembered layout of the supplier its
 * first reading recognised (by org number, VAT id or IBAN) in this organization.
 */
export async function withLayoutMemory(
  deps: Deps,
  organizationId: string,
  input: ParseInput,
  outcome: ParseOutcome,
): Promise<ParseOutcome> {
  if (outcome.kind !== 'invoice' || outcome.invoice.extraction.method !== 'pdf_text') return outcome;
  const keys = outcome.invoice.extraction.supplierKeys ?? [];
  if (keys.length === 0) return outcome;
  const memories = await learnedLayoutsFor(deps, organizationId, keys);
  if (memories.length === 0) return outcome;
  const again = await parseInvoiceDocument({ ...input, layoutMemories: memories });
  // The second reading only differs by the memory; should it fail anyway, the first one stands.
  return again.kind === 'invoice' ? again : outcome;
}

export async function learnedLayoutsFor(
  deps: Deps,
  organizationId: string,
  keys: readonly string[],
): Promise<SupplierLayoutMemory[]> {
  const layouts = await deps.db.supplierLayout.findMany({
    where: { organizationId, supplierKeys: { hasSome: [...keys] } },
    orderBy: { updatedAt: 'desc' },
    take: LAYOUTS_PER_DOCUMENT,
  });
  const memories: SupplierLayoutMemory[] = [];
  for (const layout of layouts) {
    const memory = (layout.memory as LayoutMemory | null) ?? (await learn(deps, layout));
    if (memory && Object.keys(memory.fields).length > 0) memories.push({ supplierKeys: layout.supplierKeys, memory });
  }
  return memories;
}

/**
 * Learns the lesson's layout from its document's words and stores it, unless a newer correction
 * replaced the lesson meanwhile (that one is learned next time). Learning again gives the same
 * memory, so a retried import may do it twice. A document without a text layer (or gone) teaches
 * an empty memory, so it is not read again on every import.
 */
async function learn(deps: Deps, layout: SupplierLayout): Promise<LayoutMemory> {
  const lesson = layout.lesson as unknown as LayoutLesson;
  const words = await wordsOf(deps, layout.organizationId, lesson.documentId);
  const memory: LayoutMemory = words
    ? learnLayout(words, lesson.confirmed)
    : { version: 1, fields: {}, columns: null, misread: [] };
  await deps.db.supplierLayout.updateMany({
    where: { id: layout.id, organizationId: layout.organizationId, updatedAt: layout.updatedAt },
    data: { memory: memory as unknown as Prisma.InputJsonValue, learnedAt: new Date() },
  });
  return memory;
}

async function wordsOf(deps: Deps, organizationId: string, documentId: string) {
  const document = await deps.db.document.findFirst({ where: { id: documentId, organizationId } });
  if (!document || document.fileSize > MAX_INVOICE_FILE_BYTES) return null;
  const bytes = await deps.storage.read(document.storageKey, MAX_INVOICE_FILE_BYTES).catch((error: unknown) => {
    if (isMissingObject(error)) return null;
    throw error;
  });
  return bytes ? readPdfWordsIsolated(bytes) : null;
}
