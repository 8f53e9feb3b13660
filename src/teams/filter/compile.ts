import { Decimal } from 'decimal.js';
import { Prisma } from '../../db/client.js';
import type { Condition, Group, TeamFilter } from './definition.js';

// Compiles a validated team filter into a SQL boolean over one row of the target table (alias
// given by the caller). Each condition is evaluated on its own over the records related to the
// row (docs/teams.md "Evaluation"), as an EXISTS subquery, so one statement evaluates the filter
// for a whole list: nothing is evaluated row by row in JavaScript.

export type FilterTarget = 'invoice' | 'agreement' | 'alert' | 'claim';

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

type Sql = Prisma.Sql;
const TRUE = Prisma.sql`TRUE`;
const FALSE = Prisma.sql`FALSE`;

// --- conditions over one invoice row (alias `inv`) -------------------------------------------

function lowerText(column: Sql): Sql {
  return Prisma.sql`lower(${column})`;
}

// The texts of one invoice field that an exact-text condition compares against.
function invoiceTexts(field: string, inv: Sql): Sql {
  switch (field) {
    case 'supplier.country':
      return Prisma.sql`ARRAY(SELECT lower(s.country_code) FROM suppliers s WHERE s.id = ${inv}.supplier_id AND s.country_code IS NOT NULL)`;
    case 'invoice.currency':
      return Prisma.sql`ARRAY_REMOVE(ARRAY[lower(${inv}.currency_code)], NULL)`;
    case 'invoice.reference':
      return Prisma.sql`ARRAY_REMOVE(ARRAY[lower(${inv}.buyer_reference), lower(${inv}.order_reference), lower(${inv}.contract_reference)], NULL)`;
    default:
      // invoice.delivery_address: each part of the address, and the address as one line.
      return Prisma.sql`ARRAY_REMOVE(
        ARRAY(SELECT lower(x) FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(${inv}.delivery_address->'lines') = 'array' THEN ${inv}.delivery_address->'lines' ELSE '[]'::jsonb END) x)
        || ARRAY[lower(${inv}.delivery_address->>'city'), lower(${inv}.delivery_address->>'postalCode'), lower(${inv}.delivery_address->>'countryCode'), lower(${addressLine(inv)})], NULL)`;
  }
}

function addressLine(inv: Sql): Sql {
  return Prisma.sql`NULLIF(concat_ws(', ',
    (SELECT string_agg(x, ', ') FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(${inv}.delivery_address->'lines') = 'array' THEN ${inv}.delivery_address->'lines' ELSE '[]'::jsonb END) x),
    concat_ws(' ', ${inv}.delivery_address->>'postalCode', ${inv}.delivery_address->>'city'),
    ${inv}.delivery_address->>'countryCode'), '')`;
}

// The one text a contains condition searches in.
function invoiceHaystack(field: string, inv: Sql): Sql {
  switch (field) {
    case 'supplier.country':
      return Prisma.sql`(SELECT s.country_code FROM suppliers s WHERE s.id = ${inv}.supplier_id)`;
    case 'invoice.currency':
      return Prisma.sql`${inv}.currency_code`;
    case 'invoice.reference':
      return Prisma.sql`concat_ws(' ', ${inv}.buyer_reference, ${inv}.order_reference, ${inv}.contract_reference)`;
    default:
      return addressLine(inv);
  }
}

const COMPARE: Record<string, string> = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=', on: '=', before: '<', on_or_before: '<=', after: '>', on_or_after: '>=' };

const TODAY = Prisma.sql`(now() AT TIME ZONE 'UTC')::date`;

function relativeDate(column: Sql, value: string): Sql {
  const days = Number(value.replace(/\D/g, ''));
  return value.startsWith('last_')
    ? Prisma.sql`(${column} >= ${TODAY} - ${days}::int AND ${column} <= ${TODAY})`
    : Prisma.sql`(${column} >= ${TODAY} AND ${column} <= ${TODAY} + ${days}::int)`;
}

function dateCondition(column: Sql, condition: Condition): Sql {
  if (condition.op === 'within') return relativeDate(column, condition.value as string);
  return Prisma.sql`${column} ${Prisma.raw(COMPARE[condition.op]!)} ${condition.value as string}::date`;
}

// Positive form of a condition: negative ops (is_not, is_none_of, not_contains) are compiled as
// "no related record meets the positive form".
function positiveValues(condition: Condition): string[] {
  return Array.isArray(condition.value) ? (condition.value as string[]) : [String(condition.value)];
}

function isNegative(condition: Condition): boolean {
  return condition.op === 'is_not' || condition.op === 'is_none_of' || condition.op === 'not_contains';
}

function invoicePredicate(condition: Condition, inv: Sql): Sql {
  const { field } = condition;
  if (field === 'supplier.id') return Prisma.sql`${inv}.supplier_id = ANY(${positiveValues(condition)}::uuid[])`;
  if (field === 'recipient.id') return Prisma.sql`${inv}.recipient_id = ANY(${positiveValues(condition)}::uuid[])`;
  if (field === 'invoice.amount') {
    const amount = new Decimal(condition.value as number | string).toFixed();
    return Prisma.sql`${inv}.tax_inclusive_amount ${Prisma.raw(COMPARE[condition.op]!)} ${amount}::numeric`;
  }
  if (field === 'invoice.issued_date') return dateCondition(Prisma.sql`${inv}.issue_date`, condition);
  if (condition.op === 'contains' || condition.op === 'not_contains') {
    return Prisma.sql`strpos(${lowerText(invoiceHaystack(field, inv))}, ${(condition.value as string).toLowerCase()}) > 0`;
  }
  const wanted = positiveValues(condition).map((v) => v.toLowerCase());
  return Prisma.sql`${invoiceTexts(field, inv)} && ${wanted}::text[]`;
}

