import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { Prisma } from '../db/client.js';
import { commaList, dateString, joinOperatorParam, uuidList } from '../http/schemas.js';
import { containsSql } from '../http/sql-filters.js';
import { CHECK_STATUSES } from './check-status.js';
import { formatAmount } from '../shared/money.js';
import { scopeCondition, teamScopeParams, type TeamScope } from '../teams/scope.js';

// Counts and spend per currency. Spend counts processed invoices only, never semantic duplicates,
// and is never summed across currencies. Credit notes reduce spend whatever sign their format
// writes amounts with.

export const metricsQuery = z.object({
  issued_from: dateString.optional(),
  issued_through: dateString.optional(),
  supplier_ids: uuidList.optional(),
  agreement_ids: uuidList.optional().meta({ description: 'Invoices matched to any of these agreements' }),
  join_operator: joinOperatorParam.meta({
    description: 'How supplier_ids and agreement_ids combine: and (default) or or',
  }),
  // The invoice list's other filters, so a list can say how many invoices match it.
  supplier_operator: z.enum(['is', 'is_not']).optional(),
  search: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: 'Invoice number or supplier name (any case), as the list' }),
  document_types: commaList(z.enum(['invoice', 'credit_note'])).optional(),
  processing_statuses: commaList(z.enum(['pending', 'processing', 'completed', 'failed'])).optional(),
  check_statuses: commaList(z.enum(CHECK_STATUSES)).optional(),
  ...teamScopeParams,
});

export const invoiceMetricsSchema = z
  .object({
    counts: z.object({
      total: z.number().int(),
      invoices: z.number().int(),
      credit_notes: z.number().int(),
      duplicates: z.number().int(),
      processing: z.number().int(),
      failed: z.number().int(),
    }),
    spend: z.array(
      z.object({
        currency_code: z.string(),
        invoiced: z.string(),
        credited: z.string(),
        net: z.string(),
        invoice_count: z.number().int(),
        credit_note_count: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'InvoiceMetrics' });

// One row per currency (NULL included) of the invoices the filters keep: the counts, and the spend
// of processed, non-duplicate invoices. One statement, so a team scope is evaluated once.
interface CurrencyRow {
  currency_code: string | null;
  total: bigint;
  invoices: bigint;
  credit_notes: bigint;
  duplicates: bigint;
  processing: bigint;
  failed: bigint;
  spend_rows: bigint;
  invoiced: Prisma.Decimal;
  credited: Prisma.Decimal;
  invoice_count: bigint;
  credit_note_count: bigint;
}

const COUNTS = ['total', 'invoices', 'credit_notes', 'duplicates', 'processing', 'failed'] as const;

// The WHERE of both statements (also EXPLAINed by the teams benchmark).
export function invoiceMetricsWhere(
  organizationId: string,
  query: z.infer<typeof metricsQuery>,
  scope: TeamScope | null,
): Prisma.Sql {
  const conditions = [Prisma.sql`organization_id = ${organizationId}::uuid`, Prisma.sql`deleted_at IS NULL`];
  if (query.issued_from) conditions.push(Prisma.sql`issue_date >= ${query.issued_from}::date`);
  if (query.issued_through) conditions.push(Prisma.sql`issue_date <= ${query.issued_through}::date`);
  if (query.document_types) conditions.push(Prisma.sql`document_type = ANY(${query.document_types}::"DocumentType"[])`);
  if (query.processing_statuses)
    conditions.push(Prisma.sql`processing_status = ANY(${query.processing_statuses}::"ProcessingStatus"[])`);
  if (query.check_statuses) conditions.push(Prisma.sql`check_status = ANY(${query.check_statuses}::text[])`);
  if (query.search)
    conditions.push(
      Prisma.sql`(${containsSql('invoice_number', query.search)} OR ${containsSql(`(supplier_party #>> '{name}')`, query.search)})`,
    );
  const relations: Prisma.Sql[] = [];
  if (query.supplier_ids) {
    relations.push(
      query.supplier_operator === 'is_not'
        ? Prisma.sql`(supplier_id IS NULL OR NOT (supplier_id = ANY(${query.supplier_ids}::uuid[])))`
        : Prisma.sql`supplier_id = ANY(${query.supplier_ids}::uuid[])`,
    );
  }
  if (query.agreement_ids) {
    relations.push(
      Prisma.sql`EXISTS (SELECT 1 FROM invoice_agreement_matches m WHERE m.invoice_id = invoices.id AND m.active AND m.agreement_id = ANY(${query.agreement_ids}::uuid[]))`,
    );
  }
  if (relations.length > 0)
    conditions.push(Prisma.sql`(${Prisma.join(relations, query.join_operator === 'or' ? ' OR ' : ' AND ')})`);
  if (scope) conditions.push(scopeCondition(scope, 'invoice'));
  return Prisma.join(conditions, ' AND ');
}

export async function invoiceMetrics(
  deps: Pick<AppDeps, 'db'>,
  organizationId: string,
  query: z.infer<typeof metricsQuery>,
  scope: TeamScope | null = null,
) {
  const where = invoiceMetricsWhere(organizationId, query, scope);
  const spendable = Prisma.sql`processing_status = 'completed' AND duplicate_of_invoice_id IS NULL`;
  const rows = await deps.db.$queryRaw<CurrencyRow[]>`
    SELECT currency_code,
           count(*) AS total,
           count(*) FILTER (WHERE document_type = 'invoice') AS invoices,
           count(*) FILTER (WHERE document_type = 'credit_note') AS credit_notes,
           count(*) FILTER (WHERE duplicate_of_invoice_id IS NOT NULL) AS duplicates,
           count(*) FILTER (WHERE processing_status IN ('pending', 'processing')) AS processing,
           count(*) FILTER (WHERE processing_status = 'failed') AS failed,
           count(*) FILTER (WHERE ${spendable}) AS spend_rows,
           coalesce(sum(tax_inclusive_amount) FILTER (WHERE ${spendable} AND document_type = 'invoice'), 0) AS invoiced,
           coalesce(sum(abs(tax_inclusive_amount)) FILTER (WHERE ${spendable} AND document_type = 'credit_note'), 0) AS credited,
           count(*) FILTER (WHERE ${spendable} AND document_type = 'invoice') AS invoice_count,
           count(*) FILTER (WHERE ${spendable} AND document_type = 'credit_note') AS credit_note_count
      FROM invoices WHERE ${where}
     GROUP BY currency_code ORDER BY currency_code`;
  const counts = Object.fromEntries(
    COUNTS.map((name) => [name, rows.reduce((total, row) => total + Number(row[name]), 0)]),
  ) as Record<(typeof COUNTS)[number], number>;
  // Spend per currency, never summed across currencies; a currency without a processed,
  // non-duplicate invoice has no spend row.
  const spend = rows.filter((row) => row.currency_code !== null && Number(row.spend_rows) > 0);
  return {
    counts,
    spend: spend.map((row) => ({
      currency_code: row.currency_code!,
      invoiced: formatAmount(row.invoiced)!,
      credited: formatAmount(row.credited)!,
      net: formatAmount(row.invoiced.minus(row.credited))!,
      invoice_count: Number(row.invoice_count),
      credit_note_count: Number(row.credit_note_count),
    })),
  };
}
