import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { eventually } from './api.js';
import type { Tenant } from './tenants.js';

// Alerts need an invoice matched to an agreement: these build such pairs over the API.

export interface LineSpec {
  description: string;
  quantity: string;
  unit_price: string;
  net_amount: string;
}

export async function invoiceOf(tenant: Tenant, supplier: { name: string; org_number: string }, options: { number?: string; currency?: string; lines?: LineSpec[] } = {}) {
  const lines = options.lines ?? [{ description: 'Paper', quantity: '10', unit_price: '5.50', net_amount: '55.00' }];
  const total = lines.reduce((sum, line) => sum + Math.round(Number(line.net_amount) * 100), 0);
  const amount = (total / 100).toFixed(2);
  const response = await tenant.call('/v1/invoices', {
    method: 'POST',
    body: {
      invoice_number: options.number ?? `INV-${randomUUID().slice(0, 8)}`,
      issue_date: '2026-03-15',
      currency_code: options.currency ?? 'EUR',
      supplier,
      line_items: lines,
      amounts: { excluding_vat: amount, vat: '0', including_vat: amount },
    },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; supplier: { id: string }; line_items: { id: string }[] };
}

// Runs a matching refresh and waits for it to finish.
export async function refresh(tenant: Tenant, path: string): Promise<void> {
  const started = await tenant.call(path, { method: 'POST' });
  expect(started.status).toBe(202);
  const run = await eventually(
    () => tenant.call(`/v1/workflow-runs/${started.body.workflow_run_id}`),
    (r) => ['completed', 'failed', 'completed_with_errors', 'cancelled'].includes(r.body.status),
    60_000,
  );
  expect(run.body.status).toBe('completed');
}

// A draft agreement (checks leave it alone) on these suppliers, with the organization's invoices matched.
export async function matchedAgreement(tenant: Tenant, supplierIds: string[], title = 'Supplies'): Promise<string> {
  const created = await tenant.call('/v1/agreements', { method: 'POST', body: { title, supplier_ids: supplierIds } });
  expect(created.status).toBe(201);
  await refresh(tenant, `/v1/agreements/${created.body.id}/invoices/refresh`);
  return created.body.id;
}

export const newSupplier = (name = 'Acme') => ({ name: `${name} ${randomUUID().slice(0, 6)}`, org_number: String(100_000_000 + Math.floor(Math.random() * 899_999_999)) });

export async function postAlert(tenant: Tenant, body: Record<string, unknown>) {
  const response = await tenant.call('/v1/alerts', { method: 'POST', body: { title: 'Overcharged', explanation: 'Price above the agreed [1]', impact_amount: '10.00', ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}
