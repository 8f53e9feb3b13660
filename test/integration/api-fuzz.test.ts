import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SchemaSet } from '../support/json-schema.js';
import {
  operationsOf,
  RawBody,
  requestArbitrary,
  type FuzzRequest,
  type IdPools,
  type Operation,
} from '../support/fuzz-requests.js';
import { paperAndTonerPair, newSupplier, postAlert } from '../support/alerts.js';
import { agreementWithPrice, peppolInvoice, uploadedInvoice } from '../support/checks.js';
import { importDocument, uploadDocument } from '../support/invoices.js';
import { startTestRun } from '../support/runs.js';
import { expectError } from '../support/api.js';
import { createTenant, keyFor, type Tenant } from '../support/tenants.js';

// Property-based fuzzing of every operation of the contract (GET /v1/openapi.json) against the
// real stack, with an Admin key of a test organization holding a few records of each kind.
// Requests: path ids of the organization's records, of other records, random and malformed;
// query parameters valid and invalid per the schema; bodies valid per the schema, mutated, of
// the wrong type, with huge strings (within 2 MiB), deeply nested, malformed, oversized.
// Asserted: no 5xx and no stall; every error is the spec's error body as JSON with nothing
// internal in it; every 2xx is declared and its JSON body valid against the declared schema.
//
// Bounded: FUZZ_REQUESTS (default 1500) requests and FUZZ_SECONDS (default 180) seconds in all,
// spread over the operations. A failure prints the seed: FUZZ_SEED=<seed> replays the same run.
// docs/testing.md.

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const TOTAL_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 1500);
const TOTAL_SECONDS = Number(process.env.FUZZ_SECONDS ?? 180);
// The test stack allows 300 requests a minute per credential: a fresh Admin key well before that.
const REQUESTS_PER_KEY = 250;
const REQUEST_TIMEOUT_MS = 30_000;

const document: any = await (await fetch(`${inject('apiUrl')}/v1/openapi.json`)).json();
const schemas = new SchemaSet(document.components?.schemas ?? {});

// Reads first, then writes, then what deletes or cancels: records stay to be fuzzed for longest.
function destructiveRank(operation: Operation): number {
  if (operation.method === 'GET') return 0;
  if (operation.method === 'DELETE' || /\/(delete|remove|cancel)$/.test(operation.path)) return 2;
  return 1;
}
const operations = operationsOf(document).sort((a, b) => destructiveRank(a) - destructiveRank(b));
const runsPerOperation = Math.max(1, Math.floor(TOTAL_REQUESTS / operations.length));
const millisecondsPerOperation = Math.floor((TOTAL_SECONDS * 1000) / operations.length);
const MIN_MILLISECONDS_PER_OPERATION = 5_000;

console.log(
  `API fuzz: seed ${SEED} (replay: FUZZ_SEED=${SEED}), ${operations.length} operations x ${runsPerOperation} requests, at most ${millisecondsPerOperation} ms each`,
);

// ---- the organization and its records ----

let tenant: Tenant;
const keys: string[] = [];
let sent = 0;
const outcomes = new Map<string, number>();

const pools = new Map<string, Set<string>>();
const anyIds = new Set<string>();
const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

function addToPool(collection: string, ids: Iterable<string>) {
  const pool = pools.get(collection) ?? new Set<string>();
  for (const id of ids) pool.add(id);
  pools.set(collection, pool);
}

// Property and parameter names that name a kind of record (agreement_id, alert_ids, ...).
const COLLECTION_OF_NAME: Record<string, string> = {
  agreement: '/v1/agreements',
  invoice: '/v1/invoices',
  alert: '/v1/alerts',
  topic: '/v1/alert-topics',
  supplier: '/v1/suppliers',
  recipient: '/v1/recipients',
  tag: '/v1/agreements/tags',
  document: '/v1/documents',
  primary_document: '/v1/documents',
  attachment_document: '/v1/documents',
  workflow_run: '/v1/workflow-runs',
  run: '/v1/workflow-runs',
  item: '/v1/workflow-runs/{id}/items',
  price_item: '/v1/agreements/{id}/price-items',
  check: '/v1/compliance-checks',
  user: '/v1/members',
};

