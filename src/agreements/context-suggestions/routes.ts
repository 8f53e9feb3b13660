import { z } from 'zod';
import { defineRoute, idParams } from '../../http/route.js';
import { listResponse } from '../../http/schemas.js';
import { listContextSuggestionsPage, suggestionListQuery } from './list.js';
import {
  acceptSuggestion,
  findSuggestion,
  rejectSuggestion,
  serializeSuggestion,
  SUGGESTION_STATUSES,
} from './service.js';

const tag = 'Agreements';
const params = z.object({ id: z.string().uuid(), suggestion_id: z.string().uuid() });

export const contextSuggestionSchema = z
  .object({
    id: z.string().uuid(),
    agreement_id: z.string().uuid(),
    alert_id: z.string().uuid().nullable().meta({ description: 'The dismissed alert that led to the suggestion' }),
    status: z.enum(SUGGESTION_STATUSES),
    instruction: z.string().meta({
      description: 'The line accepting appends to the instructions; "Do not flag: ..." lines are read by the checks',
    }),
    reason: z.string(),
    created_at: z.string().datetime(),
    decided_at: z.string().datetime().nullable(),
  })
  .meta({ id: 'ContextSuggestion' });

export const contextSuggestionRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/agreements/{id}/context-suggestions',
    operationId: 'listContextSuggestions',
    summary: 'Suggested instruction edits (made when alerts are dismissed), newest first',
    tag,
    access: { level: 'read' },
    params: idParams,
    query: suggestionListQuery,
    fieldsOf: contextSuggestionSchema,
    responses: { 200: { description: 'A page of suggestions', schema: listResponse(contextSuggestionSchema) } },
    handler: async ({ params: p, query, actor, deps }) => ({
      body: await listContextSuggestionsPage(deps, actor.organizationId, p.id, query),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/agreements/{id}/context-suggestions/{suggestion_id}/accept',
    operationId: 'acceptContextSuggestion',
    summary:
      'Accept: appends the line to the instructions (unless there already) and makes earlier checks outdated; repeating changes nothing',
    tag,
    access: { level: 'write' },
    params,
    responses: {
      200: { description: 'The accepted suggestion', schema: contextSuggestionSchema },
      409: { description: 'suggestion_rejected: a rejected suggestion cannot be accepted; instructions_too_long' },
    },
    handler: async ({ params: p, actor, deps }) => {
      const suggestion = await findSuggestion(deps, actor.organizationId, p.id, p.suggestion_id);
      return { body: serializeSuggestion(await acceptSuggestion(deps, actor, suggestion)) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/agreements/{id}/context-suggestions/{suggestion_id}/reject',
    operationId: 'rejectContextSuggestion',
    summary: 'Reject: the same edit is never suggested again; repeating changes nothing',
    tag,
    access: { level: 'write' },
    params,
    responses: {
      200: { description: 'The rejected suggestion', schema: contextSuggestionSchema },
      409: { description: 'suggestion_accepted: an accepted suggestion is in the instructions; edit them instead' },
    },
    handler: async ({ params: p, actor, deps }) => {
      const suggestion = await findSuggestion(deps, actor.organizationId, p.id, p.suggestion_id);
      return { body: serializeSuggestion(await rejectSuggestion(deps, actor, suggestion)) };
    },
  }),
];
