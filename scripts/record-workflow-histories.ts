// npx tsx scripts/record-workflow-histories.ts — records one history of every production workflow
// type (workflows/index.ts) on a fresh stack (the test suite's), driving each through the API as
// a client would, and saves what Temporal kept (handle.fetchHistory()) as JSON fixtures under
// test/fixtures/workflow-histories/. test/unit/workflows/replay.test.ts replays them against the
// current workflow code: a change that would break runs in flight fails there.
//
// Re-record only after an intended change that is versioned (patched()) or after the task queue
// was drained; see docs/testing.md. Options: --only <scenario,...> records some scenarios again.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { Client as MinioClient } from 'minio';
import { addMember, createApiKey, createOrganization } from '../src/admin/service.js';
import { createDb } from '../src/db/client.js';
import { repoRoot } from '../src/infra/defaults.js';
import { scheduleIdOf } from '../src/integrations/schedules.js';
import { deliveryWorkflowId } from '../src/notifications/workflow-ids.js';
import { startTestStack } from '../test/setup/stack.js';
import { TripletexStandin } from '../test/support/tripletex-standin.js';
import {
  HISTORIES_DIR,
  HISTORY_JSON,
  HistoryMessage,
  productionWorkflowTypes,
} from '../test/support/workflow-histories.js';

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = values.only ? new Set(values.only.split(',')) : null;

const samplesDir = process.env.SAMPLES_DIR ?? path.resolve(repoRoot, '../shared/samples');
const peppolTemplate = readFileSync(path.join(samplesDir, 'peppol-bis3/peppol-base-example.xml'), 'utf8');

function peppolInvoice(): Buffer {
  return Buffer.from(
    peppolTemplate
      .replace('<cbc:ID>Snippet1</cbc:ID>', `<cbc:ID>REC-${randomUUID().slice(0, 8)}</cbc:ID>`)
      .replace(
        '<cbc:Name>item name</cbc:Name>',
        '<cbc:Name>item name</cbc:Name><cac:SellersItemIdentification><cbc:ID>SKU-1</cbc:ID></cac:SellersItemIdentification>',
      ),
  );
}

const PRICE_LIST = [
  'Artikkelnummer;Beskrivelse;Enhet;Pris',
  'P-A4;Kopipapir A4;pk;42,50',
  'T-1;Toner sort;stk;615,00',
].join('\n');
const TERMS = 'Leveransevilkår. Alle priser er oppgitt eksklusive merverdiavgift. Fakturagebyr belastes ikke.';

interface Api {
  call(method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: any }>;
}

