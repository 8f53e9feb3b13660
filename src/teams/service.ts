import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Db } from '../db/client.js';
import { Prisma } from '../db/client.js';
import type { AppDeps } from '../deps.js';
import { errors } from '../http/errors.js';
import { keyset, pageOf, resolvePage, type SortColumn } from '../http/pagination.js';
import { assertSentAsRead } from '../http/schemas.js';
import { sameJson } from '../shared/canonical-json.js';
import { validateTeamFilter } from './filter/index.js';
import type { teamListQuery } from './schemas.js';

export const TEAM_INCLUDE = { members: { select: { userId: true }, orderBy: { userId: 'asc' as const } } } as const;
export type TeamRecord = Prisma.TeamGetPayload<{ include: typeof TEAM_INCLUDE }>;

export function serializeTeam(team: TeamRecord) {
  const stored = team.filter as unknown;
  const validation = stored === null ? null : validateTeamFilter(stored);
  return {
    id: team.id,
    name: team.name,
    user_ids: team.members.map((m) => m.userId),
    filter: stored,
    filter_status: validation === null ? ('none' as const) : validation.ok ? ('valid' as const) : ('invalid' as const),
    ...(validation && !validation.ok ? { filter_errors: validation.errors } : {}),
    created_at: team.createdAt.toISOString(),
    updated_at: team.updatedAt.toISOString(),
  };
}

export async function findTeam(db: Db, organizationId: string, id: string): Promise<TeamRecord> {
  const team = await db.team.findFirst({ where: { id, organizationId }, include: TEAM_INCLUDE });
  if (!team) throw errors.notFound('team');
  return team;
}

const SORTS: Record<string, SortColumn> = {
  created_at: { field: 'createdAt', kind: 'date' },
  name: { field: 'name', kind: 'string' },
};

// A page of the organization's teams: newest first, or by name (A to Z).
export async function listTeamsPage(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  organizationId: string,
  query: z.infer<typeof teamListQuery>,
) {
  const { limit, cursor, sort, direction } = query;
  const defaults =
    sort === 'name' ? { sort, direction: 'asc' as const } : { sort: 'created_at', direction: 'desc' as const };
  const page = resolvePage(deps.cursors, { limit, cursor, sort, direction }, defaults, {});
  const column = SORTS[page.sort]!;
  const { where, orderBy, take } = keyset(page, column);
  const rows = await deps.db.team.findMany({
    where: { AND: [{ organizationId }, where] },
    orderBy,
    take,
    include: TEAM_INCLUDE,
  });
  const { rows: visible, nextCursor } = pageOf(deps.cursors, page, column, rows);
  return { data: visible.map(serializeTeam), next_cursor: nextCursor };
}

// Teams only narrow what members see; a member must belong to the organization.
async function assertMembers(db: Pick<Db, 'membership'>, organizationId: string, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  const unique = [...new Set(userIds)];
  const found = await db.membership.findMany({
    where: { organizationId, userId: { in: unique } },
    select: { userId: true },
  });
  const known = new Set(found.map((m) => m.userId));
  const missing = unique.filter((id) => !known.has(id));
  if (missing.length > 0) {
    throw errors.validation(
      'Every user id must be a member of the organization.',
      missing.map((id) => ({ field: 'user_ids', message: `${id} is not a member of the organization` })),
    );
  }
}

const jsonOrNull = (value: unknown) => (value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue));

export async function createTeam(
  db: Db,
  organizationId: string,
  input: { name: string; user_ids: string[]; filter: unknown },
): Promise<TeamRecord> {
  await assertMembers(db, organizationId, input.user_ids);
  const id = randomUUID();
  return db.team.create({
    data: {
      id,
      organizationId,
      name: input.name,
      filter: jsonOrNull(input.filter),
      members: { create: [...new Set(input.user_ids)].map((userId) => ({ userId })) },
    },
    include: TEAM_INCLUDE,
  });
}

// Only what differs is written, so sending a team back as read changes nothing (not even
// updated_at). A filter sent exactly as stored is left alone, even an invalid legacy one; any other
// filter must validate. Every check runs before the write: a refused request changes nothing.
export async function patchTeam(
  db: Db,
  team: TeamRecord,
  input: { name?: string; filter?: unknown; user_ids?: string[] },
): Promise<TeamRecord> {
  if (input.user_ids !== undefined) {
    const sorted = [...new Set(input.user_ids)].sort();
    assertSentAsRead({ user_ids: sorted }, { user_ids: team.members.map((m) => m.userId) }, ['user_ids']);
  }
  const data: Prisma.TeamUpdateInput = {};
  if (input.name !== undefined && input.name !== team.name) data.name = input.name;
  if (input.filter !== undefined && !sameJson(input.filter, team.filter)) {
    if (input.filter !== null) {
      const validation = validateTeamFilter(input.filter);
      if (!validation.ok)
        throw errors.validation('The filter is not a valid team filter; nothing was changed.', validation.errors);
    }
    data.filter = jsonOrNull(input.filter);
  }
  if (Object.keys(data).length === 0) return team;
  return db.team.update({ where: { id: team.id }, data, include: TEAM_INCLUDE });
}

export async function addMembers(db: Db, team: TeamRecord, userIds: string[]): Promise<TeamRecord> {
  await assertMembers(db, team.organizationId, userIds);
  // Adding someone already in the team changes nothing (not even updated_at).
  const current = new Set(team.members.map((m) => m.userId));
  const added = [...new Set(userIds)].filter((id) => !current.has(id));
  if (added.length === 0) return team;
  await db.$transaction([
    db.teamMember.createMany({ data: added.map((userId) => ({ teamId: team.id, userId })), skipDuplicates: true }),
    db.team.update({ where: { id: team.id }, data: { updatedAt: new Date() } }),
  ]);
  return findTeam(db, team.organizationId, team.id);
}

export async function removeMember(db: Db, team: TeamRecord, userId: string): Promise<TeamRecord> {
  // Removing someone not in the team changes nothing.
  if (!team.members.some((m) => m.userId === userId)) return team;
  await db.$transaction([
    db.teamMember.deleteMany({ where: { teamId: team.id, userId } }),
    db.team.update({ where: { id: team.id }, data: { updatedAt: new Date() } }),
  ]);
  return findTeam(db, team.organizationId, team.id);
}

// The records the team covered are untouched: a team only narrows what its members see.
export async function deleteTeam(db: Db, team: TeamRecord): Promise<void> {
  await db.team.deleteMany({ where: { id: team.id, organizationId: team.organizationId } });
}
