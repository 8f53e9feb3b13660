import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { Prisma } from '../../src/db/client.js';
import { eventually } from './api.js';
import { testDb, type Tenant } from './tenants.js';

// Alerts need an invoice matched to an agreement: these build such pairs over the API.

export interface LineSpec {
  description: string;
  quantity: string;
  unit_price: string;
  net_amount: string;
}

export async function invoiceOf(
  tenant: Tenant,
  supplier: { name: string; org_number: string },
  options: { number?: string; currency?: string; lines?: LineSpec[] } = {},
) {
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

export const newSupplier = (name = 'Acme') => ({
  name: `${name} ${randomUUID().slice(0, 6)}`,
  org_number: String(100_000_000 + Math.floor(Math.random() * 899_999_999)),
});

export async function postAlert(tenant: Tenant, body: Record<string, unknown>) {
  const response = await tenant.call('/v1/alerts', {
    method: 'POST',
    body: { title: 'Overcharged', explanation: 'Price above the agreed [1]', impact_amount: '10.00', ...body },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

// An invoice created as data (copy paper with article number 1001, toner without one) matched to
// a draft agreement: drafts are never checked, so no check replaces the alerts a test makes.
export async function paperAndTonerPair(
  tenant: Tenant,
  options: {
    supplier: { name: string; org_number: string };
    agreementId?: string;
    agreement?: { title: string; instructions: string };
  },
) {
  const created = await tenant.call('/v1/invoices', {
    method: 'POST',
    body: {
      invoice_number: `PT-${randomUUID().slice(0, 8)}`,
      issue_date: '2026-03-15',
      currency_code: 'EUR',
      supplier: options.supplier,
      line_items: [
        {
          line_number: '1',
          description: 'Copy paper A4',
          seller_item_id: '1001',
          quantity: '4',
          unit_price: '12.50',
          net_amount: '50.00',
        },
        { line_number: '2', description: 'Toner', quantity: '1', unit_price: '80.00', net_amount: '80.00' },
      ],
      amounts: { excluding_vat: '130.00', vat: '0', including_vat: '130.00' },
    },
  });
  expect(created.status).toBe(201);
  const invoice = created.body;
  const agreement = options.agreement ?? { title: 'Supplies', instructions: 'x' };
  const agreementId =
    options.agreementId ??
    (
      await tenant.call('/v1/agreements', {
        method: 'POST',
        body: { ...agreement, supplier_ids: [invoice.supplier.id], effective_date: '2026-01-01' },
      })
    ).body.id;
  await refresh(tenant, `/v1/invoices/${invoice.id}/agreements/refresh`);
  const lines = await testDb().invoiceLine.findMany({ where: { invoiceId: invoice.id }, orderBy: { position: 'asc' } });
  return { agreementId: agreementId as string, invoiceId: invoice.id as string, lines };
}

// An alert on a matched pair written straight to the database, as a check (a checker) or a user
// (none) would have made it: for tests of what is done with alerts, not of how checks make them.
export async function insertAlert(
  tenant: Tenant,
  pair: { agreementId: string; invoiceId: string },
  fields: {
    checker: string | null;
    lineId: string | null;
    title?: string;
    topicId?: string;
    impact?: string;
    status?: 'pending' | 'dismissed';
  },
): Promise<string> {
  const id = randomUUID();
  await testDb().alert.create({
    data: {
      id,
      organizationId: tenant.organizationId,
      invoiceId: pair.invoiceId,
      agreementId: pair.agreementId,
      status: fields.status ?? 'pending',
      title: fields.title ?? 'Unit price above the agreed price',
      explanation: 'The agreement says 10.00 [1].',
      impactAmount: new Prisma.Decimal(fields.impact ?? '10.00'),
      currencyCode: 'EUR',
      confidenceLevel: 'certain',
      citations: [],
      invoiceLineId: fields.lineId,
      topicId: fields.topicId ?? null,
      origin: fields.checker ? 'check' : 'user',
      checker: fields.checker,
      fingerprint: fields.checker ? `${fields.checker}:${randomUUID().replace(/-/g, '')}` : null,
    },
  });
  return id;
}
