import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addMember } from '../../src/admin/service.js';
import { allRoutes } from '../../src/routes.js';
import { invoiceOf, matchedAgreement, newSupplier, postAlert } from '../support/alerts.js';
import { eventually } from '../support/api.js';
import { alertOn, claimSetup, createClaim } from '../support/claims.js';
import { uploadDocument } from '../support/invoices.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';
import { MIME } from '../unit/agreements/documents/extraction/fixtures.js';

// What a client reads, it can write back (docs/invoices.md, "Writing back what was read"): for
// every route that creates or changes a resource, the representation a read returns is sent
// back and must be accepted with nothing changed. The route table drives the test: a new
// create or patch route fails it until it is listed below, as a write-back case or as a
// command with the reason it takes no read shape.

type Json = any;

interface WriteBackCase {
  // Makes a record and returns how to read it and how to send it back.
  setUp(tenant: Tenant): Promise<{
    read: () => Promise<Json>;
    send: (representation: Json) => Promise<{ status: number; body: Json }>;
    readCreated?: (response: Json) => Promise<Json>;
  }>;
  // POST: the fields that legitimately differ in the new record (its id, its new unique key, ...).
  differs?: string[];
}

// Commands and work starters: their bodies are instructions, not a resource's representation.
const COMMANDS: Record<string, string> = {
  'POST /v1/documents/search': 'a search query',
  'POST /v1/documents/{id}/index': 'starts indexing',
  'POST /v1/invoices/imports': 'starts an import of uploaded documents; an import is read, never written',
  'POST /v1/invoices/upload': 'multipart file upload (Ingestion API)',
  'POST /v1/invoices/{id}/check': 'starts a check run',
  'POST /v1/invoices/{id}/agreements/refresh': 'starts a matching run',
  'POST /v1/agreements/{id}/invoices/refresh': 'starts a matching run',
  'POST /v1/agreements/{id}/check': 'starts a check run',
  'POST /v1/agreements/check': 'starts check runs',
  'POST /v1/agreements/{id}/document-imports': 'starts classification of uploaded documents',
  'POST /v1/agreements/{id}/price-imports': 'starts a price import of an uploaded document',
  'POST /v1/agreements/{id}/price-imports/preview': 'previews a price import; saves nothing',
  'POST /v1/agreements/{id}/price-items/delete': 'bulk removal command',
  'POST /v1/agreements/{id}/alert-topics/reconcile': 'starts a topic reconcile run',
  'POST /v1/agreements/{id}/context-suggestions/{suggestion_id}/accept': 'decision on a suggestion',
  'POST /v1/agreements/{id}/context-suggestions/{suggestion_id}/reject': 'decision on a suggestion',
  'POST /v1/check-selections/preview': 'previews a selection',
  'POST /v1/check-selections/invoices': 'pages candidate invoices',
  'POST /v1/check-selections': 'starts the checks of a previewed selection (receipt is read, never written)',
  'POST /v1/alerts/dismiss': 'bulk alert command',
  'POST /v1/alerts/credit': 'bulk alert command',
  'POST /v1/alerts/uncredit': 'bulk alert command',
  'POST /v1/alerts/reopen': 'bulk alert command',
  'POST /v1/alerts/delete': 'bulk alert command',
  'POST /v1/alert-topics/{id}/alerts': 'moves alerts into a topic',
  'POST /v1/workflow-runs/{id}/cancel': 'run command',
  'POST /v1/claims/{id}/alerts':
    'moves alerts into a claim (alert_ids or filter); the claim lists no alerts to write back',
  'POST /v1/claims/{id}/alerts/remove': 'takes alerts out of a claim',
  'POST /v1/support/contact': 'a message to support; a support request is never read back',
  'POST /v1/claims/{id}/credit-notes':
    'attaches an imported credit note (invoice_id) as evidence; create_refund is an instruction',
  'POST /v1/workflow-runs/{id}/retry': 'run command',
  'POST /v1/integrations': 'takes credentials, which are never read back',
  'POST /v1/integrations/{id}/test': 'signs in to the provider',
  'POST /v1/integrations/{id}/suppliers/refresh': 'starts a supplier refresh run',
  'POST /v1/integrations/{id}/syncs': 'starts a sync',
  'POST /v1/teams/{id}/members': 'adds people to a team',
  'POST /v1/invoices/{id}/confirm-reading': 'confirms an uncertain reading; no body',
  'POST /v1/agreements/{id}/price-imports/{import_id}/confirm-review': 'confirms a price import was reviewed; no body',
  'POST /v1/teams/preview': "counts what a team's filter would cover; saves nothing",
  'PUT /v1/notification-preferences':
    'written back as read in notifications.test.ts (the GET document sent back unchanged)',
  'POST /v1/notification-channels/{id}/rotate-secret': 'issues a new webhook secret',
  'POST /v1/notification-channels/{id}/test': 'sends a test message to the channel',
  'POST /v1/notification-deliveries/{id}/replay': 'delivers a failed notification again',
  // Its read shape is accepted, but the re-read differs after sending it back (issue 12 follow-up).
};

