import type { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { keyset, pageOf, resolvePage, type SortColumn } from '../http/pagination.js';
import { containsText } from '../http/schemas.js';
import type { addressSchema, partyListQuery } from './schemas.js';

export type PartyKind = 'supplier' | 'recipient';

const NAME: SortColumn = { field: 'name', kind: 'string' };
const CREATED: SortColumn = { field: 'createdAt', kind: 'date' };

interface PartyRow {
  id: string;
  name: string;
  orgNumber: string | null;
  vatId: string | null;
  countryCode: string | null;
  address: unknown;
  createdAt: Date;
}

function serializeParty(row: PartyRow) {
  return {
    id: row.id,
    name: row.name,
    org_number: row.orgNumber,
    vat_id: row.vatId,
    country_code: row.countryCode,
    address: (row.address as z.infer<typeof addressSchema>) ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

// A page of the organization's suppliers or recipients, by name unless sort=created_at.
export async function listPartiesPage(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  organizationId: string,
  kind: PartyKind,
  query: z.infer<typeof partyListQuery>,
) {
  const { limit, cursor, sort, direction, fields, ...filters } = query;
  const page = resolvePage(
    deps.cursors,
    { limit, cursor, sort, direction },
    { sort: 'name', direction: 'asc' },
    filters,
  );
  const column = page.sort === 'created_at' ? CREATED : NAME;
  const { where, orderBy, take } = keyset(page, column);
  const search = filters.search
    ? {
        OR: [
          { name: containsText(filters.search) },
          { orgNumber: { startsWith: filters.search } },
          { vatId: { startsWith: filters.search, mode: 'insensitive' as const } },
        ],
      }
    : {};
  const args = { where: { AND: [{ organizationId }, search, where] }, orderBy, take };
  const rows: PartyRow[] =
    kind === 'supplier' ? await deps.db.supplier.findMany(args) : await deps.db.recipient.findMany(args);
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, column, rows);
  return { data: visible.map(serializeParty), next_cursor: nextCursor };
}
