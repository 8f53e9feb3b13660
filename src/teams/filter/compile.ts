import { Decimal } from 'decimal.js';
import { Prisma } from '../../db/client.js';
import type { Condition, Group, TeamFilter } from './definition.js';

// Compiles a validated team filter into a SQL boolean over one row of the target table. Each
// condition is evaluated on its own over the records related to the row (docs/teams.md
// "Evaluation"), so one statement evaluates the filter for a whole list or total: nothing is
// evaluated row by row in JavaScript.
//
// The SQL is shaped so that its cost per row stays a few index probes whatever the organization's
// size (EXPLAIN evidence in docs/teams.md "How it runs"):
// - lookups of other tables that do not depend on the row (the suppliers of a country, the
//   agreements of a tag or an expiration date) are uncorrelated `IN (SELECT ...)`: PostgreSQL runs
//   them once per statement into a hash table, never once per row;
// - an invoice's agreement conditions are EXISTS over its matches whose only link to the row is
//   `m.invoice_id = row.id`: PostgreSQL probes the primary key for a page of rows and turns them
//   into one hashed set of invoice ids for a total over the whole organization;
// - a record with exactly one invoice and one agreement (an alert) joins them once and evaluates
//   the whole tree over that pair;
// - a record with many related invoices (an agreement, a claim) reads them once, computing one
//   flag per invoice condition (bool_or), instead of one scan per condition.

export type FilterTarget = 'invoice' | 'agreement' | 'alert' | 'claim';