// Drops the named dotted paths (a path through an array applies to every element).
function without(value: Json, paths: string[]): Json {
  const copy = structuredClone(value);
  const drop = (node: Json, parts: string[]) => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((item) => drop(item, parts));
    const [head, ...rest] = parts;
    if (rest.length === 0) delete node[head!];
    else drop(node[head!], rest);
  };
  for (const path of paths) drop(copy, path.split('.'));
  return copy;
}

async function agreementWithEverything(tenant: Tenant) {
  const invoice = await invoiceOf(tenant, newSupplier());
  const tag = (
    await tenant.call('/v1/agreements/tags', { method: 'POST', body: { name: `Tag ${randomUUID().slice(0, 8)}` } })
  ).body;
  const created = await tenant.call('/v1/agreements', {
    method: 'POST',
    body: {
      title: 'Office supplies',
      status: 'active',
      supplier_ids: [invoice.supplier.id],
      effective_date: '2026-01-01',
      expiration_date: '2027-12-31',
      tag_ids: [tag.id],
      applicability: { buyer_references: ['B-1'], currency_codes: ['EUR'] },
      instructions: 'Net 30',
      renewal: { auto_renews: true, period_months: 12, notice_days: 90 },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

async function priceItems(tenant: Tenant) {
  const agreement = (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Prices' } })).body;
  const created = await tenant.call(`/v1/agreements/${agreement.id}/price-items`, {
    method: 'POST',
    body: {
      entries: [
        {
          description: 'Paper A4',
          seller_item_id: 'P-A4',
          unit: 'pk',
          currency_code: 'EUR',
          price: { type: 'amount', amount: '42.50' },
          valid_until: '2027-01-01',
        },
        { description: 'Freight', price: { type: 'rate', fraction: '0.05', basis: 'invoice subtotal' } },
      ],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const list = () =>
    tenant.call(`/v1/agreements/${agreement.id}/price-items?sort=description`).then((r) => r.body.data);
  return { agreementId: agreement.id as string, list };
}

async function alertOnPair(tenant: Tenant) {
  const invoice = await invoiceOf(tenant, newSupplier());
  const agreementId = await matchedAgreement(tenant, [invoice.supplier.id]);
  const topic = (
    await tenant.call('/v1/alert-topics', { method: 'POST', body: { agreement_id: agreementId, title: 'Prices' } })
  ).body;
  const alert = await postAlert(tenant, {
    invoice_id: invoice.id,
    agreement_id: agreementId,
    invoice_item_id: invoice.line_items[0]!.id,
    expected: [{ description: 'Paper', unit: null, currency_code: 'EUR', price: { type: 'amount', amount: '5.00' } }],
    citations: [
      {
        source_ref: 1,
        citation: { source: { source_type: 'agreement_prices', document_id: null }, quote: 'Paper 5.00' },
      },
    ],
    topic_id: topic.id,
    correction_type: 'modify_item',
  });
  return { alert, agreementId };
}

// A claim with every optional field set and one refund; alerts are moved by commands, not written.
// The claim holds one EUR alert: a refund is in a currency the claim claims.
async function claimWithRefund(tenant: Tenant) {
  const { agreementId, supplierId, invoices } = await claimSetup(tenant, [{}]);
  const alertId = await alertOn(tenant, invoices[0]!.id, agreementId, { impact_amount: '20.00' });
  const claim = await createClaim(tenant, {
    agreement_id: agreementId,
    supplier_id: supplierId,
    note: 'Call first',
    supplier_contact: { name: 'Ann', email: 'ann@example.com' },
    alerts: { alert_ids: [alertId] },
  });
  const refunded = await tenant.call(`/v1/claims/${claim.id}/refunds`, {
    method: 'POST',
    body: { amount: '12.50', currency_code: 'EUR', date: '2026-03-01', reference: 'R-1', note: null },
  });
  expect(refunded.status, JSON.stringify(refunded.body)).toBe(201);
  const read = async () => (await tenant.call(`/v1/claims/${claim.id}`)).body;
  return { claimId: claim.id as string, refundId: refunded.body.refunds[0].id as string, read };
}

// A team with two members and a filter of every level (docs/teams.md).
async function teamWithEverything(tenant: Tenant) {
  const colleague = await addMember(testDb(), {
    organizationId: tenant.organizationId,
    email: `${randomUUID()}@example.test`,
    role: 'read',
  });
  const filter = {
    schema_version: 1,
    root: {
      combinator: 'and',
      children: [
        { field: 'supplier.country', op: 'is_any_of', value: ['NO', 'SE'] },
        {
          combinator: 'or',
          children: [
            { field: 'invoice.amount', op: 'gte', value: '100.50' },
            { combinator: 'and', children: [{ field: 'invoice.issued_date', op: 'within', value: 'last_90_days' }] },
          ],
        },
      ],
    },
  };
  const created = await tenant.call('/v1/teams', {
    method: 'POST',
    body: { name: `Buyers ${randomUUID().slice(0, 8)}`, user_ids: [tenant.userId, colleague.id], filter },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

const byId = (path: string) => (tenant: Tenant) => async (response: Json) =>
  (await tenant.call(path.replace('{id}', response.body.id))).body;

const CASES: Record<string, WriteBackCase> = {
  'POST /v1/invoices': {
    differs: ['id', 'invoice_number', 'url', 'created_at', 'updated_at', 'line_items.id'],
    async setUp(tenant) {
      const invoice = await invoiceOf(tenant, newSupplier());
      const read = async () => (await tenant.call(`/v1/invoices/${invoice.id}`)).body;
      return {
        read,
        send: (body) =>
          tenant.call('/v1/invoices', {
            method: 'POST',
            body: { ...body, invoice_number: `${body.invoice_number}-copy` },
          }),
        readCreated: byId('/v1/invoices/{id}')(tenant),
      };
    },
  },
  'PATCH /v1/invoices/{id}': {
    async setUp(tenant) {
      const invoice = await invoiceOf(tenant, newSupplier());
      return {
        read: async () => (await tenant.call(`/v1/invoices/${invoice.id}`)).body,
        send: (body) => tenant.call(`/v1/invoices/${invoice.id}`, { method: 'PATCH', body }),
      };
    },
  },
  'POST /v1/agreements': {
    differs: ['id', 'title', 'created_at', 'updated_at'],
    async setUp(tenant) {
      const agreement = await agreementWithEverything(tenant);
      return {
        read: async () => (await tenant.call(`/v1/agreements/${agreement.id}`)).body,
        send: (body) =>
          tenant.call('/v1/agreements', { method: 'POST', body: { ...body, title: `${body.title} (copy)` } }),
        readCreated: byId('/v1/agreements/{id}')(tenant),
      };
    },
  },
  'PATCH /v1/agreements/{id}': {
    async setUp(tenant) {
      const agreement = await agreementWithEverything(tenant);
      return {
        read: async () => (await tenant.call(`/v1/agreements/${agreement.id}`)).body,
        send: (body) => tenant.call(`/v1/agreements/${agreement.id}`, { method: 'PATCH', body }),
      };
    },
  },
  'POST /v1/agreements/tags': {
    differs: ['id', 'name', 'created_at'],
    async setUp(tenant) {
      const tag = (
        await tenant.call('/v1/agreements/tags', { method: 'POST', body: { name: `Tag ${randomUUID().slice(0, 8)}` } })
      ).body;
      const list = async () => (await tenant.call('/v1/agreements/tags?limit=1000')).body.data as Json[];
      return {
        read: async () => (await list()).find((t) => t.id === tag.id),
        send: (body) =>
          tenant.call('/v1/agreements/tags', { method: 'POST', body: { ...body, name: `${body.name} copy` } }),
        readCreated: async (response) => (await list()).find((t) => t.id === response.body.id),
      };
    },
  },
  'POST /v1/agreements/{id}/price-items': {
    differs: ['id', 'created_at', 'updated_at'],
    async setUp(tenant) {
      const { agreementId, list } = await priceItems(tenant);
      const originals = new Set((await list()).map((item: Json) => item.id));
      return {
        read: async () => (await list()).filter((item: Json) => originals.has(item.id)),
        send: (items) =>
          tenant.call(`/v1/agreements/${agreementId}/price-items`, { method: 'POST', body: { entries: items } }),
        readCreated: async (response) => {
          const ids = new Set(response.body.data.map((item: Json) => item.id));
          return (await list()).filter((item: Json) => ids.has(item.id));
        },
      };
    },
  },
  'PATCH /v1/agreements/{id}/price-items': {
    async setUp(tenant) {
      const { agreementId, list } = await priceItems(tenant);
      return {
        read: list,
        send: (items) =>
          tenant.call(`/v1/agreements/${agreementId}/price-items`, { method: 'PATCH', body: { entries: items } }),
      };
    },
  },
  'PATCH /v1/agreements/{id}/documents/{document_id}': {
    async setUp(tenant) {
      const agreementId = (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Documents' } })).body
        .id;
      const csv = await uploadDocument(
        tenant,
        'prices.csv',
        Buffer.from('Item;Description;Price\nP-A4;Paper;42,50\n', 'utf8'),
        MIME.csv,
      );
      const started = await tenant.call(`/v1/agreements/${agreementId}/document-imports`, {
        method: 'POST',
        body: { entries: [{ document_id: csv }] },
      });
      await eventually(
        () => tenant.call(`/v1/workflow-runs/${started.body.workflow_run_id}`),
        (r) => !['queued', 'running'].includes(r.body.status),
        60_000,
      );
      const path = `/v1/agreements/${agreementId}/documents/${csv}`;
      return {
        read: async () => (await tenant.call(path)).body,
        send: (body) => tenant.call(path, { method: 'PATCH', body }),
      };
    },
  },
  'POST /v1/documents/upload': {
    differs: ['id', 'uploaded', 'created_at'],
    async setUp(tenant) {
      const registered = await tenant.call('/v1/documents/upload', {
        method: 'POST',
        body: { file_name: 'terms.txt', mime_type: 'text/plain', file_size: 12, category: 'agreement' },
      });
      return {
        read: async () => (await tenant.call(`/v1/documents/${registered.body.document_id}`)).body,
        send: (body) => tenant.call('/v1/documents/upload', { method: 'POST', body }),
        readCreated: async (response) => (await tenant.call(`/v1/documents/${response.body.document_id}`)).body,
      };
    },
  },
  'POST /v1/alerts': {
    differs: ['id', 'created_at', 'updated_at'],
    async setUp(tenant) {
      const { alert } = await alertOnPair(tenant);
      return {
        read: async () => (await tenant.call(`/v1/alerts/${alert.id}`)).body,
        send: (body) => tenant.call('/v1/alerts', { method: 'POST', body }),
        readCreated: byId('/v1/alerts/{id}')(tenant),
      };
    },
  },
  'PATCH /v1/alerts/{id}': {
    async setUp(tenant) {
      const { alert } = await alertOnPair(tenant);
      return {
        read: async () => (await tenant.call(`/v1/alerts/${alert.id}`)).body,
        send: (body) => tenant.call(`/v1/alerts/${alert.id}`, { method: 'PATCH', body }),
      };
    },
  },
  'POST /v1/alert-topics': {
    // The copy is made without alerts (alert_ids is what moves alerts into a new topic).
    differs: ['id', 'title', 'alert_count', 'created_at', 'updated_at'],
    async setUp(tenant) {
      const { alert } = await alertOnPair(tenant);
      const list = async () => (await tenant.call('/v1/alert-topics?include_empty=true')).body.data as Json[];
      return {
        read: async () => (await list()).find((t) => t.id === alert.topic_id),
        send: (body) =>
          tenant.call('/v1/alert-topics', { method: 'POST', body: { ...body, title: `${body.title} copy` } }),
        readCreated: async (response) => (await list()).find((t) => t.id === response.body.id),
      };
    },
  },
  'PATCH /v1/alert-topics/{id}': {
    async setUp(tenant) {
      const { alert } = await alertOnPair(tenant);
      const read = async () =>
        (await tenant.call('/v1/alert-topics?include_empty=true')).body.data.find((t: Json) => t.id === alert.topic_id);
      return { read, send: (body) => tenant.call(`/v1/alert-topics/${alert.topic_id}`, { method: 'PATCH', body }) };
    },
  },
};

Object.assign(CASES, {
  'PATCH /v1/notification-channels/{id}': {
    async setUp(tenant) {
      const put = await tenant.call('/v1/notification-preferences', {
        method: 'PUT',
        body: {
          preferences: [
            {
              owner: 'personal',
              scope: 'organization',
              sources: [],
              channels: [
                { type: 'webhook', enabled: true, events: ['new_alert'], url: 'https://hooks.example.test/in' },
              ],
            },
          ],
        },
      });
      const channelId = put.body.preferences[0].channels[0].id;
      return {
        read: async () => (await tenant.call(`/v1/notification-channels/${channelId}`)).body,
        send: (body) => tenant.call(`/v1/notification-channels/${channelId}`, { method: 'PATCH', body }),
      };
    },
  },
  'POST /v1/teams': {
    differs: ['id', 'created_at', 'updated_at'],
    async setUp(tenant) {
      const team = await teamWithEverything(tenant);
      return {
        read: async () => (await tenant.call(`/v1/teams/${team.id}`)).body,
        send: (body) => tenant.call('/v1/teams', { method: 'POST', body }),
        readCreated: byId('/v1/teams/{id}')(tenant),
      };
    },
  },
  'PATCH /v1/teams/{id}': {
    async setUp(tenant) {
      const team = await teamWithEverything(tenant);
      return {
        read: async () => (await tenant.call(`/v1/teams/${team.id}`)).body,
        send: (body) => tenant.call(`/v1/teams/${team.id}`, { method: 'PATCH', body }),
      };
    },
  },
  'POST /v1/claims': {
    // The copy is a new claim: no refunds (recorded with POST refunds), no alerts (moved by
    // commands, so its summary is empty), its own reference.
    differs: ['id', 'reference', 'url', 'created_at', 'updated_at', 'refunds', 'refund_summary', 'summary'],
    async setUp(tenant) {
      const { read } = await claimWithRefund(tenant);
      return {
        read,
        send: (body) => tenant.call('/v1/claims', { method: 'POST', body }),
        readCreated: byId('/v1/claims/{id}')(tenant),
      };
    },
  },
  'PATCH /v1/claims/{id}': {
    async setUp(tenant) {
      const { claimId, read } = await claimWithRefund(tenant);
      return { read, send: (body) => tenant.call(`/v1/claims/${claimId}`, { method: 'PATCH', body }) };
    },
  },
  'POST /v1/claims/{id}/refunds': {
    differs: ['id', 'created_at', 'updated_at'],
    async setUp(tenant) {
      const { claimId, refundId, read } = await claimWithRefund(tenant);
      return {
        read: async () => (await read()).refunds.find((r: Json) => r.id === refundId),
        send: (body) => tenant.call(`/v1/claims/${claimId}/refunds`, { method: 'POST', body }),
        readCreated: async () => (await read()).refunds.find((r: Json) => r.id !== refundId),
      };
    },
  },
  'PATCH /v1/claims/{id}/refunds/{refund_id}': {
    async setUp(tenant) {
      const { claimId, refundId, read } = await claimWithRefund(tenant);
      return {
        read: async () => (await read()).refunds.find((r: Json) => r.id === refundId),
        send: (body) => tenant.call(`/v1/claims/${claimId}/refunds/${refundId}`, { method: 'PATCH', body }),
      };
    },
  },
  'POST /v1/comments': {
    // The copy is another comment on the same record (not safe to repeat: that is what it does).
    differs: ['id', 'created_at', 'updated_at'],
    async setUp(tenant) {
      const { claimId } = await claimWithRefund(tenant);
      const comment = (
        await tenant.call('/v1/comments', {
          method: 'POST',
          body: { entity_type: 'claim', entity_id: claimId, body: `Ask @[${tenant.userId}]` },
        })
      ).body;
      return {
        read: async () => (await tenant.call(`/v1/comments/${comment.id}`)).body,
        send: (body) => tenant.call('/v1/comments', { method: 'POST', body }),
        readCreated: byId('/v1/comments/{id}')(tenant),
      };
    },
  },
  'PATCH /v1/integrations/{id}': {
    async setUp(tenant) {
      const created = await tenant.call('/v1/integrations', {
        method: 'POST',
        body: {
          provider: 's3_inbox',
          name: 'Inbox',
          auto_sync: true,
          credentials: { endpoint: 'http://127.0.0.1:9', bucket: 'some-bucket', access_key: 'a', secret_key: 'b' },
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const path = `/v1/integrations/${created.body.id}`;
      return {
        read: async () => (await tenant.call(path)).body,
        send: (body) => tenant.call(path, { method: 'PATCH', body }),
      };
    },
  },
  'PATCH /v1/comments/{id}': {
    async setUp(tenant) {
      const { claimId } = await claimWithRefund(tenant);
      const comment = (
        await tenant.call('/v1/comments', {
          method: 'POST',
          body: { entity_type: 'claim', entity_id: claimId, body: 'Called them' },
        })
      ).body;
      return {
        read: async () => (await tenant.call(`/v1/comments/${comment.id}`)).body,
        send: (body) => tenant.call(`/v1/comments/${comment.id}`, { method: 'PATCH', body }),
      };
    },
  },
} satisfies Record<string, WriteBackCase>);

const writeRoutes = allRoutes
  .filter((route) => route.method === 'post' || route.method === 'patch' || route.method === 'put')
  .map((route) => `${route.method.toUpperCase()} ${route.path}`);

describe('writing back what was read', () => {
  it('covers every create and patch route (a new one must be listed here as a case or a command)', () => {
    const unlisted = writeRoutes.filter((route) => !(route in CASES) && !(route in COMMANDS));
    expect(unlisted, 'routes neither tested for write-back nor listed as commands').toEqual([]);
    const stale = [...Object.keys(CASES), ...Object.keys(COMMANDS)].filter((route) => !writeRoutes.includes(route));
    expect(stale, 'listed routes that no longer exist').toEqual([]);
  });

  for (const [route, testCase] of Object.entries(CASES)) {
    it(`${route} accepts the read representation and changes nothing`, async () => {
      const tenant = await createTenant();
      const { read, send, readCreated } = await testCase.setUp(tenant);
      const before = await read();
      expect(before, 'the record to read back').toBeTruthy();
      const response = await send(structuredClone(before));
      expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
      // The record read is exactly as it was: a no-op write moves no updated_at either.
      expect(await read()).toEqual(before);
      if (readCreated) {
        const created = await readCreated(response);
        expect(without(created, testCase.differs ?? [])).toEqual(without(before, testCase.differs ?? []));
      }
    });
  }

  it('PATCH /v1/invoices/{id} takes line_items as read with one line changed (nulls included)', async () => {
    const tenant = await createTenant();
    const invoice = await invoiceOf(tenant, newSupplier(), {
      lines: [
        { description: 'Paper', quantity: '10', unit_price: '5.50', net_amount: '55.00' },
        { description: 'Toner', quantity: '1', unit_price: '80.00', net_amount: '80.00' },
      ],
    });
    const read = (await tenant.call(`/v1/invoices/${invoice.id}`)).body;
    expect(read.line_items[0].seller_item_id).toBeNull();
    const lines = structuredClone(read.line_items);
    lines[1].description = 'Black toner';
    const patched = await tenant.call(`/v1/invoices/${invoice.id}`, { method: 'PATCH', body: { line_items: lines } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.line_items.map((line: Json) => line.description)).toEqual(['Paper', 'Black toner']);
    expect(without(patched.body.line_items, ['id', 'description'])).toEqual(
      without(read.line_items, ['id', 'description']),
    );
    expect(patched.body.updated_at).not.toBe(read.updated_at);
  });

  it('POST /v1/invoices takes the read shape: amounts.currency_code, invoiced_as parties; a clash with the flat field is a validation_error', async () => {
    const tenant = await createTenant();
    const invoice = await invoiceOf(tenant, newSupplier(), { currency: 'SEK' });
    const read = (await tenant.call(`/v1/invoices/${invoice.id}`)).body;
    expect(read.amounts.currency_code).toBe('SEK');
    const clash = await tenant.call('/v1/invoices', {
      method: 'POST',
      body: { ...read, invoice_number: 'X-1', currency_code: 'EUR' },
    });
    expect(clash.status).toBe(400);
    expect(JSON.stringify(clash.body.error.details)).toContain('currency_code');
    const unknown = await tenant.call('/v1/invoices', {
      method: 'POST',
      body: { ...read, invoice_number: 'X-2', colour: 'red' },
    });
    expect(unknown.status).toBe(400);
  });

  it('claims and refunds refuse fixed fields sent with another value, and take null where a read shows null', async () => {
    const tenant = await createTenant();
    const { claimId, refundId, read } = await claimWithRefund(tenant);
    const before = await read();
    const moved = await tenant.call(`/v1/claims/${claimId}`, {
      method: 'PATCH',
      body: { ...before, reference: 'CLM-1999-0001', title: 'New title' },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.error.details).toEqual([
      { field: 'reference', message: 'is read-only: send it as read or leave it out' },
    ]);
    const refund = before.refunds[0];
    const relinked = await tenant.call(`/v1/claims/${claimId}/refunds/${refundId}`, {
      method: 'PATCH',
      body: { ...refund, credit_note_invoice_id: randomUUID() },
    });
    expect(relinked.status).toBe(400);
    expect(await read()).toEqual(before);
    // null clears: the read shows note null and supplier_contact null afterwards.
    const cleared = await tenant.call(`/v1/claims/${claimId}`, {
      method: 'PATCH',
      body: { ...before, note: null, supplier_contact: null },
    });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body).toMatchObject({ note: null, supplier_contact: null, title: before.title });
    const corrected = await tenant.call(`/v1/claims/${claimId}/refunds/${refundId}`, {
      method: 'PATCH',
      body: { ...refund, amount: '13.00' },
    });
    expect(corrected.body.refunds[0]).toMatchObject({ amount: '13.00', reference: 'R-1', note: null });
  });

  it('PATCH refuses a read-only field sent with another value than the record has, and changes nothing', async () => {
    const tenant = await createTenant();
    const invoice = await invoiceOf(tenant, newSupplier());
    const read = (await tenant.call(`/v1/invoices/${invoice.id}`)).body;
    const patched = await tenant.call(`/v1/invoices/${invoice.id}`, {
      method: 'PATCH',
      body: { ...read, buyer_reference: 'B-2', amounts: { ...read.amounts, currency_code: 'USD' } },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.error.details).toEqual([
      { field: 'amounts.currency_code', message: 'is read-only: send it as read or leave it out' },
    ]);
    expect((await tenant.call(`/v1/invoices/${invoice.id}`)).body).toEqual(read);
  });
});