const idPools: IdPools = {
  idsFor(name) {
    const stem = name?.replace(/_ids?$/, '');
    const collection = stem ? COLLECTION_OF_NAME[stem] : undefined;
    return collection ? [...(pools.get(collection) ?? [])] : [];
  },
  forPathParameter(collection) {
    return [...(pools.get(collection) ?? [])];
  },
  any() {
    return [...anyIds];
  },
};

async function seedRecords() {
  tenant = await createTenant({ role: 'admin' });
  // The fuzz sends with keys of its own, so the tenant's key keeps its rate budget for seeding,
  // harvesting and the regression tests whatever the number of routes.
  keys.push(await keyFor(tenant, 'admin'));
  const invoice = await uploadedInvoice(tenant, peppolInvoice());
  const pair = await paperAndTonerPair(tenant, { supplier: newSupplier('Fuzz') });
  const alert = await postAlert(tenant, { invoice_id: pair.invoiceId, agreement_id: pair.agreementId });
  const priced = await agreementWithPrice(
    tenant,
    { title: 'Fuzzed prices', supplier_ids: [invoice.supplier.id], status: 'active' },
    '400.00',
  );
  await tenant.call('/v1/agreements/tags', { method: 'POST', body: { name: `fuzz-${SEED}` } });
  await tenant.call('/v1/alert-topics', {
    method: 'POST',
    body: { agreement_id: pair.agreementId, title: 'Fuzz topic', alert_ids: [alert.id] },
  });
  const documentId = await uploadDocument(tenant, 'invoice.xml', peppolInvoice());
  const imported = await importDocument(tenant, await uploadDocument(tenant, 'another.xml', peppolInvoice()));
  await tenant.call(`/v1/agreements/${priced.id}/document-imports`, {
    method: 'POST',
    body: { entries: [{ document_id: documentId }] },
  });
  await startTestRun(tenant, {
    items: [
      { key: 'a', behaviour: 'succeed' },
      { key: 'b', behaviour: 'fail' },
    ],
  });
  addToPool('/v1/documents', [documentId]);
  addToPool('/v1/invoices/imports', [imported.body.id]);
  await harvestIds();
}

