import { Prisma } from '../db/client.js';

// The building blocks of a list's filters written as SQL (the lists whose page is one statement:
// src/<invoices|alerts|agreements>/list.ts), beside their Prisma twins in ./schemas.ts.

// Every condition that was sent, joined with AND (TRUE when none was).
export function allOf(conditions: (Prisma.Sql | null)[]): Prisma.Sql {
  const sent = conditions.filter((condition): condition is Prisma.Sql => condition !== null);
  return sent.length === 0 ? Prisma.sql`TRUE` : Prisma.sql`(${Prisma.join(sent, ' AND ')})`;
}

// Relation filters joined by the list's join_operator (and by default), as joinRelations does.
export function joinRelationsSql(
  operator: 'and' | 'or' | undefined,
  relations: (Prisma.Sql | null)[],
): Prisma.Sql | null {
  const sent = relations.filter((relation): relation is Prisma.Sql => relation !== null);
  if (sent.length === 0) return null;
  return Prisma.sql`(${Prisma.join(sent, operator === 'or' ? ' OR ' : ' AND ')})`;
}

// created_from (inclusive) and created_before (exclusive) on the row `alias` (a constant of the caller).
export function createdRangeSql(
  filters: { created_from?: string; created_before?: string },
  alias: string,
): Prisma.Sql | null {
  if (!filters.created_from && !filters.created_before) return null;
  const createdAt = Prisma.raw(`${alias}.created_at`);
  return allOf([
    filters.created_from ? Prisma.sql`${createdAt} >= ${filters.created_from}::timestamptz` : null,
    filters.created_before ? Prisma.sql`${createdAt} < ${filters.created_before}::timestamptz` : null,
  ]);
}

// LIKE's wildcards in a search are literal characters (one pass, no backtracking).
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

// `column` (SQL over the caller's constants) contains `search` in any case: ILIKE, which the
// trigram indexes serve.
export function containsSql(column: string, search: string): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(column)} ILIKE ${`%${escapeLike(search)}%`}`;
}
