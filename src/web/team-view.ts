import type { Context } from 'koa';
import type { AppDeps } from '../deps.js';
import { belongsToATeam } from '../teams/scope.js';
import { readCookie } from './cookies.js';

// A member of a team looks at their teams' part by default: every list, total and chart of the
// application is called with the API's `mine=true` (src/web/operations.ts, `operationCaller`).
// The header's switch shows everything instead (or their part again); the choice is a cookie of
// this browser, not an access rule: teams narrow what a person looks at, the API's levels decide
// what they may see (spec: teams narrow lists with `mine=true`).

export interface TeamView {
  // The person belongs to a team of the active organization: the switch is shown.
  inTeams: boolean;
  // Lists are narrowed to their teams' part.
  mine: boolean;
}

export const VIEW_COOKIE = 'ics_view';
export const VIEWS = ['mine', 'all'] as const;

export async function teamViewOf(
  ctx: Context,
  deps: Pick<AppDeps, 'db'>,
  person: { organizationId: string; userId: string },
): Promise<TeamView> {
  const inTeams = await belongsToATeam(deps.db, person.organizationId, person.userId);
  // Without a team there is no part to narrow to (`mine=true` would show nothing), whatever
  // this browser chose before.
  const mine = inTeams && readCookie(ctx, VIEW_COOKIE) !== 'all';
  return { inTeams, mine };
}
