import type { AppDeps } from '../deps.js';
import type { Texts } from './texts/index.js';

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
  alerts?: Iterable<string | null | undefined>;
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

async function lookup<T extends { id: string }>(
  ids: string[],
  find: (ids: string[]) => Promise<T[]>,
  name: (row: T) => string | null,
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await find(ids);
  return new Map(rows.map((row) => [row.id, name(row) ?? '']));
}

export async function labelsOf(
  deps: Pick<AppDeps, 'db'>,
  organizationId: string,
  request: LabelRequest,
): Promise<Labels> {
  const db = deps.db;
  const where = (ids: string[]) => ({ id: { in: ids }, organizationId });
  const [agreements, suppliers, recipients, invoices, topics, claims, tags, alerts] = await Promise.all([
    lookup(
      idsOf(request.agreements),
      (ids) => db.agreement.findMany({ where: where(ids), select: { id: true, title: true } }),
      (r) => r.title,
    ),
    lookup(
      idsOf(request.suppliers),
      (ids) => db.supplier.findMany({ where: where(ids), select: { id: true, name: true } }),
      (r) => r.name,
    ),
    lookup(
      idsOf(request.recipients),
      (ids) => db.recipient.findMany({ where: where(ids), select: { id: true, name: true } }),
      (r) => r.name,
    ),
    lookup(
      idsOf(request.invoices),
      (ids) => db.invoice.findMany({ where: where(ids), select: { id: true, invoiceNumber: true } }),
      (r) => r.invoiceNumber,
    ),
    lookup(
      idsOf(request.topics),
      (ids) => db.alertTopic.findMany({ where: where(ids), select: { id: true, title: true } }),
      (r) => r.title,
    ),
    lookup(
      idsOf(request.claims),
      (ids) => db.claim.findMany({ where: where(ids), select: { id: true, reference: true, title: true } }),
      (r) => `${r.reference} · ${r.title}`,
    ),
    lookup(
      idsOf(request.tags),
      (ids) => db.tag.findMany({ where: where(ids), select: { id: true, name: true } }),
      (r) => r.name,
    ),
    lookup(
      idsOf(request.alerts),
      (ids) => db.alert.findMany({ where: where(ids), select: { id: true, title: true } }),
      (r) => r.title,
    ),
  ]);
  return { agreements, suppliers, recipients, invoices, topics, claims, tags, alerts };
}

// ---------------------------------------------------------------------------------------------
// Codes in words. The API speaks in codes (statuses, failure codes, checkers, skip reasons); a
// finance person reads the label, and the code stays in a tooltip for whoever reports a problem.
// The words are the request's (texts/<locale>/codes.ts): views call `it.app.code`, pages pass
// `t.codes`. English is the default only for callers not yet given the request's texts.

type CodeTexts = Texts['codes'];

// "duplicate_charge" → "Charged twice"; a code without a label reads as words ("some_code" → "Some code").
export function codeLabel(code: string | null | undefined, codes: CodeTexts): string {
  if (!code) return '—';
  const known = codes.labels[code];
  if (known) return known;
  const words = code.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// What an alert's checker says about the charge, in the words of its kind: a price checker found
// more charged than agreed, an arithmetic checker a sum that does not add up, the duplicate checker
// a charge billed twice. Alerts from people or API clients say what their impact says.
export function alertSummary(
  alert: {
    impact_amount: string;
    provenance?: { checker?: string | null } | null;
  },
  codes: CodeTexts,
): string {
  const checker = alert.provenance?.checker;
  if (checker && codes.summaries[checker]) return codes.summaries[checker];
  return alert.impact_amount.startsWith('-') ? codes.chargedLess : codes.chargedMore;
}
