import { z } from 'zod';
import type { RequestActor } from '../auth/actor.js';
import type { Db } from '../db/client.js';
import { Prisma } from '../db/client.js';
import { errors } from '../http/errors.js';
import { booleanParam, uuidList } from '../http/schemas.js';
import {
  compileCoveredSet,
  compileFilter,
  DEFAULT_ALIAS,
  validateTeamFilter,
  type CoveredSetOptions,
  type FilterTarget,
  type TeamFilter,
} from './filter/index.js';

// `mine` and `team_ids` on the lists, totals, metrics and exports of invoices, agreements, alerts
// and claims (spec: Conventions, Teams row). Spread into a route's query schema; resolve once per
// request with resolveTeamScope. Teams only narrow what is seen: the scope is always combined with
// the organization and every other filter of the request.
export const teamScopeParams = {
  mine: booleanParam.optional().meta({
    description: 'true: only records covered by a team of the caller (the API key owner). Not with team_ids.',
  }),
  team_ids: uuidList.optional().meta({
    description: 'Only records covered by any of these teams, whether or not the caller is a member. Not with mine.',
  }),
};

export interface TeamScopeQuery {
  mine?: boolean;
  team_ids?: string[];
}

export interface TeamScope {
  organizationId: string;
  // The valid filters of the teams in scope; teams without one (or with an invalid one) match nothing.
  filters: TeamFilter[];
}

export const teamScopeQuerySchema = z.object(teamScopeParams);

export async function resolveTeamScope(db: Db, actor: RequestActor, query: TeamScopeQuery): Promise<TeamScope | null> {
  const mine = query.mine === true;
  if (mine && query.team_ids) {
    throw errors.validation('Send mine=true or team_ids, not both.', [
      { field: 'query.mine', message: 'not with team_ids' },
      { field: 'query.team_ids', message: 'not with mine' },
    ]);
  }
  if (!mine && !query.team_ids) return null;
  const organizationId = actor.organizationId;
  if (mine) {
    if (actor.kind !== 'member') {
      throw errors.validation('mine=true needs a personal API key: an ingestion token belongs to no one.', [
        { field: 'query.mine', message: 'needs an API key' },
      ]);
    }
    return scopeOfMember(db, organizationId, actor.userId);
  }
  const teams = await db.team.findMany({
    where: { organizationId, id: { in: query.team_ids! } },
    select: { id: true, filter: true },
  });
  // Another organization's team is as unknown as a team that never existed.
  const known = new Set(teams.map((t) => t.id));
  const missing = [...new Set(query.team_ids)].filter((id) => !known.has(id));
  if (missing.length > 0)
    throw errors.notFound(
      'team',
      missing.map((id) => ({ field: 'query.team_ids', message: `no team ${id}` })),
    );
  return { organizationId, filters: validFilters(teams) };
}

// Whether the person belongs to any team of the organization (the application then shows their
// teams' part by default: src/web/team-view.ts).
export async function belongsToATeam(db: Db, organizationId: string, userId: string): Promise<boolean> {
  const membership = await db.teamMember.findFirst({
    where: { userId, team: { organizationId } },
    select: { teamId: true },
  });
  return membership !== null;
}

// The records covered by any team of this person (mine=true; notifications with scope mine).
export async function scopeOfMember(db: Db, organizationId: string, userId: string): Promise<TeamScope> {
  const teams = await db.team.findMany({
    where: { organizationId, members: { some: { userId } } },
    select: { filter: true },
  });
  return { organizationId, filters: validFilters(teams) };
}

// Teams without a filter, or with one that no longer validates, match nothing: they are left out.
function validFilters(teams: { filter: unknown }[]): TeamFilter[] {
  const filters: TeamFilter[] = [];
  for (const team of teams) {
    if (team.filter === null) continue;
    const validation = validateTeamFilter(team.filter);
    if (validation.ok) filters.push(validation.filter);
  }
  return filters;
}

// SQL boolean: the row `alias` of `target` is covered by some team of the scope.
export function scopeCondition(
  scope: TeamScope,
  target: FilterTarget,
  alias: string = DEFAULT_ALIAS[target],
): Prisma.Sql {
  if (scope.filters.length === 0) return Prisma.sql`FALSE`;
  return Prisma.sql`(${Prisma.join(
    scope.filters.map((filter) => compileFilter(filter, target, { organizationId: scope.organizationId, alias })),
    ' OR ',
  )})`;
}