export interface CompileOptions {
  // Every lookup of another table is bound to the organization (tenancy, and index use).
  organizationId: string;
  // The outer row's alias; defaults to the table name.
  alias?: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;
// Aliases used inside the compiled SQL; the outer row must not use them.
const INNER_ALIASES = new Set(['inv', 'ag', 'm', 'al', 's', 't', 'x', 'f']);

type Sql = Prisma.Sql;
const TRUE = Prisma.sql`TRUE`;
const FALSE = Prisma.sql`FALSE`;
const INV = Prisma.raw('inv');
const AG = Prisma.raw('ag');

const COMPARE: Record<string, string> = {
  eq: '=',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  on: '=',
  before: '<',
  on_or_before: '<=',
  after: '>',
  on_or_after: '>=',
};
const TODAY = Prisma.sql`(now() AT TIME ZONE 'UTC')::date`;
const AGREEMENT_FIELDS = new Set(['agreement.id', 'agreement.tag', 'agreement.expiration_date']);

// Negative ops (is_not, is_none_of, not_contains) are compiled as "no related record meets the
// positive form", so every predicate below is the positive form.
function isNegative(condition: Condition): boolean {
  return condition.op === 'is_not' || condition.op === 'is_none_of' || condition.op === 'not_contains';
}

function positiveValues(condition: Condition): string[] {
  return Array.isArray(condition.value) ? condition.value : [String(condition.value)];
}

const isContains = (condition: Condition) => condition.op === 'contains' || condition.op === 'not_contains';
const uuids = (condition: Condition) => Prisma.sql`${positiveValues(condition)}::uuid[]`;
const lowered = (condition: Condition) => Prisma.sql`${positiveValues(condition).map((v) => v.toLowerCase())}::text[]`;

// Exact text: the lowered value is one of the wanted ones; contains: the wanted text occurs in it
// (strpos: no pattern syntax).
function textMatches(text: Sql, condition: Condition): Sql {
  if (isContains(condition))
    return Prisma.sql`strpos(lower(${text}), ${(condition.value as string).toLowerCase()}) > 0`;
  return Prisma.sql`lower(${text}) = ANY(${lowered(condition)})`;
}

function relativeDate(column: Sql, value: string): Sql {
  const days = Number(value.replace(/\D/g, ''));
  return value.startsWith('last_')
    ? Prisma.sql`(${column} >= ${TODAY} - ${days}::int AND ${column} <= ${TODAY})`
    : Prisma.sql`(${column} >= ${TODAY} AND ${column} <= ${TODAY} + ${days}::int)`;
}

function dateCondition(column: Sql, condition: Condition): Sql {
  if (condition.op === 'within') return relativeDate(column, condition.value);
  return Prisma.sql`${column} ${Prisma.raw(COMPARE[condition.op]!)} ${condition.value}::date`;
}

// --- the positive form of a condition over one invoice row ------------------------------------

const ADDRESS_LINES = (inv: Sql) =>
  Prisma.sql`jsonb_array_elements_text(CASE WHEN jsonb_typeof(${inv}.delivery_address->'lines') = 'array' THEN ${inv}.delivery_address->'lines' ELSE '[]'::jsonb END)`;

// The address as one line: "lines, postal code city, country".
function addressLine(inv: Sql): Sql {
  return Prisma.sql`NULLIF(concat_ws(', ',
    (SELECT string_agg(x, ', ') FROM ${ADDRESS_LINES(inv)} x),
    concat_ws(' ', ${inv}.delivery_address->>'postalCode', ${inv}.delivery_address->>'city'),
    ${inv}.delivery_address->>'countryCode'), '')`;
}

// Exact text matches a street line, the city, the postal code, the country code or the one line;
// contains searches the one line. Rows without an address skip the JSON work.
function deliveryAddress(inv: Sql, condition: Condition): Sql {
  if (isContains(condition))
    return Prisma.sql`(${inv}.delivery_address IS NOT NULL AND ${textMatches(addressLine(inv), condition)})`;
  const wanted = lowered(condition);
  return Prisma.sql`(${inv}.delivery_address IS NOT NULL AND (
    lower(${inv}.delivery_address->>'city') = ANY(${wanted}) OR lower(${inv}.delivery_address->>'postalCode') = ANY(${wanted})
    OR lower(${inv}.delivery_address->>'countryCode') = ANY(${wanted}) OR lower(${addressLine(inv)}) = ANY(${wanted})
    OR EXISTS (SELECT 1 FROM ${ADDRESS_LINES(inv)} x WHERE lower(x) = ANY(${wanted}))))`;
}

function invoicePredicate(condition: Condition, inv: Sql, organizationId: string): Sql {
  switch (condition.field) {
    case 'supplier.id':
      return Prisma.sql`${inv}.supplier_id = ANY(${uuids(condition)})`;
    case 'recipient.id':
      return Prisma.sql`${inv}.recipient_id = ANY(${uuids(condition)})`;
    case 'supplier.country':
      // The organization's suppliers in those countries: once per statement, hashed.
      return Prisma.sql`${inv}.supplier_id IN (SELECT s.id FROM suppliers s WHERE s.organization_id = ${organizationId}::uuid AND ${textMatches(Prisma.sql`s.country_code`, condition)})`;
    case 'invoice.currency':
      return textMatches(Prisma.sql`${inv}.currency_code`, condition);
    case 'invoice.reference':
      return isContains(condition)
        ? textMatches(
            Prisma.sql`concat_ws(' ', ${inv}.buyer_reference, ${inv}.order_reference, ${inv}.contract_reference)`,
            condition,
          )
        : Prisma.sql`(${textMatches(Prisma.sql`${inv}.buyer_reference`, condition)} OR ${textMatches(Prisma.sql`${inv}.order_reference`, condition)} OR ${textMatches(Prisma.sql`${inv}.contract_reference`, condition)})`;
    case 'invoice.delivery_address':
      return deliveryAddress(inv, condition);
    case 'invoice.amount': {
      const amount = new Decimal(condition.value).toFixed();
      return Prisma.sql`${inv}.tax_inclusive_amount ${Prisma.raw(COMPARE[condition.op]!)} ${amount}::numeric`;
    }
    default:
      return dateCondition(Prisma.sql`${inv}.issue_date`, condition);
  }
}

// --- the positive form of a condition over one agreement row ----------------------------------

function agreementPredicate(condition: Condition, ag: Sql): Sql {
  if (condition.field === 'agreement.id') return Prisma.sql`${ag}.id = ANY(${uuids(condition)})`;
  // The agreements carrying those tags: once per statement, hashed (tags are the organization's).
  if (condition.field === 'agreement.tag')
    return Prisma.sql`${ag}.id IN (SELECT t.agreement_id FROM agreement_tags t WHERE t.tag_id = ANY(${uuids(condition)}))`;
  return dateCondition(Prisma.sql`${ag}.expiration_date`, condition);
}

// --- the tree ---------------------------------------------------------------------------------

// How one target reads a condition's positive form over the records related to its row.
type PositiveOf = (condition: Condition) => Sql;

function conditionSql(positive: PositiveOf, condition: Condition): Sql {
  const met = Prisma.sql`COALESCE((${positive(condition)}), FALSE)`;
  return isNegative(condition) ? Prisma.sql`NOT ${met}` : met;
}

function groupSql(positive: PositiveOf, group: Group): Sql {
  const parts = group.children.map((child) =>
    'combinator' in child ? groupSql(positive, child) : conditionSql(positive, child),
  );
  if (parts.length === 0) return group.combinator === 'and' ? TRUE : FALSE;
  return Prisma.sql`(${Prisma.join(parts, group.combinator === 'and' ? ' AND ' : ' OR ')})`;
}

function conditionsOf(group: Group): Condition[] {
  return group.children.flatMap((child) => ('combinator' in child ? conditionsOf(child) : [child]));
}

const isAgreementCondition = (condition: Condition) => AGREEMENT_FIELDS.has(condition.field);

// One flag per invoice condition, computed in one pass over the related invoices (alias inv):
// `bool_or` is true when any of them meets it. Answers the select list and how to read a flag.
function invoiceFlags(filter: TeamFilter, organizationId: string): { select: Sql; flagOf: PositiveOf } | null {
  const invoiceConditions = conditionsOf(filter.root).filter((c) => !isAgreementCondition(c));
  if (invoiceConditions.length === 0) return null;
  const index = new Map(invoiceConditions.map((condition, i) => [condition, i]));
  const select = Prisma.join(
    invoiceConditions.map(
      (condition, i) =>
        Prisma.sql`bool_or(${invoicePredicate(condition, INV, organizationId)}) AS ${Prisma.raw(`c${i}`)}`,
    ),
  );
  return { select, flagOf: (condition) => Prisma.raw(`f.c${index.get(condition)!}`) };
}

function invoiceTarget(filter: TeamFilter, row: Sql, organizationId: string): Sql {
  return groupSql((condition) => {
    if (!isAgreementCondition(condition)) return invoicePredicate(condition, row, organizationId);
    // Any agreement the invoice is actively matched to.
    return Prisma.sql`EXISTS (SELECT 1 FROM invoice_agreement_matches m JOIN agreements ag ON ag.id = m.agreement_id
      WHERE m.invoice_id = ${row}.id AND m.active AND m.organization_id = ${organizationId}::uuid AND ${agreementPredicate(condition, AG)})`;
  }, filter.root);
}

// An alert has one invoice and one agreement: both are read once and the tree evaluated over them.
function alertTarget(filter: TeamFilter, row: Sql, organizationId: string): Sql {
  const tree = groupSql(
    (condition) =>
      isAgreementCondition(condition)
        ? agreementPredicate(condition, AG)
        : invoicePredicate(condition, INV, organizationId),
    filter.root,
  );
  return Prisma.sql`EXISTS (SELECT 1 FROM invoices inv JOIN agreements ag ON ag.id = ${row}.agreement_id WHERE inv.id = ${row}.invoice_id AND ${tree})`;
}

// An agreement: its own fields, and any of its matched, not deleted invoices; supplier.id and
// recipient.id are also met by its own suppliers and recipients (so one without invoices counts).
function agreementTarget(filter: TeamFilter, row: Sql, organizationId: string): Sql {
  const flags = invoiceFlags(filter, organizationId);
  const tree = groupSql((condition) => {
    if (isAgreementCondition(condition)) return agreementPredicate(condition, row);
    const viaInvoices = flags!.flagOf(condition);
    if (condition.field === 'supplier.id')
      return Prisma.sql`(${viaInvoices} OR EXISTS (SELECT 1 FROM agreement_suppliers x WHERE x.agreement_id = ${row}.id AND x.supplier_id = ANY(${uuids(condition)})))`;
    if (condition.field === 'recipient.id')
      return Prisma.sql`(${viaInvoices} OR EXISTS (SELECT 1 FROM agreement_recipients x WHERE x.agreement_id = ${row}.id AND x.recipient_id = ANY(${uuids(condition)})))`;
    return viaInvoices;
  }, filter.root);
  if (!flags) return tree;
  return Prisma.sql`EXISTS (SELECT 1 FROM (SELECT ${flags.select} FROM invoice_agreement_matches m JOIN invoices inv ON inv.id = m.invoice_id
    WHERE m.agreement_id = ${row}.id AND m.active AND inv.deleted_at IS NULL) f WHERE ${tree})`;
}

// A claim: the invoices of its alerts (supplier.id also the claim's supplier) and its agreement.
function claimTarget(filter: TeamFilter, row: Sql, organizationId: string): Sql {
  const flags = invoiceFlags(filter, organizationId);
  const tree = groupSql((condition) => {
    if (isAgreementCondition(condition)) return agreementPredicate(condition, AG);
    const viaInvoices = flags!.flagOf(condition);
    return condition.field === 'supplier.id'
      ? Prisma.sql`(${row}.supplier_id = ANY(${uuids(condition)}) OR ${viaInvoices})`
      : viaInvoices;
  }, filter.root);
  const invoices = flags
    ? Prisma.sql`(SELECT ${flags.select} FROM alerts al JOIN invoices inv ON inv.id = al.invoice_id WHERE al.claim_id = ${row}.id) f CROSS JOIN `
    : Prisma.empty;
  return Prisma.sql`EXISTS (SELECT 1 FROM ${invoices}agreements ag WHERE ag.id = ${row}.agreement_id AND ${tree})`;
}

const TARGETS: Record<FilterTarget, (filter: TeamFilter, row: Sql, organizationId: string) => Sql> = {
  invoice: invoiceTarget,
  alert: alertTarget,
  agreement: agreementTarget,
  claim: claimTarget,
};

// The WHERE fragment: true when the row of `target` (table alias `options.alias`) is covered by the
// filter. The filter must have passed validateTeamFilter; a team without a valid filter matches
// nothing (use `FALSE`, see scopeCondition in ../scope.ts).
export function compileFilter(filter: TeamFilter, target: FilterTarget, options: CompileOptions): Prisma.Sql {
  const alias = options.alias ?? DEFAULT_ALIAS[target];
  if (!IDENTIFIER.test(alias) || INNER_ALIASES.has(alias)) throw new Error(`not a usable table alias: ${alias}`);
  return TARGETS[target](filter, Prisma.raw(alias), options.organizationId);
}

export const DEFAULT_ALIAS: Record<FilterTarget, string> = {
  invoice: 'invoices',
  agreement: 'agreements',
  alert: 'alerts',
  claim: 'claims',
};

// --- the covered set: the ids of the target's records a filter covers, set-based ----------------
//
// For totals and for records with many related invoices, evaluating the filter row by row costs
// index probes per record (an alert probed the agreements table once per alert; an agreement read
// its invoices through one probe each). The covered set evaluates it once per statement over
// joins PostgreSQL can hash: every related table is read once, each invoice condition is computed
// once per related invoice, each agreement condition once per agreement, and the flags are
// aggregated per record with one GROUP BY. Same semantics as compileFilter (checked by
// test/unit/teams and the integration tests of every scoped endpoint).

export interface CoveredSetOptions {
  organizationId: string;
  // Only these records (a page's candidates); without it, every record of the organization.
  ids?: string[];
  // Only the first `limit` covered records in id order after `after` (batches of a total): the
  // walk stops there instead of evaluating the whole organization for each batch.
  after?: string;
  limit?: number;
}

// One flag per agreement condition of an invoice, per invoice: the agreement conditions are
// evaluated once per agreement (af), then aggregated over the invoice's active matches (g).
function agreementFlagsOfInvoices(
  filter: TeamFilter,
  organizationId: string,
): { join: Sql; flagOf: PositiveOf } | null {
  const agreementConditions = conditionsOf(filter.root).filter(isAgreementCondition);
  if (agreementConditions.length === 0) return null;
  const index = new Map(agreementConditions.map((condition, i) => [condition, i]));
  const perAgreement = Prisma.join(
    agreementConditions.map(
      (condition, i) => Prisma.sql`COALESCE(${agreementPredicate(condition, AG)}, FALSE) AS ${Prisma.raw(`a${i}`)}`,
    ),
  );
  const perInvoice = Prisma.join(agreementConditions.map((_, i) => Prisma.raw(`bool_or(af.a${i}) AS a${i}`)));
  const join = Prisma.sql`LEFT JOIN (SELECT m.invoice_id, ${perInvoice}
      FROM invoice_agreement_matches m JOIN (SELECT ag.id, ${perAgreement} FROM agreements ag WHERE ag.organization_id = ${organizationId}::uuid) af ON af.id = m.agreement_id
     WHERE m.organization_id = ${organizationId}::uuid AND m.active GROUP BY m.invoice_id) g ON g.invoice_id = inv.id`;
  return { join, flagOf: (condition) => Prisma.raw(`g.a${index.get(condition)!}`) };
}

// The narrowing of CoveredSetOptions on the record's id column.
function among(column: Sql, options: CoveredSetOptions): Sql {
  const parts: Sql[] = [];
  if (options.ids) parts.push(Prisma.sql` AND ${column} = ANY(${options.ids}::uuid[])`);
  if (options.after) parts.push(Prisma.sql` AND ${column} > ${options.after}::uuid`);
  return parts.length > 0 ? Prisma.join(parts, '') : Prisma.empty;
}

function window(column: Sql, options: CoveredSetOptions): Sql {
  return options.limit ? Prisma.sql` ORDER BY ${column} LIMIT ${options.limit}` : Prisma.empty;
}

function invoiceSet(filter: TeamFilter, options: CoveredSetOptions): Sql {
  const { organizationId } = options;
  const agreements = agreementFlagsOfInvoices(filter, organizationId);
  const tree = groupSql(
    (condition) =>
      isAgreementCondition(condition)
        ? agreements!.flagOf(condition)
        : invoicePredicate(condition, INV, organizationId),
    filter.root,
  );
  return Prisma.sql`SELECT inv.id FROM invoices inv ${agreements?.join ?? Prisma.empty}
     WHERE inv.organization_id = ${organizationId}::uuid${among(Prisma.sql`inv.id`, options)} AND ${tree}${window(Prisma.sql`inv.id`, options)}`;
}

function alertSet(filter: TeamFilter, options: CoveredSetOptions): Sql {
  const { organizationId } = options;
  const tree = groupSql(
    (condition) =>
      isAgreementCondition(condition)
        ? agreementPredicate(condition, AG)
        : invoicePredicate(condition, INV, organizationId),
    filter.root,
  );
  // The agreements are few and hashed once; each alert's invoice is one primary-key probe (OFFSET 0
  // keeps PostgreSQL from evaluating the invoice conditions over every invoice of the organization).
  return Prisma.sql`SELECT al.id FROM alerts al JOIN agreements ag ON ag.id = al.agreement_id
     CROSS JOIN LATERAL (SELECT * FROM invoices i WHERE i.id = al.invoice_id OFFSET 0) inv
     WHERE al.organization_id = ${organizationId}::uuid${among(Prisma.sql`al.id`, options)} AND ${tree}${window(Prisma.sql`al.id`, options)}`;
}

function agreementSet(filter: TeamFilter, options: CoveredSetOptions): Sql {
  const { organizationId } = options;
  const flags = invoiceFlags(filter, organizationId);
  const tree = groupSql((condition) => {
    if (isAgreementCondition(condition)) return agreementPredicate(condition, AG);
    const viaInvoices = flags!.flagOf(condition);
    if (condition.field === 'supplier.id')
      return Prisma.sql`(${viaInvoices} OR EXISTS (SELECT 1 FROM agreement_suppliers x WHERE x.agreement_id = ag.id AND x.supplier_id = ANY(${uuids(condition)})))`;
    if (condition.field === 'recipient.id')
      return Prisma.sql`(${viaInvoices} OR EXISTS (SELECT 1 FROM agreement_recipients x WHERE x.agreement_id = ag.id AND x.recipient_id = ANY(${uuids(condition)})))`;
    return viaInvoices;
  }, filter.root);
  const invoices = flags
    ? Prisma.sql`LEFT JOIN (SELECT m.agreement_id, ${flags.select} FROM invoice_agreement_matches m JOIN invoices inv ON inv.id = m.invoice_id
         WHERE m.organization_id = ${organizationId}::uuid AND m.active AND inv.deleted_at IS NULL${among(Prisma.sql`m.agreement_id`, options)}
         GROUP BY m.agreement_id) f ON f.agreement_id = ag.id`
    : Prisma.empty;
  return Prisma.sql`SELECT ag.id FROM agreements ag ${invoices}
     WHERE ag.organization_id = ${organizationId}::uuid${among(Prisma.sql`ag.id`, options)} AND ${tree}${window(Prisma.sql`ag.id`, options)}`;
}

function claimSet(filter: TeamFilter, options: CoveredSetOptions): Sql {
  const { organizationId } = options;
  const flags = invoiceFlags(filter, organizationId);
  const tree = groupSql((condition) => {
    if (isAgreementCondition(condition)) return agreementPredicate(condition, AG);
    const viaInvoices = flags!.flagOf(condition);
    return condition.field === 'supplier.id'
      ? Prisma.sql`(cl.supplier_id = ANY(${uuids(condition)}) OR ${viaInvoices})`
      : viaInvoices;
  }, filter.root);
  const invoices = flags
    ? Prisma.sql`LEFT JOIN (SELECT al.claim_id, ${flags.select} FROM alerts al JOIN invoices inv ON inv.id = al.invoice_id
         WHERE al.organization_id = ${organizationId}::uuid AND al.claim_id IS NOT NULL${among(Prisma.sql`al.claim_id`, options)}
         GROUP BY al.claim_id) f ON f.claim_id = cl.id`
    : Prisma.empty;
  return Prisma.sql`SELECT cl.id FROM claims cl JOIN agreements ag ON ag.id = cl.agreement_id ${invoices}
     WHERE cl.organization_id = ${organizationId}::uuid${among(Prisma.sql`cl.id`, options)} AND ${tree}${window(Prisma.sql`cl.id`, options)}`;
}

const SETS: Record<FilterTarget, (filter: TeamFilter, options: CoveredSetOptions) => Sql> = {
  invoice: invoiceSet,
  alert: alertSet,
  agreement: agreementSet,
  claim: claimSet,
};

// A SELECT of the ids (column `id`) of the target's records the filter covers, uncorrelated: use
// it as `row.id IN (...)` or join it. The filter must have passed validateTeamFilter.
export function compileCoveredSet(filter: TeamFilter, target: FilterTarget, options: CoveredSetOptions): Prisma.Sql {
  return SETS[target](filter, options);
}