function apiOf(apiUrl: string, key: string, organizationId: string): Api {
  return {
    async call(method, urlPath, body) {
      const response = await fetch(`${apiUrl}${urlPath}`, {
        method,
        headers: {
          Authorization: `Bearer ${key}`,
          'X-Organization-Id': organizationId,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
  };
}

function expectStatus(response: { status: number; body: unknown }, expected: number, what: string) {
  if (response.status !== expected)
    throw new Error(`${what}: expected ${expected}, got ${response.status} ${JSON.stringify(response.body)}`);
}

async function settled(api: Api, runId: string): Promise<string> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const run = await api.call('GET', `/v1/workflow-runs/${runId}`);
    if (!['queued', 'running'].includes(run.body.status)) return run.body.status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${runId} did not finish`);
}

async function uploadDocument(api: Api, fileName: string, bytes: Buffer, mimeType: string): Promise<string> {
  const registration = await api.call('POST', '/v1/documents/upload', {
    file_name: fileName,
    mime_type: mimeType,
    file_size: bytes.length,
  });
  expectStatus(registration, 201, `register ${fileName}`);
  const put = await fetch(registration.body.upload_url, {
    method: 'PUT',
    headers: registration.body.headers,
    body: bytes,
  });
  if (!put.ok) throw new Error(`storage PUT of ${fileName} failed: ${put.status}`);
  return registration.body.document_id;
}

async function importInvoice(api: Api, bytes: Buffer, fileName = 'invoice.xml', mimeType = 'application/xml') {
  const started = await api.call('POST', '/v1/invoices/imports', {
    primary_document_id: await uploadDocument(api, fileName, bytes, mimeType),
  });
  expectStatus(started, 202, 'import');
  const status = await settled(api, started.body.workflow_run_id);
  const imported = await api.call('GET', `/v1/invoices/imports/${started.body.id}`);
  return {
    runId: started.body.workflow_run_id as string,
    status,
    invoiceId: imported.body.invoice_id as string | null,
  };
}

// Failures in a history carry the recording machine's stack traces (file paths); replay does not
// read them, so they are left out of the fixtures.
function withoutStackTraces(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutStackTraces);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [key, key === 'stackTrace' ? '' : withoutStackTraces(child)]),
    );
  }
  return value;
}

interface Scenario {
  name: string;
  workflowType: string;
  expectedStatus: string;
  // Starts the work and answers its run id (or, for workflows that are not runs, its workflow id).
  run(api: Api, context: Context): Promise<string>;
  // A workflow that is not a workflow run (notifications): settled by its Temporal result, and
  // expectedStatus is Temporal's status name.
  notRun?: boolean;
  // The Temporal workflow to record, once the run has settled; the run id when left out (a sync
  // runs as sync-<integration id>, a scheduled sync under the id its Schedule gave it).
  workflowId?(runId: string, api: Api, context: Context): Promise<string>;
}

interface Context {
  invoiceId: string;
  supplierId: string;
  agreementId: string;
  temporal: Client;
  taskQueue: string;
  // Where integrations read from: buckets of the stack's MinIO and the Tripletex stand-in.
  s3: { endpoint: string; accessKey: string; secretKey: string; client: MinioClient };
  tripletex: TripletexStandin;
}

// An inbox bucket of the stack's MinIO holding one new invoice, and an s3_inbox integration on it.
async function inboxIntegration(api: Api, context: Context, options: { autoSync?: boolean } = {}): Promise<string> {
  const bucket = `inbox-${randomUUID().slice(0, 8)}`;
  await context.s3.client.makeBucket(bucket, 'us-east-1');
  await context.s3.client.putObject(bucket, 'drop/invoice.xml', peppolInvoice());
  const created = await api.call('POST', '/v1/integrations', {
    provider: 's3_inbox',
    name: `Inbox ${bucket}`,
    auto_sync: options.autoSync ?? false,
    credentials: {
      endpoint: context.s3.endpoint,
      bucket,
      prefix: 'drop/',
      access_key: context.s3.accessKey,
      secret_key: context.s3.secretKey,
    },
  });
  expectStatus(created, 201, 'inbox integration');
  await passTest(api, created.body.id);
  return created.body.id;
}

// An integration syncs only once it has passed its test.
async function passTest(api: Api, integrationId: string) {
  const tested = await api.call('POST', `/v1/integrations/${integrationId}/test`);
  if (tested.body?.result !== 'passed') throw new Error(`integration test: ${JSON.stringify(tested.body)}`);
}

async function expectImported(api: Api, integrationId: string, syncId: string, what: string) {
  const sync = await api.call('GET', `/v1/integrations/${integrationId}/syncs/${syncId}`);
  if (!(sync.body.progress?.imported >= 1)) throw new Error(`${what}: imported nothing: ${JSON.stringify(sync.body)}`);
}

// Notification workflows are started by Schedules (effectively off while recording); here they are
// started directly, as the Schedule would.
async function executeScheduled(context: Context, workflowType: string): Promise<string> {
  const workflowId = `record-${workflowType}-${randomUUID()}`;
  await context.temporal.workflow.execute(workflowType, { taskQueue: context.taskQueue, workflowId, args: [] });
  return workflowId;
}

// Integrations of the recording, by run id: the sync scenarios look theirs up to find the workflow.
const integrationOfRun = new Map<string, string>();

const scenarios: Scenario[] = [
  {
    name: 'import-invoice.completed',
    workflowType: 'importInvoiceWorkflow',
    expectedStatus: 'completed',
    run: async (api) => (await importInvoice(api, peppolInvoice())).runId,
  },
  {
    name: 'import-invoice.failed',
    workflowType: 'importInvoiceWorkflow',
    expectedStatus: 'failed',
    run: async (api) =>
      (await importInvoice(api, Buffer.from('%PDF-1.7 this is not a readable PDF'), 'broken.pdf', 'application/pdf'))
        .runId,
  },
  {
    name: 'refresh-matches.invoices',
    workflowType: 'refreshMatchesWorkflow',
    expectedStatus: 'completed',
    run: async (api, context) => {
      const started = await api.call('POST', `/v1/invoices/${context.invoiceId}/agreements/refresh`);
      expectStatus(started, 202, 'refresh invoice');
      return started.body.workflow_run_id;
    },
  },
  {
    name: 'refresh-matches.organization',
    workflowType: 'refreshMatchesWorkflow',
    expectedStatus: 'completed',
    run: async (api, context) => {
      const started = await api.call('POST', `/v1/agreements/${context.agreementId}/invoices/refresh`);
      expectStatus(started, 202, 'refresh agreement');
      return started.body.workflow_run_id;
    },
  },
  // check-invoices.before-batches.json (no scenario) was recorded before checks ran in batches
  // (patch check-pairs-in-batches): it keeps the unpatched path replayed until the patch goes.
  {
    name: 'check-invoices.completed',
    workflowType: 'checkInvoicesWorkflow',
    expectedStatus: 'completed',
    run: async (api, context) => {
      const started = await api.call('POST', `/v1/invoices/${context.invoiceId}/check`, {});
      expectStatus(started, 202, 'check');
      return started.body.workflow_run_id;
    },
  },
  {
    name: 'reconcile-topics.completed',
    workflowType: 'reconcileTopicsWorkflow',
    expectedStatus: 'completed',
    run: async (api, context) => {
      const started = await api.call('POST', `/v1/agreements/${context.agreementId}/alert-topics/reconcile`);
      expectStatus(started, 202, 'reconcile');
      return started.body.workflow_run_id;
    },
  },
  {
    name: 'price-import.completed',
    workflowType: 'priceImportWorkflow',
    expectedStatus: 'completed',
    run: async (api) => {
      const agreement = await api.call('POST', '/v1/agreements', { title: 'Kontorrekvisita' });
      const documentId = await uploadDocument(api, 'prisliste.csv', Buffer.from(PRICE_LIST, 'utf8'), 'text/csv');
      const started = await api.call('POST', `/v1/agreements/${agreement.body.id}/price-imports`, {
        entries: [{ document_id: documentId, default_currency: 'NOK' }],
      });
      expectStatus(started, 202, 'price import');
      return started.body.workflow_run_id;
    },
  },
  {
    name: 'document-import.completed',
    workflowType: 'documentImportWorkflow',
    expectedStatus: 'completed',
    run: async (api) => {
      const agreement = await api.call('POST', '/v1/agreements', { title: 'Vilkår' });
      const terms = await uploadDocument(api, 'vilkaar.txt', Buffer.from(TERMS, 'utf8'), 'text/plain');
      const prices = await uploadDocument(api, 'artikler.csv', Buffer.from(PRICE_LIST, 'utf8'), 'text/csv');
      const started = await api.call('POST', `/v1/agreements/${agreement.body.id}/document-imports`, {
        entries: [{ document_id: terms }, { document_id: prices }],
      });
      expectStatus(started, 202, 'document import');
      return started.body.workflow_run_id;
    },
  },
  {
    name: 'document-index.completed',
    workflowType: 'documentIndexWorkflow',
    expectedStatus: 'completed',
    run: async (api) => {
      const documentId = await uploadDocument(api, 'vilkaar.txt', Buffer.from(TERMS, 'utf8'), 'text/plain');
      const started = await api.call('POST', `/v1/documents/${documentId}/index`);
      expectStatus(started, 202, 'document index');
      return started.body.workflow_run_id;
    },
  },
  {
    name: 'sync.completed',
    workflowType: 'syncWorkflow',
    expectedStatus: 'completed',
    run: async (api, context) => {
      const integrationId = await inboxIntegration(api, context);
      const started = await api.call('POST', `/v1/integrations/${integrationId}/syncs`, {
        date_from: new Date().toISOString().slice(0, 10),
      });
      expectStatus(started, 202, 'sync');
      integrationOfRun.set(started.body.id, integrationId);
      return started.body.id;
    },
    workflowId: async (runId, api) => {
      const integrationId = integrationOfRun.get(runId)!;
      await expectImported(api, integrationId, runId, 'sync');
      return `sync-${integrationId}`;
    },
  },
  {
    name: 'scheduled-sync.completed',
    workflowType: 'scheduledSyncWorkflow',
    expectedStatus: 'completed',
    run: async (api, context) => {
      const integrationId = await inboxIntegration(api, context, { autoSync: true });
      const schedule = context.temporal.schedule.getHandle(scheduleIdOf(integrationId));
      await schedule.trigger();
      // The Schedule's workflow opens the sync run a moment later.
      for (let attempt = 0; attempt < 300; attempt++) {
        const syncs = await api.call('GET', `/v1/integrations/${integrationId}/syncs`);
        const scheduled = syncs.body.data.find((sync: { trigger: string }) => sync.trigger === 'schedule');
        if (scheduled) {
          integrationOfRun.set(scheduled.id, integrationId);
          return scheduled.id;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the triggered Schedule opened no sync');
    },
    workflowId: async (runId, api, context) => {
      const integrationId = integrationOfRun.get(runId)!;
      await expectImported(api, integrationId, runId, 'scheduled sync');
      const actions = (await context.temporal.schedule.getHandle(scheduleIdOf(integrationId)).describe()).info
        .recentActions;
      const started = actions.at(-1)?.action;
      if (started?.type !== 'startWorkflow') throw new Error('the Schedule started no workflow');
      return started.workflow.workflowId;
    },
  },
  {
    name: 'refresh-suppliers.completed',
    workflowType: 'refreshSuppliersWorkflow',
    expectedStatus: 'completed',
    run: async (api, context) => {
      const created = await api.call('POST', '/v1/integrations', {
        provider: 'tripletex',
        name: 'Tripletex',
        credentials: {
          consumer_token: context.tripletex.consumerToken,
          employee_token: context.tripletex.employeeToken,
          base_url: context.tripletex.baseUrl,
        },
      });
      expectStatus(created, 201, 'tripletex integration');
      await passTest(api, created.body.id);
      const started = await api.call('POST', `/v1/integrations/${created.body.id}/suppliers/refresh`);
      expectStatus(started, 202, 'supplier refresh');
      return started.body.workflow_run_id;
    },
  },
  {
    // A check that creates alerts, followed by the organization's webhook, then the dispatch.
    name: 'dispatch-notifications.completed',
    workflowType: 'dispatchNotificationsWorkflow',
    expectedStatus: 'COMPLETED',
    notRun: true,
    run: async (api, context) => {
      // When the check scenario ran before, it made the alerts already (and this check is a 409).
      const started = await api.call('POST', `/v1/invoices/${context.invoiceId}/check`, {});
      if (started.status === 202) await settled(api, started.body.workflow_run_id);
      return executeScheduled(context, 'dispatchNotificationsWorkflow');
    },
  },
  {
    name: 'deliver-notification.completed',
    workflowType: 'deliverNotificationWorkflow',
    expectedStatus: 'COMPLETED',
    notRun: true,
    run: async (api) => {
      const deliveries = await api.call('GET', '/v1/notification-deliveries?events=new_alert');
      if (!deliveries.body.data?.length) throw new Error('no new_alert delivery to record');
      return deliveryWorkflowId({ id: deliveries.body.data[0].id, replays: 0 });
    },
  },
  {
    name: 'agreement-expiring-notifications.completed',
    workflowType: 'agreementExpiringNotificationsWorkflow',
    expectedStatus: 'COMPLETED',
    notRun: true,
    run: async (api, context) => {
      const expiration = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
      expectStatus(
        await api.call('POST', '/v1/agreements', {
          title: 'Expiring',
          status: 'active',
          effective_date: '2020-01-01',
          expiration_date: expiration,
        }),
        201,
        'expiring agreement',
      );
      return executeScheduled(context, 'agreementExpiringNotificationsWorkflow');
    },
  },
];

async function main() {
  const missing = productionWorkflowTypes().filter(
    (type) => !scenarios.some((scenario) => scenario.workflowType === type),
  );
  if (missing.length > 0)
    throw new Error(`no recording scenario for ${missing.join(', ')}: add one to scripts/record-workflow-histories.ts`);

  // Schedules effectively off (the notification scenarios start their workflows themselves).
  const stack = await startTestStack({ NOTIFICATION_DISPATCH_INTERVAL_SECONDS: '86400' });
  // A webhook receiver for the notification scenarios (127.0.0.1 is allowed in the test stack).
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const db = createDb(stack.env.DATABASE_URL!, 2);
  const connection = await Connection.connect({ address: stack.env.TEMPORAL_ADDRESS! });
  const temporal = new Client({ connection });
  const tripletex = await new TripletexStandin().start();
  tripletex.suppliers.push(
    { id: 501, name: 'Lieferant GmbH', organizationNumber: '999999001' },
    { id: 502, name: 'LE FOURNISSEUR', organizationNumber: '999999002' },
  );
  const s3Endpoint = new URL(stack.env.S3_ENDPOINT!);
  const s3 = {
    endpoint: stack.env.S3_ENDPOINT!,
    accessKey: stack.env.S3_ACCESS_KEY!,
    secretKey: stack.env.S3_SECRET_KEY!,
    client: new MinioClient({
      endPoint: s3Endpoint.hostname,
      port: Number(s3Endpoint.port),
      useSSL: false,
      accessKey: stack.env.S3_ACCESS_KEY!,
      secretKey: stack.env.S3_SECRET_KEY!,
      pathStyle: true,
    }),
  };
  try {
    const organization = await createOrganization(db, { name: 'Workflow histories' });
    const user = await addMember(db, {
      organizationId: organization.id,
      email: 'recorder@example.test',
      name: 'Recorder',
      role: 'admin',
    });
    const key = await createApiKey(db, { organizationId: organization.id, userId: user.id, level: 'admin' });
    const api = apiOf(stack.apiUrl, key.key, organization.id);

    // An invoice matched to an active agreement with a price, so checks and topics have work.
    const invoice = await importInvoice(api, peppolInvoice());
    const read = await api.call('GET', `/v1/invoices/${invoice.invoiceId}`);
    const agreement = await api.call('POST', '/v1/agreements', {
      title: 'Consulting 2017',
      status: 'active',
      effective_date: '2017-01-01',
      expiration_date: '2017-12-31',
      supplier_ids: [read.body.supplier.id],
    });
    expectStatus(agreement, 201, 'agreement');
    const priced = await api.call('POST', `/v1/agreements/${agreement.body.id}/price-items`, {
      entries: [
        {
          description: 'item name',
          seller_item_id: 'SKU-1',
          unit: 'DAY',
          currency_code: 'EUR',
          price: { type: 'amount', amount: '350.00' },
        },
      ],
    });
    expectStatus(priced, 201, 'price items');
    const context: Context = {
      invoiceId: invoice.invoiceId!,
      supplierId: read.body.supplier.id,
      agreementId: agreement.body.id,
      temporal,
      taskQueue: stack.env.TEMPORAL_TASK_QUEUE!,
      s3,
      tripletex,
    };
    const preference = await api.call('PUT', '/v1/notification-preferences?owner=organization', {
      preferences: [
        {
          owner: 'organization',
          scope: 'organization',
          sources: [],
          channels: [{ type: 'webhook', enabled: true, events: ['new_alert', 'agreement_expiring'], url: receiverUrl }],
        },
      ],
    });
    expectStatus(preference, 200, 'notification preference');
    const rematch = await api.call('POST', `/v1/agreements/${agreement.body.id}/invoices/refresh`);
    await settled(api, rematch.body.workflow_run_id);

    mkdirSync(HISTORIES_DIR, { recursive: true });
    for (const scenario of scenarios) {
      if (only && !only.has(scenario.name)) continue;
      const runId = await scenario.run(api, context);
      const status = scenario.notRun
        ? (
            await temporal.workflow
              .getHandle(runId)
              .result()
              .then(() => temporal.workflow.getHandle(runId).describe())
          ).status.name
        : await settled(api, runId);
      if (status !== scenario.expectedStatus)
        throw new Error(`${scenario.name}: the run ended ${status}, expected ${scenario.expectedStatus}`);
      const handle = temporal.workflow.getHandle(
        scenario.workflowId ? await scenario.workflowId(runId, api, context) : runId,
      );
      // The workflow closes just after its run does: wait for it, whatever its outcome.
      await handle.result().catch(() => undefined);
      const description = await handle.describe();
      if (description.type !== scenario.workflowType)
        throw new Error(`${scenario.name}: recorded ${description.type}, expected ${scenario.workflowType}`);
      // protobufjs' JSON object form (what History.fromObject reads back): the SDK's own
      // historyToJSON fails in this install (its nested protobufjs 8 against @temporalio/proto's 7).
      const history = HistoryMessage.toObject(HistoryMessage.fromObject(await handle.fetchHistory()), HISTORY_JSON) as {
        events: unknown[];
      };
      const fixture = {
        scenario: scenario.name,
        workflow_type: scenario.workflowType,
        workflow_id: handle.workflowId,
        run_status: status,
        temporal_status: description.status.name,
        history: withoutStackTraces(history),
      };
      const file = path.join(HISTORIES_DIR, `${scenario.name}.json`);
      writeFileSync(file, `${JSON.stringify(fixture, null, 1)}\n`);
      console.log(
        `${scenario.name}: ${description.type} ${description.status.name}, ${history.events.length} events -> ${path.relative(repoRoot, file)}`,
      );
    }
  } finally {
    await tripletex.stop();
    receiver.close();
    await connection.close().catch(() => undefined);
    await db.$disconnect();
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  },
);
