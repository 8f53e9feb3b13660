import { z } from 'zod';
import { ApiError } from '../../http/errors.js';
import { labelsOf } from '../labels.js';
import { mayCall, type OperationCaller } from '../operations.js';
import { defineAction, definePage, type ActionResult, type WebInput } from '../page.js';
import { pager, pageSizeOf } from '../query.js';
import type { Refusal } from '../refusal.js';
import {
  applyShapeChange,
  conditionCount,
  emptyCondition,
  emptyRoot,
  formFieldOf,
  fromDefinition,
  labelledFilterChoices,
  readDraft,
  referencedIds,
  RELATIVE_DATES,
  toDefinition,
  withoutBlanks,
  type DraftGroup,
  type FieldError,
} from '../team-filter-form.js';
import type { Texts } from '../texts/index.js';

// Teams (docs/teams.md): a name, people and a filter. The list, a team's page with its filter
// built in a form (conditions and groups, the API's definition), a live count of the invoices the
// filter covers (previewTeam, polled by htmx as one edits; a Count button without script)
// and its members (addTeamMembers / removeTeamMember). Changes need what the API's teams need
// (Write): the forms are hidden otherwise and the API refuses anyway.

const idParams = z.object({ id: z.string().uuid() });
const memberParams = z.object({ id: z.string().uuid(), userId: z.string().uuid() });
const formBody = z.record(z.string(), z.unknown());
// The first members of the organization, for names and the add form (the API's member list).
const MEMBER_PAGE = '100';

type Input = Pick<WebInput<unknown, unknown>, 'call' | 'credential' | 'deps' | 'ctx' | 't'>;
type TeamTexts = Texts['teams'];

interface FormState {
  name: string;
  draft: DraftGroup;
  errors: Record<string, string>;
  refusal?: Refusal;
  coverage?: Coverage;
}

async function teamView(input: Input, teamId: string | null, state?: FormState) {
  const { call, credential, deps } = input;
  const t = input.t.teams;
  const [team, members] = await Promise.all([
    teamId ? call('getTeam', { params: { id: teamId } }) : Promise.resolve(null),
    call('listMembers', { query: { limit: MEMBER_PAGE } }),
  ]);
  let draft = state?.draft;
  if (!draft) {
    if (team) {
      const ids = referencedIds(team.filter);
      const labels = await labelsOf(deps, credential.organizationId, ids);
      const names = new Map([...labels.suppliers, ...labels.recipients, ...labels.agreements, ...labels.tags]);
      draft = fromDefinition(team.filter, names);
    } else draft = { ...emptyRoot(), children: [emptyCondition()] };
  }
  const memberName = new Map(members.data.map((m) => [m.user_id, m.name ? `${m.name} (${m.email})` : m.email]));
  const inTeam = new Set(team?.user_ids ?? []);
  return {
    title: team ? team.name : t.newTeam,
    team,
    name: state?.name ?? team?.name ?? '',
    draft,
    errors: state?.errors ?? {},
    refusal: state?.refusal,
    coverage: state?.coverage ?? null,
    canEdit: mayCall(credential, teamId ? 'updateTeam' : 'createTeam'),
    canDelete: mayCall(credential, 'deleteTeam'),
    canManageMembers: mayCall(credential, 'addTeamMembers'),
    action: teamId ? `/app/teams/${teamId}` : '/app/teams/new',
    members: (team?.user_ids ?? []).map((id) => ({ id, name: memberName.get(id) ?? id })),
    memberChoices: members.data.filter((m) => !inTeam.has(m.user_id)),
    ...labelledFilterChoices(t),
    relativeDates: RELATIVE_DATES,
    conditions: conditionCount(draft),
  };
}

const text = (value: unknown): string => {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : '';
};

function fieldErrors(details: FieldError[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const detail of details) errors[formFieldOf(detail.field)] ??= detail.message;
  return errors;
}

async function formAnswer(input: Input, teamId: string | null, state: FormState, status = 200): Promise<ActionResult> {
  const data = await teamView(input, teamId, state);
  return { view: 'team', title: data.title, nav: 'teams', data, status };
}

// Save, count (without script) or change the form's shape; a refusal shows the form again with the
// API's message at the fields it names, and the input kept.
async function submitTeam(
  input: Input & { body: Record<string, unknown> },
  teamId: string | null,
): Promise<ActionResult> {
  const t = input.t.teams;
  const change = text(input.body.do);
  const name = text(input.body.name).slice(0, 500);
  let draft = readDraft(input.body);
  if (/^(add|group|remove):/.test(change)) {
    draft = applyShapeChange(draft, change);
    return formAnswer(input, teamId, { name, draft, errors: {} });
  }
  if (change === 'count')
    return formAnswer(input, teamId, { name, draft, errors: {}, coverage: await coverage(input.call, draft, t) });
  const { filter, errors } = await toDefinition(input.call, draft, t);
  if (errors.length > 0) {
    const refusal: Refusal = { code: 'validation_error', message: t.namesUnknown, details: errors };
    return formAnswer(input, teamId, { name, draft, errors: fieldErrors(errors), refusal }, 400);
  }
  try {
    const body = { name, filter };
    const team = teamId
      ? await input.call('updateTeam', { params: { id: teamId }, body })
      : await input.call('createTeam', { body });
    return { redirect: `/app/teams/${team.id}`, notice: teamId ? t.saved : t.created };
  } catch (caught) {
    if (!(caught instanceof ApiError) || caught.status >= 500) throw caught;
    const details = Array.isArray(caught.extra.details) ? (caught.extra.details as FieldError[]) : [];
    const refusal: Refusal = { code: caught.code, message: caught.message, details };
    return formAnswer(input, teamId, { name, draft, errors: fieldErrors(details), refusal }, caught.status);
  }
}

