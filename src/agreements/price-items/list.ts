import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { errors } from '../../http/errors.js';
import { keyset, pageOf, pageParams, resolvePage, type SortColumn } from '../../http/pagination.js';
import { toSafeCsv } from '../../shared/spreadsheet-cells.js';
import { findAgreement } from '../service.js';
import { priceItemWhere } from './filters.js';
import { filtersParam } from './schemas.js';
import { serializePriceItem } from './service.js';

// An agreement's price items as a page of the list and as one CSV file, with the same search,
// filters and sort.

type Deps = Pick<AppDeps, 'db' | 'cursors'>;

const SORTS: Record<string, SortColumn> = {
  description: { field: 'description', kind: 'string' },
  valid_from: { field: 'validFrom', kind: 'date', nullable: true },
  valid_until: { field: 'validUntil', kind: 'date', nullable: true },
  created_at: { field: 'createdAt', kind: 'date' },
};
// An export is one file; beyond this, narrow it with filters.
const MAX_EXPORT_ROWS = 100_000;

const selection = { search: z.string().min(1).max(200).optional(), filters: filtersParam.optional() };
export const priceItemListQuery = z.object({
  ...pageParams(['description', 'valid_from', 'valid_until', 'created_at']),
  ...selection,
});
export const priceItemExportQuery = z.object({
  sort: z.enum(['description', 'valid_from', 'valid_until', 'created_at']).optional(),
  direction: z.enum(['asc', 'desc']).optional(),
  ...selection,
});

// A page of the price items of an agreement of the organization, by description unless told otherwise.
export async function listPriceItemsPage(
  deps: Deps,
  organizationId: string,
  agreementId: string,
  query: z.infer<typeof priceItemListQuery>,
) {
  const agreement = await findAgreement(deps, organizationId, agreementId);
  const { limit, cursor, sort, direction, fields, ...filters } = query;
  const page = resolvePage(
    deps.cursors,
    { limit, cursor, sort, direction },
    { sort: 'description', direction: 'asc' },
    filters,
  );
  const column = SORTS[page.sort]!;
  const { where, orderBy, take } = keyset(page, column);
  const rows = await deps.db.priceItem.findMany({
    where: { AND: [priceItemWhere(agreement.id, filters.search, filters.filters), where] },
    orderBy,
    take,
  });
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, column, rows);
  return { data: visible.map(serializePriceItem), next_cursor: nextCursor };
}

const EXPORT_COLUMNS = [
  'id',
  'description',
  'seller_item_id',
  'unit',
  'currency_code',
  'price_type',
  'amount',
  'fraction',
  'basis',
  'valid_from',
  'valid_until',
  'unit_conversions',
] as const;

// Every matching price item of an agreement of the organization as CSV (at most MAX_EXPORT_ROWS).
export async function exportPriceItemsCsv(
  deps: Pick<AppDeps, 'db'>,
  organizationId: string,
  agreementId: string,
  query: z.infer<typeof priceItemExportQuery>,
): Promise<{ agreementId: string; csv: string }> {
  const agreement = await findAgreement(deps, organizationId, agreementId);
  const column = SORTS[query.sort ?? 'description']!;
  const rows = await deps.db.priceItem.findMany({
    where: priceItemWhere(agreement.id, query.search, query.filters),
    orderBy: [
      {
        [column.field]: column.nullable
          ? { sort: query.direction ?? 'asc', nulls: 'last' }
          : (query.direction ?? 'asc'),
      },
      { id: 'asc' },
    ],
    take: MAX_EXPORT_ROWS + 1,
  });
  if (rows.length > MAX_EXPORT_ROWS)
    throw errors.validation(
      `More than ${MAX_EXPORT_ROWS} price items match; narrow the export with search or filters.`,
    );
  const csv = toSafeCsv(
    rows.map(serializePriceItem).map((item) => ({
      id: item.id,
      description: item.description,
      seller_item_id: item.seller_item_id ?? '',
      unit: item.unit ?? '',
      currency_code: item.currency_code ?? '',
      price_type: item.price.type,
      amount: item.price.type === 'amount' ? item.price.amount : '',
      fraction: item.price.type === 'rate' ? item.price.fraction : '',
      basis: item.price.type === 'rate' ? item.price.basis : '',
      valid_from: item.valid_from ?? '',
      valid_until: item.valid_until ?? '',
      unit_conversions: item.unit_conversions.map((c) => `1 ${c.from_unit} = ${c.quantity} ${c.to_unit}`).join('; '),
    })),
    { columns: [...EXPORT_COLUMNS], numberColumns: ['amount', 'fraction'] },
  );
  return { agreementId: agreement.id, csv };
}
