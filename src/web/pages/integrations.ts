import { z } from 'zod';
import { mayCall } from '../operations.js';
import { defineAction, definePage, type WebInput } from '../page.js';
import { listUrl } from '../query.js';
import { actOrShowRefusal } from '../refusal.js';

// Integrations: the organization's accounting-system connections (GET /v1/integrations) with
// their test (steps), auto-sync switch and a sync start; Admins connect a new one with a form
// drawn from the provider's credentials schema (GET /v1/integration-providers). The API decides
// levels: connect, test and auto-sync are Admin; a sync is Write, within a saved scope.

// One input of the connect form, from a JSON Schema property of the provider's credentials.
export interface CredentialField {
  name: string;
  label: string;
  type: 'text' | 'password' | 'number' | 'checkbox' | 'url';
  required: boolean;
  defaultValue: string;
  description: string | null;
}

const SECRET_NAME = /secret|token|password|key/i;
const FIELD_PREFIX = 'credential_';

// The parts of a credentials property (JSON Schema, from the provider's zod schema) the form reads.
interface CredentialProperty {
  type?: unknown;
  format?: unknown;
  default?: unknown;
  description?: unknown;
}

export function credentialFields(schema: Record<string, unknown>): CredentialField[] {
  const required = new Set<unknown>(Array.isArray(schema.required) ? schema.required : []);
  const properties = (schema.properties ?? {}) as Record<string, CredentialProperty>;
  return Object.entries(properties).map(([name, property]) => ({
    name,
    label: name.replaceAll('_', ' ').replace(/^./, (c) => c.toUpperCase()),
    type:
      property.type === 'boolean'
        ? 'checkbox'
        : property.type === 'integer' || property.type === 'number'
          ? 'number'
          : SECRET_NAME.test(name)
            ? 'password'
            : property.format === 'uri'
              ? 'url'
              : 'text',
    // A field with a default is optional in the form (the API fills it in).
    required: required.has(name) && property.default === undefined,
    defaultValue: defaultText(property.default),
    description: typeof property.description === 'string' ? property.description : null,
  }));
}

// The credentials object from the form's fields, typed as the schema says; empty fields are left
// out so the provider's defaults apply.
function credentialsFrom(form: Record<string, unknown>, fields: CredentialField[]): Record<string, unknown> {
  const credentials: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = form[`${FIELD_PREFIX}${field.name}`];
    if (field.type === 'checkbox') {
      credentials[field.name] = raw === 'on' || raw === 'true';
      continue;
    }
    if (typeof raw !== 'string' || raw.trim() === '') continue;
    credentials[field.name] = field.type === 'number' ? Number(raw) : raw.trim();
  }
  return credentials;
}

const integrationParams = z.object({ id: z.string().uuid() });
const dateField = z
  .string()
  .trim()
  .max(10)
  .optional()
  .transform((value) => (value ? value : undefined));

async function integrationsPage({
  ctx,
  call,
  credential,
  t,
}: Pick<WebInput<unknown, unknown>, 'ctx' | 'call' | 'credential' | 't'>) {
  const cursor = typeof ctx.query.cursor === 'string' && ctx.query.cursor ? ctx.query.cursor : undefined;
  const [page, providers] = await Promise.all([
    call('listIntegrations', { query: { limit: '50', ...(cursor ? { cursor } : {}) } }),
    call('listIntegrationProviders'),
  ]);
  return {
    title: t.integrations.title,
    integrations: page.data,
    providers: providers.data.map((p) => ({ ...p, fields: credentialFields(p.credentials_schema) })),
    providerNames: Object.fromEntries(providers.data.map((p) => [p.id, p.name])),
    canAdmin: mayCall(credential, 'createIntegration'),
    canSync: mayCall(credential, 'startSync'),
    nextUrl: page.next_cursor ? listUrl('/app/integrations', {}, { cursor: page.next_cursor }) : null,
    firstUrl: cursor ? '/app/integrations' : null,
  };
}

function onIntegrations(input: WebInput<unknown, never>, anchor: string, act: () => Promise<string>) {
  return actOrShowRefusal(
    { view: 'integrations', nav: 'integrations', load: () => integrationsPage(input) },
    async () => ({
      redirect: `/app/integrations${anchor}`,
      notice: await act(),
    }),
  );
}

export const integrationPages = [
  definePage({
    path: '/integrations',
    nav: 'integrations',
    title: (t) => t.integrations.title,
    view: 'integrations',
    load: integrationsPage,
  }),
  defineAction({
    path: '/integrations',
    level: 'admin',
    body: z.object({ provider: z.string().trim().min(1).max(64), name: z.string().trim().max(200) }).passthrough(),
    handle: (input) =>
      onIntegrations(input, '', async () => {
        const providers = await input.call('listIntegrationProviders');
        const provider = providers.data.find((p) => p.id === input.body.provider);
        const fields = provider ? credentialFields(provider.credentials_schema) : [];
        const created = await input.call('createIntegration', {
          body: {
            provider: input.body.provider,
            name: input.body.name,
            credentials: credentialsFrom(input.body, fields),
          },
        });
        return input.t.integrations.connected(created.name);
      }),
  }),
  defineAction({
    path: '/integrations/:id/test',
    level: 'admin',
    params: integrationParams,
    handle: (input) =>
      onIntegrations(input, `#integration-${input.params.id}`, async () => {
        const result = await input.call('testIntegration', { params: { id: input.params.id } });
        return result.result === 'passed' ? input.t.integrations.testPassed : input.t.integrations.testFailed;
      }),
  }),
  defineAction({
    path: '/integrations/:id/auto-sync',
    level: 'admin',
    params: integrationParams,
    body: z.object({ auto_sync: z.enum(['on', 'off']) }),
    handle: (input) =>
      onIntegrations(input, `#integration-${input.params.id}`, async () => {
        await input.call('updateIntegration', {
          params: { id: input.params.id },
          body: { auto_sync: input.body.auto_sync === 'on' },
        });
        return input.body.auto_sync === 'on' ? input.t.integrations.syncTurnedOn : input.t.integrations.syncTurnedOff;
      }),
  }),
  defineAction({
    path: '/integrations/:id/syncs',
    level: 'write',
    params: integrationParams,
    body: z.object({ date_from: dateField, date_through: dateField }),
    handle: (input) =>
      actOrShowRefusal({ view: 'integrations', nav: 'integrations', load: () => integrationsPage(input) }, async () => {
        const sync = await input.call('startSync', {
          params: { id: input.params.id },
          body: {
            ...(input.body.date_from ? { date_from: input.body.date_from } : {}),
            ...(input.body.date_through ? { date_through: input.body.date_through } : {}),
          },
        });
        return {
          redirect: `/app/runs/${sync.workflow_run_id}`,
          notice: input.t.integrations.syncStarted(sync.date_from, sync.date_through),
        };
      }),
  }),
];

// A provider's JSON Schema default as a form value: the scalar defaults a settings form has
// (strings, numbers, booleans); anything else is left for the person to fill in.
function defaultText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}
