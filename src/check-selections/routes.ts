import { z } from 'zod';
import { defineRoute } from '../http/route.js';
import { listResponse } from '../http/schemas.js';
import {
  candidateInvoiceSchema,
  candidateInvoicesBody,
  selectionPreviewSchema,
  selectionSchema,
  selectionStartedSchema,
  startSelectionBody,
} from './schemas.js';
import { candidateInvoicesPage, previewSelection, readReceipt, startSelection } from './service.js';

const tag = 'Compliance checks';

export const checkSelectionRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/check-selections/preview',
    operationId: 'previewCheckSelection',
    summary: 'What a check selection would check, exclude and replace, with its fingerprint',
    tag,
    access: { level: 'read' },
    body: selectionSchema,
    responses: { 200: { description: 'The preview', schema: selectionPreviewSchema } },
    handler: async ({ body, actor, deps }) => ({ body: await previewSelection(deps.db, actor.organizationId, body) }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/check-selections/invoices',
    operationId: 'listCheckSelectionInvoices',
    summary: "Pages a selection's candidate invoices, newest issue date first; search filters the rows shown only",
    tag,
    access: { level: 'read' },
    body: candidateInvoicesBody,
    responses: { 200: { description: 'A page of candidate invoices', schema: listResponse(candidateInvoiceSchema) } },
    handler: async ({ body, actor, deps }) => ({ body: await candidateInvoicesPage(deps, actor.organizationId, body) }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/check-selections',
    operationId: 'startCheckSelection',
    summary: 'Starts the checks of a previewed selection: one check run per agreement',
    tag,
    access: { level: 'write' },
    body: startSelectionBody,
    idempotent: true,
    responses: {
      202: {
        description: 'The runs started; Location is the receipt (GET it to read this result again)',
        schema: selectionStartedSchema,
      },
      400: { description: 'validation_error; description selection_too_large when over 5,000 checks or 50 agreements' },
      409: {
        description:
          'selection_changed (the body carries the new fingerprint and preview) or nothing_eligible; nothing was started',
      },
    },
    handler: async ({ body, actor, deps, idempotencyKey }) => startSelection(deps, actor, body, idempotencyKey),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/check-selections/{receipt_key}',
    operationId: 'getCheckSelection',
    summary: 'The result of a started check selection, by its receipt key',
    tag,
    access: { level: 'read' },
    params: z.object({ receipt_key: z.string().uuid() }),
    responses: { 200: { description: 'The runs the selection started', schema: selectionStartedSchema } },
    handler: async ({ params, actor, deps }) => ({
      body: await readReceipt(deps.db, actor.organizationId, params.receipt_key),
    }),
  }),
];
