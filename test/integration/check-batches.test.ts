import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadBatchPriorCharges, loadCheck } from '../../src/checks/input.js';
import { checkIdFor, performChecks } from '../../src/checks/perform.js';
import { agreementWithPrice, peppolInvoice, rematch, uploadedInvoice } from '../support/checks.js';
import { createTenant, testDb } from '../support/tenants.js';

// A check run reads the earlier charges of a batch's invoices once per supplier and narrows them
// per invoice (docs/check-runs.md): each invoice must get exactly what its check would read alone.
describe('check batches', () => {
  it("read each invoice's earlier charges as its check would read them alone", async () => {
    const tenant = await createTenant();
    // Within two weeks of each other, weeks apart, and more than 400 days later: the windows differ.
    const invoices: { id: string; supplier: { id: string } }[] = [];
    for (const issueDate of ['2017-11-13', '2017-11-20', '2017-12-30', '2019-06-01']) {
      invoices.push(await uploadedInvoice(tenant, peppolInvoice(undefined, issueDate)));
    }
    expect(new Set(invoices.map((invoice) => invoice.supplier.id)).size).toBe(1);
    const [first, second, , last] = invoices as [
      (typeof invoices)[number],
      (typeof invoices)[number],
      unknown,
      (typeof invoices)[number],
    ];
    const agreement = await agreementWithPrice(tenant, { title: 'Earlier charges', supplier_ids: [first.supplier.id] });

    const db = testDb();
    const batch = await loadBatchPriorCharges(
      db,
      tenant.organizationId,
      invoices.map((invoice) => invoice.id),
    );
    let compared = 0;
    for (const invoice of invoices) {
      const alone = (await loadCheck(db, tenant.organizationId, invoice.id, agreement.id))!.input.priorCharges;
      expect(batch.get(invoice.id)).toEqual(alone);
      expect(alone.every((charge) => charge.invoiceId !== invoice.id)).toBe(true);
      compared += alone.length;
    }
    // The first two are within the duplicate window of each other: each reads the other's lines.
    expect(batch.get(first.id)!.some((charge) => charge.invoiceId === second.id)).toBe(true);
    // Nothing is read across more than 400 days.
    expect(batch.get(last.id)!.some((charge) => charge.invoiceId === first.id)).toBe(false);
    expect(compared).toBeGreaterThan(0);
  });

  // A batch's checks are stored together, in one transaction (docs/check-runs.md): each pair must
  // end as its own check would leave it, alerts found again kept (a dismissed one back as pending),
  // the new ones announced per check, and a repeat of the batch must change nothing.
  it("stores a batch's checks together as each would be stored alone, and a repeat changes nothing", async () => {
    const tenant = await createTenant();
    const invoices: { id: string; supplier: { id: string } }[] = [];
    for (const issueDate of ['2017-11-13', '2017-11-14', '2017-11-15'])
      invoices.push(await uploadedInvoice(tenant, peppolInvoice(undefined, issueDate)));
    const agreement = await agreementWithPrice(
      tenant,
      {
        title: 'Batch store',
        status: 'active',
        effective_date: '2017-01-01',
        expiration_date: '2017-12-31',
        supplier_ids: [invoices[0]!.supplier.id],
      },
      '350.00',
    );
    await rematch(tenant, agreement.id);
    const db = testDb();
    const pairs = invoices.map((invoice) => ({ invoiceId: invoice.id, agreementId: agreement.id }));
    const alertsOf = async () =>
      new Map(
        await Promise.all(
          invoices.map(
            async (invoice) =>
              [
                invoice.id,
                (
                  await db.alert.findMany({
                    where: { invoiceId: invoice.id, agreementId: agreement.id },
                    orderBy: { id: 'asc' },
                  })
                ).map((a) => ({
                  id: a.id,
                  status: a.status,
                  fingerprint: a.fingerprint,
                  impact: a.impactAmount.toString(),
                })),
              ] as const,
          ),
        ),
      );

    const first = randomUUID();
    const stored = await performChecks(db, tenant.organizationId, first, pairs);
    expect(stored.errors).toEqual([]);
    expect(stored.outcomes.map((o) => o.result.status)).toEqual(['completed', 'completed', 'completed']);
    const before = await alertsOf();
    for (const invoice of invoices) expect(before.get(invoice.id)!.length).toBeGreaterThan(0);
    // Each check its findings, its alerts, its outbox row (the alerts it created) and its place on the timeline.
    for (const { pair, result } of stored.outcomes) {
      const checkId = checkIdFor(first, pair.invoiceId, pair.agreementId);
      expect(result).toMatchObject({
        checkId,
        findings: before.get(pair.invoiceId)!.length,
        alerts: before.get(pair.invoiceId)!.length,
      });
      expect(await db.complianceFinding.count({ where: { checkId } })).toBe(result.findings);
      expect((await db.notificationOutbox.findUnique({ where: { id: checkId } }))!.alertIds.sort()).toEqual(
        before
          .get(pair.invoiceId)!
          .map((a) => a.id)
          .sort(),
      );
      expect(
        await db.activityEntry.count({ where: { entityId: pair.invoiceId, action: 'checked', actorRunId: first } }),
      ).toBe(1);
    }
    expect(
      (await db.invoice.findMany({ where: { id: { in: invoices.map((i) => i.id) } } })).map((i) => i.checkStatus),
    ).toEqual(['checked', 'checked', 'checked']);

    const dismissed = before.get(invoices[1]!.id)![0]!;
    expect(
      (
        await tenant.call('/v1/alerts/dismiss', {
          method: 'POST',
          body: { alert_ids: [dismissed.id], category: 'other', note: 'batch', suggest_instructions: false },
        })
      ).status,
    ).toBe(200);

    const second = randomUUID();
    const again = await performChecks(db, tenant.organizationId, second, pairs);
    expect(again.errors).toEqual([]);
    // Found again: the same alerts (ids, fingerprints, amounts), the dismissed one pending again; nothing new to announce.
    expect(await alertsOf()).toEqual(before);
    for (const pair of pairs)
      expect(
        await db.notificationOutbox.findUnique({ where: { id: checkIdFor(second, pair.invoiceId, pair.agreementId) } }),
      ).toBeNull();

    // The same batch again (a retried activity): the completed checks are found, nothing is written.
    const entries = await db.activityEntry.count({ where: { actorRunId: second } });
    const repeat = await performChecks(db, tenant.organizationId, second, pairs);
    const results = (outcomes: typeof again.outcomes) =>
      outcomes.map((o) => o.result).sort((a, b) => a.checkId.localeCompare(b.checkId));
    expect(results(repeat.outcomes)).toEqual(results(again.outcomes));
    expect(await db.activityEntry.count({ where: { actorRunId: second } })).toBe(entries);
    expect(await db.complianceCheck.count({ where: { workflowRunId: second } })).toBe(3);
  });
});
