// The application's actions for the web benchmark (scripts/bench/web.ts): the forms a person
// posts (triage in bulk, one alert dismissed or claimed, a reading confirmed, a team's live
// count, a price list previewed, an invoice uploaded). An action changes what it acts on, so each
// request gets targets of its own, picked from the seeded data before the first request; the
// seeding here adds what the volume lacks (invoices in the review queue with their original, a
// team).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { repoRoot } from '../../src/infra/defaults.js';
import type { BenchContext } from './support.js';

// Alerts per bulk dismiss and, at most, per bulk claim: a page's worth of ticked boxes.
const BULK_DISMISSED = 50;
const BULK_CLAIMED = 20;
// SAMPLES_DIR as in the tests (a git worktree has no ../shared beside it).
const SAMPLES_DIR = process.env.SAMPLES_DIR ?? path.resolve(repoRoot, '../shared/samples');
const REVIEW_PDF = 'pdf-plain/mustang-RE-20170509_505blanko.pdf';
const UPLOADED_XML = 'peppol-bis3/peppol-base-example.xml';

export interface ActionCase {
  name: string;
  // How many requests its targets allow (the benchmark takes at most this many).
  available: number;
  // The statuses that mean "done" (a redirect after the form, the page or fragment answered).
  expected: number[];
  htmx?: boolean;
  // The i-th request: where it posts and what.
  request(i: number): { path: string; form: Record<string, string | string[]>; file?: PostedFile };
}

export interface PostedFile {
  field: string;
  name: string;
  type: string;
  bytes: Buffer;
}

interface OpenAlert {
  id: string;
  agreementId: string;
  supplierId: string;
}

// Pending alerts outside any claim, on an active match (a set-aside alert cannot be dismissed),
// outside the big invoice the invoice page shows.
async function openAlerts(client: pg.Client, organizationId: string, bigInvoice: string): Promise<OpenAlert[]> {
  const { rows } = await client.query(
    `SELECT a.id, a.agreement_id, i.supplier_id FROM alerts a
       JOIN invoices i ON i.id = a.invoice_id
       JOIN invoice_agreement_matches m ON m.invoice_id = a.invoice_id AND m.agreement_id = a.agreement_id AND m.active
      WHERE a.organization_id = $1 AND a.status = 'pending' AND a.claim_id IS NULL AND a.invoice_id <> $2
      ORDER BY a.id`,
    [organizationId, bigInvoice],
  );
  return rows.map((r) => ({ id: r.id, agreementId: r.agreement_id, supplierId: r.supplier_id }));
}

// Invoices in the review queue as the layout reader leaves them: uncertain, with the boxes their
// values were read from, and a PDF original (one stored file for all; its page count is read once).
export async function seedReviewQueue({ tenant }: BenchContext, client: pg.Client, count: number): Promise<string[]> {
  const bytes = await readFile(path.join(SAMPLES_DIR, REVIEW_PDF));
  const registration = await tenant.call('/v1/documents/upload', {
    method: 'POST',
    body: { file_name: 'scan.pdf', mime_type: 'application/pdf', file_size: bytes.length, category: 'invoice' },
  });
  if (registration.status !== 201 && registration.status !== 200)
    throw new Error(`document upload: ${registration.status} ${JSON.stringify(registration.body)}`);
  const stored = await fetch(registration.body.upload_url, {
    method: 'PUT',
    headers: registration.body.headers,
    body: bytes,
  });
  if (!stored.ok) throw new Error(`document bytes: HTTP ${stored.status}`);
  const box = (y: number) => ({ page: 1, box: { x: 0.6, y, width: 0.25, height: 0.02 }, text: 'read' });
  const extraction = {
    method: 'pdf_text',
    linesReliable: false,
    missing: [],
    needsReview: true,
    reviewReasons: ['The lines do not add up to the net total.'],
    confidence: { overall: 0.55, lines: 0.55, fields: { invoiceNumber: 0.9, issueDate: 0.8, 'totals.payable': 0.6 } },
    sources: { invoiceNumber: box(0.1), issueDate: box(0.13), 'totals.payable': box(0.8) },
  };
  const { rows } = await client.query(
    `UPDATE invoices SET extraction = $2::jsonb, primary_document_id = $3
      WHERE id IN (SELECT id FROM invoices WHERE organization_id = $1 AND processing_status = 'completed'
                    ORDER BY created_at LIMIT $4)
      RETURNING id, created_at`,
    [tenant.organizationId, JSON.stringify(extraction), registration.body.document_id, count],
  );
  return rows.sort((a, b) => a.created_at - b.created_at).map((r) => r.id as string);
}

