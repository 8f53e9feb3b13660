import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { PEPPOL_SAMPLES } from '../fixtures/sample-expectations.js';
import { eventually } from '../support/api.js';
import { ingestionUpload, sample, settledIngestionInvoice } from '../support/invoices.js';
import { holdCrashStackForThisFile } from '../support/crash-stack.js';
import { createTenant, testDb } from '../support/tenants.js';

// Kill -9 the worker, then the Temporal server, in the middle of imports. Their supervisors start
// them again (as a process manager would); every file must end as exactly one invoice.

const files = PEPPOL_SAMPLES.filter((s) => s.file !== 'peppol-bis3/peppol-GR-base-example-correct.xml').slice(0, 8);

function kill(pidFileVariable: 'WORKER_PID_FILE' | 'TEMPORAL_PID_FILE'): number {
  const pid = Number(readFileSync(inject('stackEnv')[pidFileVariable]!, 'utf8'));
  process.kill(pid, 'SIGKILL');
  return pid;
}

async function uploadAll(token: string) {
  const ids: string[] = [];
  for (const file of files) {
    const response = await ingestionUpload(token, file.file.split('/').pop()!, sample(file.file));
    expect(response.status).toBe(201);
    ids.push(response.body.invoice_id);
  }
  return ids;
}

async function expectExactlyOneInvoicePerFile(organizationId: string, ingestionToken: string, invoiceIds: string[]) {
  for (const [index, invoiceId] of invoiceIds.entries()) {
    const settled = await settledIngestionInvoice(ingestionToken, invoiceId);
    expect(settled.body.processing.status, files[index]!.file).toBe('completed');
    expect(settled.body.invoice_number).toBe(files[index]!.number);
  }
  const invoices = await testDb().invoice.findMany({ where: { organizationId }, include: { lines: true } });
  expect(invoices).toHaveLength(files.length);
  for (const [index, invoiceId] of invoiceIds.entries()) {
    const invoice = invoices.find((i) => i.id === invoiceId)!;
    expect(invoice.lines, files[index]!.file).toHaveLength(files[index]!.lines);
  }
  const imports = await testDb().invoiceImport.findMany({ where: { organizationId } });
  expect(imports).toHaveLength(files.length);
  expect(imports.every((i) => i.outcome === 'imported')).toBe(true);
  expect(invoices.every((i) => i.supplierId !== null)).toBe(true);
}

// The kill must land while imports are still under way, or it would prove nothing.
async function expectWorkInFlight(organizationId: string) {
  const done = await testDb().invoice.count({ where: { organizationId, processingStatus: 'completed' } });
  expect(done).toBeLessThan(files.length);
}

describe('crash recovery', () => {
  holdCrashStackForThisFile();

  it('loses and duplicates no invoice when the worker is killed mid-import', async () => {
    const tenant = await createTenant();
    const invoiceIds = await uploadAll(tenant.ingestionToken);
    await expectWorkInFlight(tenant.organizationId);
    const killed = kill('WORKER_PID_FILE');
    await eventually(
      async () => Number(readFileSync(inject('stackEnv').WORKER_PID_FILE!, 'utf8')),
      (pid) => pid !== killed,
      30_000,
    );
    await expectExactlyOneInvoicePerFile(tenant.organizationId, tenant.ingestionToken, invoiceIds);
  });

  it('loses and duplicates no invoice when the Temporal server is killed mid-import', async () => {
    const tenant = await createTenant();
    const invoiceIds = await uploadAll(tenant.ingestionToken);
    await expectWorkInFlight(tenant.organizationId);
    const killed = kill('TEMPORAL_PID_FILE');
    await eventually(
      async () => Number(readFileSync(inject('stackEnv').TEMPORAL_PID_FILE!, 'utf8')),
      (pid) => pid !== killed,
      30_000,
    );
    await expectExactlyOneInvoicePerFile(tenant.organizationId, tenant.ingestionToken, invoiceIds);
  });
});
