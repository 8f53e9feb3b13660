import { describe, expect, it } from 'vitest';
import { agreementWithPrice, peppolInvoice, rematch, settledRun, uploadedInvoice } from '../support/checks.js';
import { createTenant, keyFor, testDb } from '../support/tenants.js';
import { call, expectError, type ApiResponse } from '../support/api.js';
import { TRANSACTION_OPTIONS } from '../../src/db/transactions.js';

// Interactive transactions that meet: a lost deadlock is retried (src/db/transactions.ts), and the
// writes that change an agreement's terms lock in one order (src/agreements/terms-state.ts), so a valid
// request is never answered 500 because another one ran at the same time. The API fuzz once got a
// 500 on POST /v1/agreements/{id}/price-items/delete while checks, match refreshes and price
// changes of the same organization ran.

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('transactions under contention', () => {
  it('retries the side of a deadlock that PostgreSQL ended, so both transactions commit', async () => {
    const tenant = await createTenant();
    const create = async (title: string) =>
      (await tenant.call('/v1/agreements', { method: 'POST', body: { title } })).body.id as string;
    const [first, second] = [await create('A'), await create('B')];
    const db = testDb();
    const firstLocked = deferred();
    const secondLocked = deferred();
    const runs = { one: 0, two: 0 };
    // Each locks its own row, waits until the other holds its row, then asks for the other's:
    // a deadlock on the first attempt; the retried side finds the way free.
    const lockBoth = (
      mine: string,
      theirs: string,
      locked: () => void,
      otherLocked: Promise<void>,
      counter: 'one' | 'two',
    ) =>
      db.$transaction(async (tx) => {
        runs[counter]++;
        await tx.$executeRaw`SELECT 1 FROM agreements WHERE id = ${mine}::uuid FOR UPDATE`;
        locked();
        await otherLocked;
        await tx.$executeRaw`UPDATE agreements SET title = ${`locked by ${counter}`} WHERE id = ${theirs}::uuid`;
      });
    await Promise.all([
      lockBoth(first, second, firstLocked.resolve, secondLocked.promise, 'one'),
      lockBoth(second, first, secondLocked.resolve, firstLocked.promise, 'two'),
    ]);
    expect(runs.one + runs.two).toBe(3);
    const titles = (await db.agreement.findMany({ where: { id: { in: [first, second] } }, select: { title: true } }))
      .map((a) => a.title)
      .sort();
    expect(titles).toEqual(['locked by one', 'locked by two']);
  });

  it("waits for a price import that holds the agreement's price items longer than Prisma's 5 s default, and answers 503 (never 500) past the limit", async () => {
    const tenant = await createTenant();
    const { id: agreementId } = await agreementWithPrice(tenant, { title: 'Held' }, '10.00');
    const db = testDb();
    // As a price import replacing the agreement's items does: its transaction holds their rows
    // (and the agreement's) until it commits.
    const holdFor = (ms: number) =>
      db.$transaction(
        async (tx) => {
          await tx.$executeRaw`SELECT 1 FROM agreements WHERE id = ${agreementId}::uuid FOR NO KEY UPDATE`;
          await tx.$executeRaw`SELECT 1 FROM price_items WHERE agreement_id = ${agreementId}::uuid FOR UPDATE`;
          await new Promise((resolve) => setTimeout(resolve, ms));
        },
        { timeout: TRANSACTION_OPTIONS.timeout + 30_000 },
      );
    const held = holdFor(7_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const deleted = await tenant.call(`/v1/agreements/${agreementId}/price-items/delete`, {
      method: 'POST',
      body: { filters: [] },
    });
    await held;
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toEqual({ deleted: 1 });

    await tenant.call(`/v1/agreements/${agreementId}/price-items`, {
      method: 'POST',
      body: { entries: [{ description: 'Again', price: { type: 'amount', amount: '1.00' } }] },
    });
    const longer = holdFor(TRANSACTION_OPTIONS.timeout + 3_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await tenant.call(`/v1/agreements/${agreementId}/price-items/delete`, {
      method: 'POST',
      body: { filters: [] },
    });
    await longer;
    expectError(refused, 503, 'service_unavailable');
    expect(refused.headers.get('retry-after')).toBeTruthy();
    // A refused request changed nothing.
    expect(await db.priceItem.count({ where: { agreementId } })).toBe(1);
  }, 90_000);

  it('answers deletes, creates and changes of price items while checks and match refreshes run, with no 5xx', async () => {
    const tenant = await createTenant();
    const invoices = [await uploadedInvoice(tenant, peppolInvoice()), await uploadedInvoice(tenant, peppolInvoice())];
    const terms = {
      status: 'active',
      effective_date: '2017-01-01',
      expiration_date: '2017-12-31',
      supplier_ids: [invoices[0].supplier.id],
    };
    const agreement = await agreementWithPrice(tenant, { ...terms, title: 'Prices' }, '350.00');
    const other = await agreementWithPrice(tenant, { ...terms, title: 'Other' }, '360.00');
    await rematch(tenant, agreement.id);
    const created = await tenant.call(`/v1/agreements/${agreement.id}/price-items`, {
      method: 'POST',
      body: {
        entries: Array.from({ length: 40 }, (_, n) => ({
          description: `Item ${n}`,
          seller_item_id: `S-${n}`,
          price: { type: 'amount', amount: `${n + 1}.00` },
        })),
      },
    });
    expect(created.status).toBe(201);
    const ids: string[] = created.body.data.map((item: { id: string }) => item.id);

    // Several keys of the same user: the test stack's rate limit is per key.
    const keys = await Promise.all(Array.from({ length: 4 }, () => keyFor(tenant, 'admin')));
    let next = 0;
    const as = (path: string, body?: unknown, method = 'POST') =>
      call(path, { token: keys[next++ % keys.length]!, organizationId: tenant.organizationId, method, body });
    const requests: Promise<ApiResponse>[] = [];
    for (let round = 0; round < 6; round++) {
      requests.push(
        as(`/v1/agreements/${agreement.id}/price-items/delete`, { ids: ids.slice(round * 5, round * 5 + 5) }),
      );
      requests.push(as(`/v1/agreements/${agreement.id}/price-items/delete`, { search: `Item ${round}` }));
      requests.push(
        as(`/v1/agreements/${agreement.id}/price-items`, {
          entries: [{ description: `New ${round}`, price: { type: 'amount', amount: '2.00' } }],
        }),
      );
      requests.push(
        as(`/v1/agreements/${other.id}/price-items`, {
          entries: [{ description: `Other ${round}`, price: { type: 'amount', amount: '3.00' } }],
        }),
      );
      requests.push(
        as(`/v1/agreements/${other.id}`, { instructions: `Round ${round}: quote the order number.` }, 'PATCH'),
      );
      if (round % 2 === 0) requests.push(as(`/v1/agreements/${agreement.id}/check`, {}));
      if (round % 4 === 1) requests.push(as(`/v1/agreements/${agreement.id}/invoices/refresh`));
    }
    const answers = await Promise.all(requests);
    const failed = answers
      .filter((answer) => answer.status >= 500 || answer.status === 429)
      .map((answer) => `${answer.status} ${JSON.stringify(answer.body)}`);
    expect(failed).toEqual([]);
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    for (const answer of answers.filter((a) => a.status === 202)) await settledRun(tenant, answer.body.workflow_run_id);

    // Every delete removed what it named exactly once: what is left is the 40 less those deleted,
    // plus the new ones.
    const deleted = answers
      .filter((a) => a.body?.deleted !== undefined)
      .reduce((sum, a) => sum + (a.body.deleted as number), 0);
    expect(await testDb().priceItem.count({ where: { agreementId: agreement.id } })).toBe(1 + 40 + 6 - deleted);
  });
});
