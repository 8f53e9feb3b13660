import type { AppDeps } from '../deps.js';

// Names to show beside the ids an API representation carries (an alert's agreement_id, an
// agreement's supplier_ids): one query per kind for a whole page, scoped to the organization, only
// the display column. The records themselves come from the API's operations (operations.ts).

export interface LabelRequest {
  agreements?: Iterable<string | null | undefined>;
  suppliers?: Iterable<string | null | undefined>;
  recipients?: Iterable<string | null | undefined>;
  invoices?: Iterable<string | null | undefined>;
  topics?: Iterable<string | null | undefined>;
  claims?: Iterable<string | null | undefined>;
  tags?: Iterable<string | null | undefined>;
}

export type Labels = { [K in keyof LabelRequest]-?: Map<string, string> };

// A page shows at most a few hundred references; more is a caller's mistake, not a reason to send
// a statement past PostgreSQL's bind-parameter limit.
const MAX_IDS = 5000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function idsOf(values: Iterable<string | null | undefined> | undefined): string[] {
  const ids = new Set<string>();
  for (const value of values ?? []) if (value && UUID.test(value)) ids.add(value);
  if (ids.size > MAX_IDS) throw new Error(`labels for ${ids.size} records asked; at most ${MAX_IDS}`);
  return [...ids];
}

async function lookup<T extends { id: string }>(ids: string[], find: (ids: string[]) => Promise<T[]>, name: (row: T) => string | null): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await find(ids);
  return new Map(rows.map((row) => [row.id, name(row) ?? '']));
}

export async function labelsOf(deps: Pick<AppDeps, 'db'>, organizationId: string, request: LabelRequest): Promise<Labels> {
  const db = deps.db;
  const where = (ids: string[]) => ({ id: { in: ids }, organizationId });
  const [agreements, suppliers, recipients, invoices, topics, claims, tags] = await Promise.all([
    lookup(idsOf(request.agreements), (ids) => db.agreement.findMany({ where: where(ids), select: { id: true, title: true } }), (r) => r.title),
    lookup(idsOf(request.suppliers), (ids) => db.supplier.findMany({ where: where(ids), select: { id: true, name: true } }), (r) => r.name),
    lookup(idsOf(request.recipients), (ids) => db.recipient.findMany({ where: where(ids), select: { id: true, name: true } }), (r) => r.name),
    lookup(idsOf(request.invoices), (ids) => db.invoice.findMany({ where: where(ids), select: { id: true, invoiceNumber: true } }), (r) => r.invoiceNumber),
    lookup(idsOf(request.topics), (ids) => db.alertTopic.findMany({ where: where(ids), select: { id: true, title: true } }), (r) => r.title),
    lookup(idsOf(request.claims), (ids) => db.claim.findMany({ where: where(ids), select: { id: true, reference: true, title: true } }), (r) => `${r.reference} · ${r.title}`),
    lookup(idsOf(request.tags), (ids) => db.tag.findMany({ where: where(ids), select: { id: true, name: true } }), (r) => r.name),
  ]);
  return { agreements, suppliers, recipients, invoices, topics, claims, tags };
}
