import { z } from 'zod';
import { keyset, pageOf, pageParams, resolvePage, type SortColumn } from '../http/pagination.js';
import { defineRoute } from '../http/route.js';
import { containsText, listResponse } from '../http/schemas.js';

// Suppliers and recipients: the parties on invoices, de-duplicated per organization by org
// number / VAT id when invoices are imported. Both lists share one shape.

const addressSchema = z
  .object({
    lines: z.array(z.string()),
    city: z.string().nullable(),
    postal_code: z.string().nullable(),
    country_code: z.string().nullable(),
  })
  .nullable();

export const partySchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    org_number: z.string().nullable(),
    vat_id: z.string().nullable(),
    country_code: z.string().nullable(),
    address: addressSchema,
    created_at: z.string().datetime(),
  })
  .meta({ id: 'Party' });

const NAME: SortColumn = { field: 'name', kind: 'string' };
const CREATED: SortColumn = { field: 'createdAt', kind: 'date' };

const listQuery = z.object({
  ...pageParams(['name', 'created_at']),
  search: z.string().min(1).max(200).optional().meta({ description: 'Matches name, org number or VAT id' }),
});

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

function partyListRoute<const Id extends string>(kind: 'supplier' | 'recipient', path: string, operationId: Id) {
  return defineRoute({
    method: 'get',
    path,
    operationId,
    summary: `List ${kind}s to look up their IDs`,
    tag: 'Parties',
    access: { level: 'read' },
    query: listQuery,
    fieldsOf: partySchema,
    responses: { 200: { description: `A page of ${kind}s`, schema: listResponse(partySchema) } },
    handler: async ({ query, actor, deps }) => {
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
      const args = { where: { AND: [{ organizationId: actor.organizationId }, search, where] }, orderBy, take };
      const rows: PartyRow[] =
        kind === 'supplier' ? await deps.db.supplier.findMany(args) : await deps.db.recipient.findMany(args);
      const { rows: visible, nextCursor } = pageOf(deps.cursors, page, column, rows);
      return { body: { data: visible.map(serializeParty), next_cursor: nextCursor } };
    },
  });
}

export const partyRoutes = [
  partyListRoute('supplier', '/v1/suppliers', 'listSuppliers'),
  partyListRoute('recipient', '/v1/recipients', 'listRecipients'),
];
