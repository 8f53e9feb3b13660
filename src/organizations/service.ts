import type { z } from 'zod';
import type { MemberActor, UnscopedActor } from '../auth/actor.js';
import { atLeast } from '../auth/levels.js';
import type { Db } from '../db/client.js';
import type { AppDeps } from '../deps.js';
import { keyset, pageOf, pageOfRanked, resolvePage, type SortColumn } from '../http/pagination.js';
import type { memberListQuery, organizationListQuery } from './schemas.js';

// Who the caller is and where: their organizations, the one of the request, themselves and its members.

type Deps = Pick<AppDeps, 'db' | 'cursors'>;

const JOINED: SortColumn = { field: 'createdAt', kind: 'date' };

// The organizations the caller's user belongs to, by name, then id.
export async function listOrganizationsPage(
  deps: Deps,
  actor: MemberActor | UnscopedActor,
  query: z.infer<typeof organizationListQuery>,
) {
  const memberships = await deps.db.membership.findMany({
    where: { userId: actor.userId },
    include: { organization: true },
  });
  const data = memberships.map((m) => ({
    id: m.organization.id,
    name: m.organization.name,
    role: m.role,
    currency_code: m.organization.currencyCode,
  }));
  // A person's few organizations, paged like every list: by name, then id.
  const page = resolvePage(deps.cursors, query, { sort: 'name', direction: 'asc' }, {});
  const { rows, nextCursor } = pageOfRanked(deps.cursors, page, data, (o) => [o.name, o.id]);
  return { data: rows, next_cursor: nextCursor };
}

// The organization of the request and what the caller can do in it.
export async function getOrganizationAccess(db: Db, actor: MemberActor) {
  const organization = await db.organization.findUniqueOrThrow({ where: { id: actor.organizationId } });
  return {
    id: organization.id,
    name: organization.name,
    currency_code: organization.currencyCode,
    role: actor.role,
    key_level: actor.keyLevel,
    level: actor.level,
    can: { read: true, write: atLeast(actor.level, 'write'), admin: atLeast(actor.level, 'admin') },
    settings: { line_rounding_minor_units: organization.lineRoundingMinorUnits },
  };
}

// The caller's user and the API key of the request (none for a session of the web application).
export async function getMe(db: Db, actor: MemberActor) {
  const [user, apiKey] = await Promise.all([
    db.user.findUniqueOrThrow({ where: { id: actor.userId } }),
    // A session bearer has no key.
    actor.apiKeyId ? db.apiKey.findUniqueOrThrow({ where: { id: actor.apiKeyId } }) : null,
  ]);
  return {
    id: user.id,
    user_id: user.id,
    email: user.email,
    name: user.name,
    organization_id: actor.organizationId,
    role: actor.role,
    api_key: apiKey ? { id: apiKey.id, name: apiKey.name, level: apiKey.level } : null,
  };
}

// A page of the organization's members, in the order they joined.
export async function listMembersPage(deps: Deps, organizationId: string, query: z.infer<typeof memberListQuery>) {
  const { limit, cursor, sort, direction } = query;
  const page = resolvePage(
    deps.cursors,
    { limit, cursor, sort, direction },
    { sort: 'joined_at', direction: 'asc' },
    {},
  );
  // Memberships have a composite key; the user id is the tie-breaker and the member's id.
  const { where, orderBy, take } = keyset(page, JOINED, 'userId');
  const rows = await deps.db.membership.findMany({
    where: { AND: [{ organizationId }, where] },
    orderBy,
    take,
    include: { user: true },
  });
  const withIds = rows.map((row) => ({ ...row, id: row.userId }));
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, JOINED, withIds);
  const data = visible.map((m) => ({
    id: m.userId,
    user_id: m.userId,
    email: m.user.email,
    name: m.user.name,
    role: m.role,
    joined_at: m.createdAt.toISOString(),
  }));
  return { data, next_cursor: nextCursor };
}
