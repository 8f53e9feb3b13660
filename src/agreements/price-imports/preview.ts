import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { findDocuments, sealDocument } from '../../documents/service.js';
import { publicFailure } from '../../shared/failures.js';
import { LIMITS, readPriceListIsolated } from '../price-lists/index.js';
import type { AgreementWithLinks } from '../service.js';
import { readItemKey, storedItemKey } from './item-key.js';
import type { PriceImportEntry } from './service.js';

// POST /v1/agreements/{id}/price-imports/preview: what an import of this entry would find, row by
// row, with each row's would-be outcome (added, skipped as a duplicate, rejected with its reason,
// or not_added when the list cannot be read completely and the import would add nothing), without
// saving anything. The same reader as the import's activity (readPriceListIsolated) and the same
// duplicate rule (the item keys of item-key.ts against the agreement's items as the import's mode leaves them).
//
// Bounded: the reader's own file limit (LIMITS.maxInputBytes), PREVIEW_CPU_MS of the helper's CPU
// once it reads (the pool ends a read at WALL_CLOCK_FACTOR times that in wall-clock time; a cold
// helper's start is not counted, as it took 25 s and more on a loaded machine), no OCR (a scanned
// PDF is answered as `scanned`: only the import OCRs), the first PREVIEW_ROWS rows listed (the
// counts cover every row) and each cell cut at PREVIEW_CELL_CHARS characters.

export const PREVIEW_ROWS = 200;
export const PREVIEW_CPU_MS = 15_000;
export const PREVIEW_CELL_CHARS = 200;

type Deps = Pick<AppDeps, 'db' | 'storage'>;

const priceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('amount'), amount: z.string() }),
  z.object({ type: z.literal('rate'), fraction: z.string(), basis: z.string() }),
]);

const previewRowSchema = z.object({
  sheet: z.string(),
  row: z.number().int().meta({ description: 'The row as a person sees it: Excel row number or CSV line' }),
  outcome: z.enum(['added', 'skipped', 'rejected', 'not_added']).meta({
    description:
      'What the import would do: added; skipped (the same item is on the agreement or earlier in the list); rejected (reason); not_added (the list cannot be read completely, so the import would add nothing)',
  }),
  reason: z.string().nullable(),
  item: z
    .object({
      description: z.string(),
      seller_item_id: z.string().nullable(),
      unit: z.string().nullable(),
      currency_code: z.string(),
      price: priceSchema,
      valid_from: z.string().nullable(),
      valid_until: z.string().nullable(),
    })
    .nullable()
    .meta({ description: 'The price item the row gives (null when rejected)' }),
  cells: z.record(z.string(), z.string()).meta({ description: 'The cells as written, by header' }),
});

export const priceImportPreviewSchema = z
  .object({
    document_id: z.string().uuid(),
    default_currency: z.string(),
    mode: z.enum(['add', 'replace_document', 'replace_all']),
    complete: z.boolean().meta({ description: 'The whole list was read; false means the import would fail' }),
    failure: z.object({ code: z.string(), message: z.string() }).nullable().meta({
      description:
        'Why the list cannot be read completely (the import would fail with extraction_incomplete): e.g. no_header_row, timeout, scanned (a scan: only the import runs OCR)',
    }),
    sheets: z.array(
      z.object({
        name: z.string(),
        header_row: z.number().int().nullable(),
        columns: z.record(z.string(), z.string()).meta({ description: 'Field read from each column: its header' }),
      }),
    ),
    rows: z.object({
      found: z.number().int(),
      added: z.number().int(),
      skipped: z.number().int(),
      rejected: z.number().int(),
      not_added: z.number().int(),
    }),
    data: z.array(previewRowSchema).meta({ description: `The first ${PREVIEW_ROWS} rows, in the list's order` }),
    truncated: z.boolean().meta({ description: `More rows were found than the ${PREVIEW_ROWS} listed` }),
  })
  .meta({ id: 'PriceImportPreview' });

export type PriceImportPreview = z.infer<typeof priceImportPreviewSchema>;
type PreviewRow = PriceImportPreview['data'][number];