// --- conditions over one agreement row (alias `ag`) ------------------------------------------

function agreementPredicate(condition: Condition, ag: Sql): Sql {
  if (condition.field === 'agreement.id') return Prisma.sql`${ag}.id = ANY(${positiveValues(condition)}::uuid[])`;
  if (condition.field === 'agreement.tag') {
    return Prisma.sql`EXISTS (SELECT 1 FROM agreement_tags t WHERE t.agreement_id = ${ag}.id AND t.tag_id = ANY(${positiveValues(condition)}::uuid[]))`;
  }
  return dateCondition(Prisma.sql`${ag}.expiration_date`, condition);
}

const AGREEMENT_FIELDS = new Set(['agreement.id', 'agreement.tag', 'agreement.expiration_date']);

// --- one condition over the records related to a row of the target ---------------------------

const INV = Prisma.raw('inv');
const AG = Prisma.raw('ag');
const LIVE_INVOICE = Prisma.sql`inv.deleted_at IS NULL`;

function invoiceConditionFor(target: FilterTarget, row: Sql, condition: Condition): Sql {
  const overInvoice = invoicePredicate(condition, INV);
  switch (target) {
    case 'invoice':
      return invoicePredicate(condition, row);
    case 'alert':
      return Prisma.sql`EXISTS (SELECT 1 FROM invoices inv WHERE inv.id = ${row}.invoice_id AND ${overInvoice})`;
    case 'agreement': {
      const viaInvoices = Prisma.sql`EXISTS (SELECT 1 FROM invoice_agreement_matches m JOIN invoices inv ON inv.id = m.invoice_id
        WHERE m.agreement_id = ${row}.id AND m.active AND ${LIVE_INVOICE} AND ${overInvoice})`;
      // The agreement's own parties count too, so an agreement without invoices is still covered.
      if (condition.field === 'supplier.id') {
        return Prisma.sql`(EXISTS (SELECT 1 FROM agreement_suppliers x WHERE x.agreement_id = ${row}.id AND x.supplier_id = ANY(${positiveValues(condition)}::uuid[])) OR ${viaInvoices})`;
      }
      if (condition.field === 'recipient.id') {
        return Prisma.sql`(EXISTS (SELECT 1 FROM agreement_recipients x WHERE x.agreement_id = ${row}.id AND x.recipient_id = ANY(${positiveValues(condition)}::uuid[])) OR ${viaInvoices})`;
      }
      return viaInvoices;
    }
    case 'claim': {
      const viaAlerts = Prisma.sql`EXISTS (SELECT 1 FROM alerts al JOIN invoices inv ON inv.id = al.invoice_id WHERE al.claim_id = ${row}.id AND ${overInvoice})`;
      if (condition.field === 'supplier.id') return Prisma.sql`(${row}.supplier_id = ANY(${positiveValues(condition)}::uuid[]) OR ${viaAlerts})`;
      return viaAlerts;
    }
  }
}

function agreementConditionFor(target: FilterTarget, row: Sql, condition: Condition): Sql {
  const overAgreement = agreementPredicate(condition, AG);
  switch (target) {
    case 'agreement':
      return agreementPredicate(condition, row);
    case 'invoice':
      return Prisma.sql`EXISTS (SELECT 1 FROM invoice_agreement_matches m JOIN agreements ag ON ag.id = m.agreement_id WHERE m.invoice_id = ${row}.id AND m.active AND ${overAgreement})`;
    case 'alert':
    case 'claim':
      return Prisma.sql`EXISTS (SELECT 1 FROM agreements ag WHERE ag.id = ${row}.agreement_id AND ${overAgreement})`;
  }
}

function conditionSql(target: FilterTarget, row: Sql, condition: Condition): Sql {
  const positive = AGREEMENT_FIELDS.has(condition.field) ? agreementConditionFor(target, row, condition) : invoiceConditionFor(target, row, condition);
  return isNegative(condition) ? Prisma.sql`NOT COALESCE((${positive}), FALSE)` : Prisma.sql`COALESCE((${positive}), FALSE)`;
}

function groupSql(target: FilterTarget, row: Sql, group: Group): Sql {
  const parts = group.children.map((child) => ('combinator' in child ? groupSql(target, row, child) : conditionSql(target, row, child)));
  if (parts.length === 0) return group.combinator === 'and' ? TRUE : FALSE;
  return Prisma.sql`(${Prisma.join(parts, group.combinator === 'and' ? ' AND ' : ' OR ')})`;
}

// The WHERE fragment: true when the row of `target` (table alias `alias`) is covered by the filter.
// The filter must have passed validateTeamFilter; a team without a valid filter matches nothing
// (use `FALSE`, see teamCoverage in ../scope.ts).
export function compileFilter(filter: TeamFilter, target: FilterTarget, alias: string = DEFAULT_ALIAS[target]): Prisma.Sql {
  if (!IDENTIFIER.test(alias)) throw new Error(`not a table alias: ${alias}`);
  return groupSql(target, Prisma.raw(alias), filter.root);
}

export const DEFAULT_ALIAS: Record<FilterTarget, string> = { invoice: 'invoices', agreement: 'agreements', alert: 'alerts', claim: 'claims' };
