import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../deps.js';
import { Prisma } from '../db/client.js';
import { errors } from '../http/errors.js';
import { keyset, pageOf, resolvePage, type SortColumn } from '../http/pagination.js';

const NAME: SortColumn = { field: 'name', kind: 'string' };

const serializeTag = (tag: { id: string; name: string; createdAt: Date }) => ({
  id: tag.id,
  name: tag.name,
  created_at: tag.createdAt.toISOString(),
});

export async function listTags(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  organizationId: string,
  query: { limit: number; cursor?: string; sort?: string; direction?: 'asc' | 'desc' },
) {
  const page = resolvePage(deps.cursors, query, { sort: 'name', direction: 'asc' }, {});
  const { where, orderBy, take } = keyset(page, NAME);
  const rows = await deps.db.tag.findMany({ where: { AND: [{ organizationId }, where] }, orderBy, take });
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, NAME, rows);
  return { data: visible.map(serializeTag), next_cursor: nextCursor };
}

export async function createTag(deps: Pick<AppDeps, 'db'>, organizationId: string, name: string) {
  try {
    return serializeTag(await deps.db.tag.create({ data: { id: randomUUID(), organizationId, name } }));
  } catch (error) {
    if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')) throw error;
    const existing = await deps.db.tag.findFirstOrThrow({ where: { organizationId, name } });
    throw errors.conflict('tag_exists', `A tag named "${name}" already exists.`, { existing_tag_id: existing.id });
  }
}