// A team whose filter covers most invoices (NOK above 1,000), for its page and its saved count.
export async function seedTeam({ tenant }: BenchContext): Promise<string> {
  const created = await tenant.call('/v1/teams', {
    method: 'POST',
    body: {
      name: 'Norwegian spend',
      filter: {
        schema_version: 1,
        root: {
          combinator: 'and',
          children: [
            { field: 'invoice.currency', op: 'is', value: 'NOK' },
            { field: 'invoice.amount', op: 'gt', value: '1000' },
          ],
        },
      },
    },
  });
  if (created.status !== 201) throw new Error(`team: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.id as string;
}

// A price list as a Nordic spreadsheet exports it (semicolons, decimal commas).
function priceListCsv(rows: number): Buffer {
  const lines = ['Varenummer;Beskrivelse;Enhet;Pris;Valuta'];
  for (let n = 1; n <= rows; n++) lines.push(`ART-${String(n).padStart(5, '0')};Article ${n};stk;${9 + n},50;NOK`);
  return Buffer.from(lines.join('\r\n'), 'utf8');
}

export interface ActionFixtures {
  agreement: string;
  bigInvoice: string;
  reviewQueue: string[];
  // How many requests each action gets at most (warm-up included).
  requests: number;
}

export async function actionCases(client: pg.Client, organizationId: string, f: ActionFixtures): Promise<ActionCase[]> {
  const alerts = await openAlerts(client, organizationId, f.bigInvoice);
  // Groups of one agreement and supplier (a claim's scope) for the bulk claims, the rest alone.
  const groups = new Map<string, string[]>();
  for (const alert of alerts) {
    const key = `${alert.agreementId}/${alert.supplierId}`;
    groups.set(key, [...(groups.get(key) ?? []), alert.id]);
  }
  const claimGroups = [...groups.values()]
    .filter((ids) => ids.length >= 2)
    .slice(0, f.requests)
    .map((ids) => ids.slice(0, BULK_CLAIMED));
  const taken = new Set(claimGroups.flat());
  const single = alerts.filter((a) => !taken.has(a.id)).map((a) => a.id);
  const dismissOne = single.slice(0, f.requests);
  const claimOne = single.slice(f.requests, 2 * f.requests);
  const bulk = single.slice(2 * f.requests);
  const csv = priceListCsv(200);
  const xml = await readFile(path.join(SAMPLES_DIR, UPLOADED_XML), 'utf8');
  const teamForm = {
    'root.combinator': 'and',
    'n.0.field': 'invoice.currency',
    'n.0.op': 'is',
    'n.0.value': 'NOK',
    'n.1.field': 'invoice.amount',
    'n.1.op': 'gt',
    'n.1.value': '1000',
  };
  return [
    {
      name: 'team: live count',
      available: Number.POSITIVE_INFINITY,
      expected: [200],
      htmx: true,
      request: () => ({ path: '/app/teams/count', form: teamForm }),
    },
    {
      name: `alerts: bulk dismiss ${BULK_DISMISSED}`,
      available: Math.floor(bulk.length / BULK_DISMISSED),
      expected: [200],
      request: (i) => ({
        path: '/app/alerts/bulk',
        form: {
          alert_ids: bulk.slice(i * BULK_DISMISSED, (i + 1) * BULK_DISMISSED),
          scope: 'selected',
          action: 'dismiss',
          category: 'Agreed with the supplier',
        },
      }),
    },
    {
      name: `alerts: bulk new claim (<=${BULK_CLAIMED})`,
      available: claimGroups.length,
      expected: [200],
      request: (i) => ({
        path: '/app/alerts/bulk',
        form: { alert_ids: claimGroups[i]!, scope: 'selected', action: 'claim', claim_id: 'new', title: `Bulk ${i}` },
      }),
    },
    {
      name: 'alert: dismiss',
      available: dismissOne.length,
      expected: [303],
      request: (i) => ({ path: `/app/alerts/${dismissOne[i]}/dismiss`, form: { category: 'Agreed price change' } }),
    },
    {
      name: 'alert: new claim',
      available: claimOne.length,
      expected: [303],
      request: (i) => ({ path: `/app/alerts/${claimOne[i]}/claim`, form: { claim_id: 'new', title: `Claim ${i}` } }),
    },
    {
      // The review item's Save with nothing changed: the reading confirmed as it is.
      name: 'review: confirm reading',
      available: f.reviewQueue.length - 1,
      expected: [303],
      request: (i) => ({ path: `/app/review/invoices/${f.reviewQueue[i]}`, form: { from: 'queue' } }),
    },
    {
      name: 'price import: preview (200 rows)',
      available: Number.POSITIVE_INFINITY,
      expected: [200],
      request: () => ({
        path: `/app/agreements/${f.agreement}/price-import/preview`,
        form: {
          default_currency: 'NOK',
          mode: 'add',
          worksheets: '',
          instructions: '',
          document_id: '',
          file_name: '',
        },
        file: { field: 'file', name: 'prisliste.csv', type: 'text/csv', bytes: csv },
      }),
    },
    {
      // Last: each upload starts an import that runs in the background.
      name: 'invoices: upload one',
      available: Number.POSITIVE_INFINITY,
      expected: [200],
      htmx: true,
      request: (i) => ({
        path: '/app/invoices/upload',
        form: {},
        file: {
          field: 'files',
          name: `invoice-${i}.xml`,
          type: 'application/xml',
          bytes: Buffer.from(xml.replace('<cbc:ID>Snippet1</cbc:ID>', `<cbc:ID>WEB-BENCH-${i}</cbc:ID>`)),
        },
      }),
    },
  ];
}
