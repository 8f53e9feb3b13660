import { z } from 'zod';
import { definePage } from '../page.js';
import { filledQuery, listUrl } from '../query.js';

// Invoices: the list with the API's filters (GET /v1/invoices through listInvoices), and one
// invoice with everything a finance person acts on (header, parties, lines with their alerts,
// impact, citations, matches and checks, the original file).

const LIST_FILTERS = ['search', 'supplier_ids', 'processing_statuses', 'check_statuses', 'document_types', 'issued_from', 'issued_through', 'sort', 'direction', 'limit', 'cursor'] as const;
const SUPPLIER_CHOICES = 200;

export const invoicePages = [
  definePage({
    path: '/invoices',
    nav: 'invoices',
    title: 'Invoices',
    view: 'invoices',
    load: async ({ ctx, call }) => {
      const query = filledQuery(ctx.query, LIST_FILTERS);
      const [page, suppliers] = await Promise.all([
        call<{ data: Record<string, any>[]; next_cursor: string | null }>('listInvoices', { query: { limit: '50', ...query } }),
        call<{ data: { id: string; name: string | null }[]; next_cursor: string | null }>('listSuppliers', { query: { limit: String(SUPPLIER_CHOICES) } }),
      ]);
      const { cursor: _cursor, ...filters } = query;
      return {
        invoices: page.data,
        filters,
        suppliers: suppliers.data,
        moreSuppliers: suppliers.next_cursor !== null,
        nextUrl: page.next_cursor ? listUrl('/app/invoices', filters, { cursor: page.next_cursor }) : null,
        firstUrl: query.cursor ? listUrl('/app/invoices', filters) : null,
        filtered: Object.keys(filters).some((key) => !['sort', 'direction', 'limit'].includes(key)),
      };
    },
  }),
];

export const invoiceIdParams = z.object({ id: z.string().uuid() });
