import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { alertSchema } from '../../../src/alerts/schemas.js';
import type { invoiceSchema } from '../../../src/invoices/schemas.js';
import { allRoutes } from '../../../src/routes.js';
import type {
  FileBody,
  ListItem,
  OperationCaller,
  OperationId,
  OperationResponse,
} from '../../../src/web/operations.js';

// The web application's `call` is typed from the route table (src/web/operations.ts). The type
// assertions below are checked by `tsc --noEmit -p .` (they cost nothing at run time); the run-time
// ones check what the types rely on.

// Calls that must not compile. Never run: the compiler checks each `@ts-expect-error`.
export async function refusedCalls(call: OperationCaller): Promise<void> {
  // @ts-expect-error an operationId the API does not have
  await call('getInvoices', { params: { id: 'x' } });
  // @ts-expect-error getInvoice needs its path parameter
  await call('getInvoice');
  // @ts-expect-error path values are strings, as a URL gives them
  await call('getInvoice', { params: { id: 42 } });
  // @ts-expect-error a query key listInvoices does not take
  await call('listInvoices', { query: { invoice_number: '1' } });
  // @ts-expect-error a query key getInvoice does not take
  await call('getInvoice', { params: { id: 'x' }, query: { colour: 'red' } });
  // @ts-expect-error a field the invoice's representation does not have
  void (await call('getInvoice', { params: { id: 'x' } })).total_amount;
}

describe('typed operations', () => {
  it('answers each operation with its 2xx response schema, and a file for an export', () => {
    expectTypeOf<OperationResponse<'getInvoice'>>().toEqualTypeOf<z.output<typeof invoiceSchema>>();
    expectTypeOf<ListItem<'listAlerts'>>().toEqualTypeOf<z.output<typeof alertSchema>>();
    expectTypeOf<OperationResponse<'listClaims'>['next_cursor']>().toEqualTypeOf<string | null>();
    expectTypeOf<OperationResponse<'exportClaim'>>().toEqualTypeOf<FileBody>();
    // Operations made by helpers keep their literal ids.
    expectTypeOf<'creditAlerts' | 'reopenAlerts' | 'listSuppliers'>().toMatchTypeOf<OperationId>();
    expectTypeOf<string>().not.toMatchTypeOf<OperationId>();
  });

  it('finds one route per operationId, each a literal of the table', () => {
    const ids = allRoutes.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const typed: OperationId[] = ['getInvoice', 'listAlerts', 'exportClaim', 'creditAlerts', 'listSuppliers'];
    for (const id of typed) expect(ids).toContain(id);
  });
});