// Every list of the contract, read once, tells the ids the fuzz uses as "records of the
// organization"; nested lists are read for a few parents each.
async function harvestIds() {
  const lists = operations.filter((operation) => operation.method === 'GET' && !operation.path.endsWith('}'));
  const byDepth = [...lists].sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  for (const list of byDepth) {
    const names = [...list.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
    if (names.length > 1) continue;
    const parents =
      names.length === 0
        ? [null]
        : [...(pools.get(list.path.slice(0, list.path.indexOf(`{${names[0]}}`) - 1)) ?? [])].slice(0, 3);
    for (const parent of parents) {
      const response = await tenant.call(parent ? list.path.replace(`{${names[0]}}`, parent) : list.path);
      if (response.status !== 200 || typeof response.body !== 'object') continue;
      for (const id of JSON.stringify(response.body).match(UUID_IN_TEXT) ?? []) anyIds.add(id);
      if (Array.isArray(response.body?.data))
        addToPool(list.path, response.body.data.map((row: { id?: string }) => row.id).filter(Boolean));
    }
  }
}

// ---- sending and checking ----

async function currentKey(): Promise<string> {
  const index = Math.floor(sent / REQUESTS_PER_KEY);
  while (keys.length <= index) keys.push(await keyFor(tenant, 'admin'));
  return keys[index]!;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

async function send(request: FuzzRequest): Promise<Answer> {
  const url = new URL(`${inject('apiUrl')}${request.path}`);
  for (const [name, value] of request.query) url.searchParams.append(name, value);
  const headers: Record<string, string> = {
    Authorization: `Bearer ${await currentKey()}`,
    'X-Organization-Id': tenant.organizationId,
  };
  let body: string | undefined;
  if (request.body && request.method !== 'GET') {
    if (request.body instanceof RawBody) {
      body = request.body.text();
      headers['Content-Type'] = request.body.contentType;
    } else {
      body = JSON.stringify(request.body.json) ?? 'null';
      headers['Content-Type'] = 'application/json';
    }
  }
  sent++;
  const response = await fetch(url, {
    method: request.method,
    headers,
    body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  }).catch((error: unknown) => {
    throw new Error(
      `no answer within ${REQUEST_TIMEOUT_MS} ms or connection lost: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}

// What a public error must never show: SQL, ORM or storage library text, file paths, stack
// frames, storage keys.
const INTERNALS =
  /prisma|invalid `|\bselect\b.*\bfrom\b|\binsert into\b|node_modules|\/work\/|\/tmp\/|\bat [\w.<>]+ \(|\.ts:\d+|minio|S3Error|organizations\/[0-9a-f-]{36}\/documents/i;

function checkAnswer(operation: Operation, request: FuzzRequest, answer: Answer) {
  const where = `${request.method} ${request.path} (${request.kind}) answered ${answer.status}: ${answer.text.slice(0, 600)}`;
  if (answer.status >= 500) throw new Error(`server error: ${where}`);
  if (answer.status >= 400) {
    if (!answer.contentType.includes('application/json'))
      throw new Error(`error without JSON content type (${answer.contentType}): ${where}`);
    const problems = schemas.validate({ $ref: '#/components/schemas/Error' }, JSON.parse(answer.text));
    if (problems.length > 0)
      throw new Error(`error body is not the spec's error body (${problems.join('; ')}): ${where}`);
    const { message, description } = JSON.parse(answer.text).error;
    if (INTERNALS.test(`${message} ${description ?? ''}`)) throw new Error(`error shows internals: ${where}`);
    return;
  }
  if (answer.status >= 200 && answer.status < 300) {
    const declared = operation.responses[String(answer.status)];
    if (!declared) throw new Error(`undeclared success status: ${where}`);
    if (answer.status === 204) {
      if (answer.text !== '') throw new Error(`204 with a body: ${where}`);
      return;
    }
    const declaredTypes = Object.keys(declared.content ?? {});
    if (declaredTypes.length === 0) return;
    const contentType = declaredTypes.find((type) => answer.contentType.startsWith(type));
    if (!contentType)
      throw new Error(`content type ${answer.contentType}, declared ${declaredTypes.join(' or ')}: ${where}`);
    const media = declared.content![contentType];
    if (contentType === 'application/json' && media?.schema) {
      const narrowed = request.query.some(([name]) => name === 'fields');
      const problems = schemas.validate(media.schema, JSON.parse(answer.text), '$', narrowed);
      if (problems.length > 0)
        throw new Error(`2xx body does not match the declared schema (${problems.slice(0, 5).join('; ')}): ${where}`);
    }
  }
}

beforeAll(seedRecords, 180_000);

afterAll(() => {
  const lines = [...outcomes.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, count]) => `${key}: ${count}`);
  console.log(`API fuzz: ${sent} requests (seed ${SEED})\n  ${lines.join('\n  ')}`);
});

describe('API fuzz from /v1/openapi.json', () => {
  it('understands every keyword of the contract document', () => {
    const unknown = new Set<string>();
    for (const operation of operations) {
      for (const parameter of operation.parameters)
        for (const keyword of schemas.unknownKeywords(parameter.schema)) unknown.add(keyword);
      if (operation.jsonBody) for (const keyword of schemas.unknownKeywords(operation.jsonBody)) unknown.add(keyword);
      for (const response of Object.values(operation.responses))
        for (const media of Object.values(response.content ?? {}))
          if (media.schema) for (const keyword of schemas.unknownKeywords(media.schema)) unknown.add(keyword);
    }
    expect([...unknown]).toEqual([]);
  });

  operations.forEach((operation, index) => {
    it(
      `${operation.method} ${operation.path}`,
      async () => {
        const property = fc.asyncProperty(requestArbitrary(schemas, operation, idPools), async (request) => {
          const answer = await send(request);
          const bucket = answer.status >= 500 ? '5xx' : String(answer.status);
          outcomes.set(`${request.kind} -> ${bucket}`, (outcomes.get(`${request.kind} -> ${bucket}`) ?? 0) + 1);
          checkAnswer(operation, request, answer);
        });
        await fc.assert(property, {
          seed: SEED + index,
          numRuns: runsPerOperation,
          // Shrinking would send many more requests; the seed replays the failing case instead.
          endOnFailure: true,
          // At least a few seconds: on a busy machine one slow first answer used up the whole share,
          // and a property interrupted before its first request fails with "0 tests".
          interruptAfterTimeLimit: Math.max(millisecondsPerOperation, MIN_MILLISECONDS_PER_OPERATION),
          markInterruptAsFailure: false,
        });
      },
      Math.max(millisecondsPerOperation, MIN_MILLISECONDS_PER_OPERATION) + 2 * REQUEST_TIMEOUT_MS,
    );
  });
});

// What the fuzz found, kept as plain regression tests (each was a 500 or a non-JSON error).
describe('requests the fuzz found answered wrongly', () => {
  // The fuzz may have spent the first key's rate budget moments ago: these use a fresh key.
  beforeAll(async () => {
    const key = await keyFor(tenant, 'admin');
    const fuzzed = tenant;
    tenant = { ...fuzzed, apiKey: key, call: (path, options = {}) => fuzzed.call(path, { token: key, ...options }) };
  });

  it('answers a malformed multipart body on a JSON route with 400, not 500', async () => {
    const response = await tenant.call('/v1/agreements', {
      method: 'POST',
      rawBody: 'a=1&',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
    });
    expectError(response, 400, 'validation_error');
  });

  it('refuses a number too large to store with 400 and changes nothing', async () => {
    const created = await tenant.call('/v1/invoices', {
      method: 'POST',
      body: {
        invoice_number: `BIG-${SEED}`,
        issue_date: '2026-03-15',
        currency_code: 'EUR',
        supplier: newSupplier('Big'),
        line_items: [{ description: 'Paper', quantity: '1', unit_price: '5.00', net_amount: '5.00' }],
        amounts: { excluding_vat: '5.00', vat: '0', including_vat: '5.00' },
      },
    });
    expect(created.status).toBe(201);
    const huge = '1'.repeat(30);
    const patched = await tenant.call(`/v1/invoices/${created.body.id}`, {
      method: 'PATCH',
      body: { line_items: [{ description: 'Paper', quantity: huge, unit_price: '5.00', net_amount: '5.00' }] },
    });
    expectError(patched, 400, 'validation_error');
    expect(patched.body.error.message).not.toMatch(/prisma|invoiceLine|numeric field/i);
    const after = await tenant.call(`/v1/invoices/${created.body.id}`);
    expect(after.body.line_items.map((line: any) => line.quantity)).toEqual(['1']);
  });

  it('refuses text with a NUL character with 400', async () => {
    const response = await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Nul\u0000title' } });
    expectError(response, 400, 'validation_error');
  });

  it('answers a URL longer than 16 KiB with the error body as JSON', async () => {
    const response = await fetch(`${inject('apiUrl')}/v1/invoices?search=${'x'.repeat(20_000)}`, {
      headers: { Authorization: `Bearer ${tenant.apiKey}` },
    });
    expect(response.status).toBe(431);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body: any = await response.json();
    expect(body.error).toMatchObject({
      code: 'request_head_too_large',
      message: expect.any(String),
      request_id: expect.stringMatching(/^req_/),
    });
  });
});