// The keys of the items the import would compare against, as its mode leaves them.
async function existingKeys(deps: Deps, agreementId: string, documentId: string, mode: string): Promise<Set<string>> {
  if (mode === 'replace_all') return new Set();
  const items = await deps.db.priceItem.findMany({
    where: {
      agreementId,
      ...(mode === 'replace_document' ? { NOT: { sourceDocumentId: documentId } } : {}),
    },
    select: {
      description: true,
      sellerItemId: true,
      unit: true,
      currencyCode: true,
      priceType: true,
      amount: true,
      fraction: true,
      basis: true,
      validFrom: true,
      validUntil: true,
    },
  });
  return new Set(items.map(storedItemKey));
}

function read(bytes: Buffer, fileName: string, mimeType: string, entry: PriceImportEntry) {
  return readPriceListIsolated(
    {
      bytes,
      fileName,
      mimeType,
      defaultCurrency: entry.default_currency,
      worksheets: entry.worksheets?.length ? entry.worksheets : undefined,
    },
    { timeMs: PREVIEW_CPU_MS, ocr: false },
  );
}

const cut = (text: string) => (text.length > PREVIEW_CELL_CHARS ? `${text.slice(0, PREVIEW_CELL_CHARS - 1)}…` : text);

export async function previewPriceImport(
  deps: Deps,
  agreement: AgreementWithLinks,
  entry: PriceImportEntry,
): Promise<PriceImportPreview> {
  const field = 'entries.0.document_id';
  const [found] = await findDocuments(deps, agreement.organizationId, [entry.document_id]);
  const document = await sealDocument(deps, found!, field);
  const bytes = await deps.storage.read(document.storageKey, LIMITS.maxInputBytes + 1);
  const mode = entry.mode ?? 'add';
  const [result, known] = await Promise.all([
    read(bytes, document.fileName, document.mimeType, entry),
    existingKeys(deps, agreement.id, document.id, mode),
  ]);
  const incomplete = result.kind === 'failed' || !result.complete;
  // Told as the import tells it (publicFailure): our own codes and messages, never a reader's text.
  const incompleteList = { code: 'extraction_incomplete', message: 'The price list could not be read completely.' };
  const failure = incomplete ? { ...publicFailure(result.failure ?? incompleteList, incompleteList) } : null;
  const counts = { found: result.rows.length, added: 0, skipped: 0, rejected: 0, not_added: 0 };
  const data: PreviewRow[] = [];
  // Items the list itself would add: a later equal row is skipped, as the import skips it.
  const inList = new Set<string>();
  for (const row of result.rows) {
    const item = row.outcome === 'accepted' ? row.item : null;
    let outcome: PreviewRow['outcome'];
    let reason: string | null = null;
    if (!item) {
      outcome = 'rejected';
      reason = row.reason;
    } else if (failure) {
      outcome = 'not_added';
      reason = `nothing would be added: ${failure.message}`;
    } else {
      const key = readItemKey(item);
      if (known.has(key) || inList.has(key)) {
        outcome = 'skipped';
        reason = known.has(key)
          ? 'the same price item is already on the agreement'
          : 'the same price item is earlier in this list';
      } else {
        inList.add(key);
        outcome = 'added';
      }
    }
    counts[outcome] += 1;
    if (data.length >= PREVIEW_ROWS) continue;
    data.push({
      sheet: row.sheet,
      row: row.rowNumber,
      outcome,
      reason,
      item: item
        ? {
            description: item.description,
            seller_item_id: item.sellerItemId,
            unit: item.unit,
            currency_code: item.currencyCode,
            price: item.price,
            valid_from: item.validFrom ?? null,
            valid_until: item.validUntil,
          }
        : null,
      cells: Object.fromEntries(Object.entries(row.raw).map(([header, text]) => [header, cut(text)])),
    });
  }
  return {
    document_id: document.id,
    default_currency: entry.default_currency,
    mode,
    complete: !incomplete,
    failure,
    sheets: result.sheets.map((sheet) => ({
      name: sheet.name,
      header_row: sheet.headerRowNumber,
      columns: Object.fromEntries(Object.entries(sheet.columns).filter(([, header]) => header !== undefined)),
    })),
    rows: counts,
    data,
    truncated: result.rows.length > PREVIEW_ROWS,
  };
}
