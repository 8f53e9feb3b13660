import { Decimal } from 'decimal.js';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { Prisma } from '../db/client.js';
import { formatAmount } from '../shared/money.js';
import type { TeamScope } from '../teams/scope.js';
import { invoiceMetricsWhere, metricsQuery } from './metrics.js';

// Spend per supplier, per currency: the same invoices and the same spend as GET
// /v1/invoices/metrics (processed, not semantic duplicates, credit notes subtract whatever sign
// their format writes), split by supplier. The spec's metrics give spend per currency only; the
// overview's "spend by supplier" chart needs it per supplier, and fetching the metrics once per
// supplier would cost a statement per supplier. Each currency keeps its own ranking: largest net
// spend first, at most `limit` suppliers, the rest summed as `other_suppliers` (never summed across
// currencies).

export const supplierSpendQuery = metricsQuery.extend({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(10)
    .meta({ description: 'Suppliers per currency, largest net spend first (1-100, default 10)' }),
});

const spendFigures = {
  invoiced: z.string(),
  credited: z.string(),
  net: z.string(),
  invoice_count: z.number().int(),
  credit_note_count: z.number().int(),
};

export const supplierSpendSchema = z
  .object({
    currencies: z.array(
      z.object({
        currency_code: z.string(),
        net: z.string().meta({ description: "The currency's net spend over every supplier" }),
        supplier_count: z.number().int(),
        suppliers: z.array(
          z.object({
            supplier_id: z.string().nullable().meta({ description: 'null: invoices whose supplier is not known' }),
            name: z.string().nullable(),
            ...spendFigures,
          }),
        ),
        other_suppliers: z
          .object({ supplier_count: z.number().int(), net: z.string() })
          .meta({ description: 'The suppliers past `limit`, summed (same currency)' }),
      }),
    ),
  })
  .meta({ id: 'SupplierSpend' });

interface SupplierRow {
  currency_code: string;
  supplier_id: string | null;
  name: string | null;
  invoiced: Prisma.Decimal;
  credited: Prisma.Decimal;
  invoice_count: bigint;
  credit_note_count: bigint;
  place: bigint;
  currency_net: Prisma.Decimal;
  supplier_count: bigint;
}

// Keys that narrow nothing by themselves: the operators shape filters that are absent, and the team
// scope arrives as `scope`.
const SHAPING_KEYS: ReadonlySet<string> = new Set(['join_operator', 'supplier_operator', 'mine', 'team_ids']);

export async function supplierSpend(
  deps: Pick<AppDeps, 'db'>,
  organizationId: string,
  query: z.infer<typeof supplierSpendQuery>,
  scope: TeamScope | null = null,
) {
  const { limit, ...filters } = query;
  const unfiltered =
    !scope && Object.entries(filters).every(([key, value]) => value === undefined || SHAPING_KEYS.has(key));
  const perSupplier = unfiltered ? keptPerSupplier(organizationId) : countedPerSupplier(organizationId, filters, scope);
  // The ranking and the currency's totals in one pass; only the top rows leave the database.
  const rows = await deps.db.$queryRaw<SupplierRow[]>`
    WITH per_supplier AS (${perSupplier}), ranked AS (
      SELECT per_supplier.*,
             row_number() OVER (PARTITION BY currency_code
                                ORDER BY invoiced - credited DESC, supplier_id NULLS LAST) AS place,
             sum(invoiced - credited) OVER (PARTITION BY currency_code) AS currency_net,
             count(*) OVER (PARTITION BY currency_code) AS supplier_count
        FROM per_supplier
    )
    SELECT ranked.*, suppliers.name
      FROM ranked
      LEFT JOIN suppliers ON suppliers.id = ranked.supplier_id AND suppliers.organization_id = ${organizationId}::uuid
     WHERE place <= ${limit}
     ORDER BY currency_code, place`;
  return { currencies: byCurrency(rows) };
}

// The organization's whole spend per supplier, as the invoice triggers keep it (migration
// supplier_spend_totals): a row per supplier instead of every invoice (docs/benchmarks.md).
function keptPerSupplier(organizationId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT currency_code, nullif(supplier_key, '')::uuid AS supplier_id, invoiced, credited, invoice_count, credit_note_count
      FROM organization_supplier_spend
     WHERE organization_id = ${organizationId}::uuid AND (invoice_count <> 0 OR credit_note_count <> 0)`;
}

// The filtered invoices' spend per supplier, grouped from the invoices themselves.
function countedPerSupplier(
  organizationId: string,
  filters: Omit<z.infer<typeof supplierSpendQuery>, 'limit'>,
  scope: TeamScope | null,
): Prisma.Sql {
  return Prisma.sql`
    SELECT currency_code, supplier_id,
           coalesce(sum(tax_inclusive_amount) FILTER (WHERE document_type = 'invoice'), 0) AS invoiced,
           coalesce(sum(abs(tax_inclusive_amount)) FILTER (WHERE document_type = 'credit_note'), 0) AS credited,
           count(*) FILTER (WHERE document_type = 'invoice') AS invoice_count,
           count(*) FILTER (WHERE document_type = 'credit_note') AS credit_note_count
      FROM invoices
     WHERE ${invoiceMetricsWhere(organizationId, filters, scope)} AND processing_status = 'completed'
       AND duplicate_of_invoice_id IS NULL AND currency_code IS NOT NULL
     GROUP BY currency_code, supplier_id`;
}

function byCurrency(rows: SupplierRow[]) {
  const currencies = new Map<string, SupplierRow[]>();
  for (const row of rows) {
    const ofCurrency = currencies.get(row.currency_code);
    if (ofCurrency) ofCurrency.push(row);
    else currencies.set(row.currency_code, [row]);
  }
  return [...currencies.entries()].map(([currencyCode, top]) => {
    const first = top[0]!;
    const topNet = top.reduce((sum, row) => sum.plus(row.invoiced.minus(row.credited).toString()), new Decimal(0));
    return {
      currency_code: currencyCode,
      net: formatAmount(first.currency_net)!,
      supplier_count: Number(first.supplier_count),
      suppliers: top.map((row) => ({
        supplier_id: row.supplier_id,
        name: row.name,
        invoiced: formatAmount(row.invoiced)!,
        credited: formatAmount(row.credited)!,
        net: formatAmount(row.invoiced.minus(row.credited))!,
        invoice_count: Number(row.invoice_count),
        credit_note_count: Number(row.credit_note_count),
      })),
      other_suppliers: {
        supplier_count: Number(first.supplier_count) - top.length,
        net: formatAmount(new Decimal(first.currency_net.toString()).minus(topNet))!,
      },
    };
  });
}