// SQL boolean for totals and exports: the row `alias` is in the covered set of some team of the
// scope, evaluated once per statement over joins (compileCoveredSet) instead of once per row.
// `ids` narrows the set to a page's candidates.
export function scopeSetCondition(
  scope: TeamScope,
  target: FilterTarget,
  alias: string = DEFAULT_ALIAS[target],
  narrowing: Omit<CoveredSetOptions, 'organizationId'> = {},
): Prisma.Sql {
  if (scope.filters.length === 0) return Prisma.sql`FALSE`;
  const sets = scope.filters.map(
    (filter) =>
      Prisma.sql`(${compileCoveredSet(filter, target, { ...narrowing, organizationId: scope.organizationId })})`,
  );
  return Prisma.sql`${Prisma.raw(alias)}.id IN (${Prisma.join(sets, ' UNION ALL ')})`;
}

// Records with many related invoices (agreements, claims) are checked set-based even for a page:
// their invoices are read once through a hashed join instead of one index probe each.
const SET_BASED_PAGES: ReadonlySet<FilterTarget> = new Set(['agreement', 'claim']);

const TABLE: Record<FilterTarget, Prisma.Sql> = {
  invoice: Prisma.raw('invoices'),
  agreement: Prisma.raw('agreements'),
  alert: Prisma.raw('alerts'),
  claim: Prisma.raw('claims'),
};

// Which of these ids (of one page or batch of a Prisma list) the scope covers: one statement, the
// ids as one array parameter.
export async function coveredIds(db: Db, scope: TeamScope, target: FilterTarget, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0 || scope.filters.length === 0) return new Set();
  const rows = await db.$queryRaw<{ id: string }[]>(coveredIdsStatement(scope, target, ids));
  return new Set(rows.map((r) => r.id));
}

// The statement of coveredIds (also EXPLAINed by the benchmark).
export function coveredIdsStatement(scope: TeamScope, target: FilterTarget, ids: string[]): Prisma.Sql {
  const table = TABLE[target];
  const covered = SET_BASED_PAGES.has(target)
    ? scopeSetCondition(scope, target, DEFAULT_ALIAS[target], { ids })
    : scopeCondition(scope, target);
  return Prisma.sql`
    SELECT ${table}.id::text AS id FROM ${table}
     WHERE ${table}.id = ANY(${ids}::uuid[]) AND ${table}.organization_id = ${scope.organizationId}::uuid AND ${covered}`;
}

// Batches of covered ids of the organization, in id order, for totals and exports built on Prisma
// queries: each batch stays far below PostgreSQL's 65,535 bind parameters when a Prisma `in`
// filter takes it.
export const COVERED_BATCH = 10_000;

export async function* coveredIdBatches(db: Db, scope: TeamScope, target: FilterTarget): AsyncGenerator<string[]> {
  if (scope.filters.length === 0) return;
  const table = TABLE[target];
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await db.$queryRaw<{ id: string }[]>`
      SELECT ${table}.id::text AS id FROM ${table}
       WHERE ${table}.organization_id = ${scope.organizationId}::uuid AND ${table}.id > ${after}::uuid AND ${scopeSetCondition(scope, target, DEFAULT_ALIAS[target], { after, limit: COVERED_BATCH })}
       ORDER BY ${table}.id LIMIT ${COVERED_BATCH}`;
    if (rows.length === 0) return;
    yield rows.map((r) => r.id);
    if (rows.length < COVERED_BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}

// Runs a Prisma query once per batch of covered ids (or once, unscoped) and concatenates the rows.
export async function acrossScope<T>(
  db: Db,
  scope: TeamScope | null,
  target: FilterTarget,
  run: (idWhere: { id?: { in: string[] } }) => Promise<T[]>,
): Promise<T[]> {
  if (!scope) return run({});
  const all: T[] = [];
  for await (const ids of coveredIdBatches(db, scope, target)) all.push(...(await run({ id: { in: ids } })));
  return all;
}