// What the filter being edited covers: counts and spend of its invoices (never summed across
// currencies). Blank conditions are left out while one is still typing.
type Coverage =
  | { state: 'error' | 'empty'; message: string }
  | { state: 'counted'; total: number; spend: { currency_code: string; net: string }[] };

async function coverage(call: OperationCaller, draft: DraftGroup, t: TeamTexts): Promise<Coverage> {
  const { filter, errors } = await toDefinition(call, withoutBlanks(draft), t);
  if (errors.length > 0) return { state: 'error' as const, message: errors[0]!.message };
  if (filter === null) return { state: 'empty' as const, message: t.noConditions };
  try {
    const metrics = await call('previewTeam', { body: { filter } });
    return { state: 'counted' as const, total: metrics.counts.total, spend: metrics.spend };
  } catch (caught) {
    if (!(caught instanceof ApiError) || caught.status >= 500) throw caught;
    const details = Array.isArray(caught.extra.details) ? (caught.extra.details as FieldError[]) : [];
    return { state: 'error' as const, message: details[0]?.message ?? caught.message };
  }
}

// What a saved team covers (its page, for people who may not edit it).
async function savedCoverage(call: OperationCaller, id: string, t: TeamTexts): Promise<Coverage> {
  const team = await call('getTeam', { params: { id } });
  if (team.filter_status === 'none') return { state: 'empty', message: t.noConditions };
  if (team.filter_status === 'invalid') return { state: 'error', message: t.invalidFilter };
  const metrics = await call('previewTeam', { body: { filter: team.filter } });
  return { state: 'counted', total: metrics.counts.total, spend: metrics.spend };
}

export const teamPages = [
  definePage({
    path: '/teams',
    nav: 'teams',
    title: (t) => t.teams.teams,
    view: 'team-list',
    load: async ({ ctx, call, credential }) => {
      const pageSize = pageSizeOf(ctx.query);
      const cursor = text(ctx.query.cursor);
      const page = await call('listTeams', {
        query: { limit: String(pageSize), sort: 'name', direction: 'asc', ...(cursor ? { cursor } : {}) },
      });
      return {
        teams: page.data,
        canCreate: mayCall(credential, 'createTeam'),
        pager: pager('/app/teams', {}, ctx.query, page.data.length, pageSize, page.next_cursor),
      };
    },
  }),
  definePage({
    path: '/teams/new',
    nav: 'teams',
    title: (t) => t.teams.newTeam,
    view: 'team',
    level: 'write',
    load: (input) => teamView(input, null),
  }),
  defineAction({
    path: '/teams/new',
    level: 'write',
    body: formBody,
    handle: (input) => submitTeam(input, null),
  }),
  // The live count: the team form's fields, answered as a fragment (htmx, as one edits).
  defineAction({
    path: '/teams/count',
    level: 'read',
    body: formBody,
    handle: async ({ body, call, t }) => ({
      fragment: 'team-count-body',
      data: { coverage: await coverage(call, readDraft(body), t.teams), lazy: false, countUrl: '/app/teams/count' },
    }),
  }),
  definePage({
    path: '/teams/:id/count',
    nav: null,
    title: (t) => t.teams.team,
    view: 'team-count-body',
    params: idParams,
    load: async ({ params, call, t }) => ({ coverage: await savedCoverage(call, params.id, t.teams), lazy: false }),
  }),
  definePage({
    path: '/teams/:id',
    nav: 'teams',
    title: (t) => t.teams.team,
    view: 'team',
    params: idParams,
    load: (input) => teamView(input, input.params.id),
  }),
  defineAction({
    path: '/teams/:id',
    level: 'write',
    params: idParams,
    body: formBody,
    handle: (input) => submitTeam(input, input.params.id),
  }),
  defineAction({
    path: '/teams/:id/delete',
    level: 'write',
    params: idParams,
    handle: async ({ params, call, t }) => {
      await call('deleteTeam', { params });
      return { redirect: '/app/teams', notice: t.teams.deleted };
    },
  }),
  defineAction({
    path: '/teams/:id/members',
    level: 'write',
    params: idParams,
    body: z.object({ user_id: z.string().uuid() }),
    handle: async (input) => {
      try {
        await input.call('addTeamMembers', { params: input.params, body: { user_ids: [input.body.user_id] } });
      } catch (caught) {
        if (!(caught instanceof ApiError) || caught.status >= 500) throw caught;
        const details = Array.isArray(caught.extra.details) ? (caught.extra.details as FieldError[]) : [];
        const data = await teamView(input, input.params.id);
        const refusal: Refusal = { code: caught.code, message: caught.message, details };
        return { view: 'team', title: data.title, nav: 'teams', data: { ...data, refusal }, status: caught.status };
      }
      return { redirect: `/app/teams/${input.params.id}#members-heading`, notice: input.t.teams.memberAdded };
    },
  }),
  defineAction({
    path: '/teams/:id/members/:userId/remove',
    level: 'write',
    params: memberParams,
    handle: async ({ params, call, t }) => {
      await call('removeTeamMember', { params: { id: params.id, user_id: params.userId } });
      return { redirect: `/app/teams/${params.id}#members-heading`, notice: t.teams.memberRemoved };
    },
  }),
];
