import { expect } from 'vitest';
import { invoiceOf, matchedAgreement, newSupplier, postAlert } from './alerts.js';
import type { Tenant } from './tenants.js';

// Claims need alerts on matched pairs: one supplier, a draft agreement (never checked, so no
// check replaces the test's alerts) and invoices of that supplier matched to it.
export async function claimSetup(tenant: Tenant, invoices: { currency?: string; number?: string }[] = [{}, {}]) {
  const supplier = newSupplier();
  const created = [];
  for (const spec of invoices) created.push(await invoiceOf(tenant, supplier, spec));
  const supplierId = created[0]!.supplier.id;
  const agreementId = await matchedAgreement(tenant, [supplierId]);
  return { supplier, supplierId, agreementId, invoices: created };
}

export async function alertOn(
  tenant: Tenant,
  invoiceId: string,
  agreementId: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  return (await postAlert(tenant, { invoice_id: invoiceId, agreement_id: agreementId, ...body })).id;
}

export async function createClaim(tenant: Tenant, body: Record<string, unknown>) {
  const created = await tenant.call('/v1/claims', { method: 'POST', body: { title: 'Overcharges Q1', ...body } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

export const alertOf = async (tenant: Tenant, id: string) => (await tenant.call(`/v1/alerts/${id}`)).body;
export const claimOf = async (tenant: Tenant, id: string) => (await tenant.call(`/v1/claims/${id}`)).body;
export const setStatus = (tenant: Tenant, id: string, status: string) =>
  tenant.call(`/v1/claims/${id}`, { method: 'PATCH', body: { status } });
