import type { Prisma } from '../../db/client.js';

// A price list can hold tens of thousands of rows. Prisma's createMany costs too much per row
// here (docs/benchmarks.md); one INSERT ... SELECT FROM unnest(...) per chunk passes each
// column as one array parameter instead.
const CHUNK = 5000;

export interface PriceItemRow {
  id: string;
  organizationId: string;
  agreementId: string;
  description: string;
  sellerItemId: string | null;
  unit: string | null;
  currencyCode: string | null;
  priceType: 'amount' | 'rate';
  amount: string | null;
  fraction: string | null;
  basis: string | null;
  validFrom?: string | null;
  validUntil: string | null;
  /** JSON text of [{fromUnit, quantity, toUnit}], or null. */
  unitConversions?: string | null;
  sourceDocumentId: string | null;
}

export interface ImportRowRecord {
  importId: string;
  position: number;
  sheet: string;
  rowNumber: number;
  outcome: string;
  reason: string | null;
  raw: unknown;
  priceItemId: string | null;
}

function chunks<T>(rows: T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < rows.length; start += CHUNK) result.push(rows.slice(start, start + CHUNK));
  return result;
}

const column = <T, V>(rows: T[], pick: (row: T) => V): V[] => rows.map(pick);

export async function insertPriceItems(tx: Prisma.TransactionClient, items: PriceItemRow[]): Promise<void> {
  for (const rows of chunks(items)) {
    await tx.$executeRaw`
      INSERT INTO price_items (id, organization_id, agreement_id, description, seller_item_id, unit, currency_code,
                               price_type, amount, fraction, basis, valid_from, valid_until, unit_conversions, source_document_id, updated_at)
      SELECT id, organization_id, agreement_id, description, seller_item_id, unit, currency_code,
             price_type::"PriceType", amount, fraction, basis, valid_from, valid_until, unit_conversions, source_document_id, now()
        FROM unnest(${column(rows, (r) => r.id)}::uuid[], ${column(rows, (r) => r.organizationId)}::uuid[],
                    ${column(rows, (r) => r.agreementId)}::uuid[], ${column(rows, (r) => r.description)}::text[],
                    ${column(rows, (r) => r.sellerItemId)}::text[], ${column(rows, (r) => r.unit)}::text[],
                    ${column(rows, (r) => r.currencyCode)}::text[], ${column(rows, (r) => r.priceType)}::text[],
                    ${column(rows, (r) => r.amount)}::numeric[], ${column(rows, (r) => r.fraction)}::numeric[],
                    ${column(rows, (r) => r.basis)}::text[], ${column(rows, (r) => r.validFrom ?? null)}::date[],
                    ${column(rows, (r) => r.validUntil)}::date[], ${column(rows, (r) => r.unitConversions ?? null)}::jsonb[],
                    ${column(rows, (r) => r.sourceDocumentId)}::uuid[])
             AS t(id, organization_id, agreement_id, description, seller_item_id, unit, currency_code,
                  price_type, amount, fraction, basis, valid_from, valid_until, unit_conversions, source_document_id)`;
  }
}

export async function insertImportRows(tx: Prisma.TransactionClient, records: ImportRowRecord[]): Promise<void> {
  for (const rows of chunks(records)) {
    await tx.$executeRaw`
      INSERT INTO price_import_rows (import_id, position, sheet, row_number, outcome, reason, raw, price_item_id)
      SELECT * FROM unnest(${column(rows, (r) => r.importId)}::uuid[], ${column(rows, (r) => r.position)}::int[],
                           ${column(rows, (r) => r.sheet)}::text[], ${column(rows, (r) => r.rowNumber)}::int[],
                           ${column(rows, (r) => r.outcome)}::text[], ${column(rows, (r) => r.reason)}::text[],
                           ${column(rows, (r) => JSON.stringify(r.raw))}::jsonb[], ${column(rows, (r) => r.priceItemId)}::uuid[])`;
  }
}
