import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addMember } from '../../src/admin/service.js';
import { expectError } from '../support/api.js';
import { invoiceOf, matchedAgreement, newSupplier, postAlert } from '../support/alerts.js';
import { createClaim } from '../support/claims.js';
import { createTenant, keyFor, testDb, type Tenant } from '../support/tenants.js';

const cond = (field: string, op: string, value: unknown) => ({ field, op, value });
const filterOf = (children: unknown[], combinator = 'and') => ({ schema_version: 1, root: { combinator, children } });
const ids = (response: { body: { data: { id: string }[] } }) => response.body.data.map((r) => r.id).sort();

async function createTeam(tenant: Tenant, body: Record<string, unknown>) {
  const created = await tenant.call('/v1/teams', {
    method: 'POST',
    body: { name: 'Buyers', user_ids: [], filter: null, ...body },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { id: string; updated_at: string };
}

describe('teams', () => {
  it('are created, read with an ETag, patched under If-Match, given and relieved of members, and deleted', async () => {
    const tenant = await createTenant();
    const colleague = await addMember(testDb(), {
      organizationId: tenant.organizationId,
      email: `${randomUUID()}@example.test`,
      role: 'read',
    });
    const filter = filterOf([
      cond('invoice.currency', 'is', 'EUR'),
      {
        combinator: 'or',
        children: [cond('invoice.amount', 'gte', '100.50'), cond('invoice.issued_date', 'within', 'last_90_days')],
      },
    ]);

    const created = await tenant.call('/v1/teams', {
      method: 'POST',
      body: { name: 'Paper buyers', user_ids: [tenant.userId], filter },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/teams/${created.body.id}`);
    expect(created.body).toMatchObject({
      name: 'Paper buyers',
      user_ids: [tenant.userId],
      filter,
      filter_status: 'valid',
    });
    expect(created.body.filter_errors).toBeUndefined();
    const id = created.body.id as string;

    const read = await tenant.call(`/v1/teams/${id}`);
    expect(read.body).toEqual(created.body);
    const etag = read.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect(ids(await tenant.call('/v1/teams'))).toEqual([id]);
    expect((await tenant.call('/v1/teams?fields=name')).body.data).toEqual([{ id, name: 'Paper buyers' }]);

    // If-Match: a stale tag is 412 and changes nothing; the current one applies.
    expectError(
      await tenant.call(`/v1/teams/${id}`, {
        method: 'PATCH',
        body: { name: 'x' },
        headers: { 'If-Match': '"stale"' },
      }),
      412,
      'precondition_failed',
    );
    const renamed = await tenant.call(`/v1/teams/${id}`, {
      method: 'PATCH',
      body: { name: 'Office buyers' },
      headers: { 'If-Match': etag },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Office buyers', filter });

    // A sent filter replaces the whole filter; null removes it.
    const replacement = filterOf([cond('supplier.country', 'is_any_of', ['NO', 'SE'])]);
    expect(
      (await tenant.call(`/v1/teams/${id}`, { method: 'PATCH', body: { filter: replacement } })).body.filter,
    ).toEqual(replacement);
    expect((await tenant.call(`/v1/teams/${id}`, { method: 'PATCH', body: { filter: null } })).body).toMatchObject({
      filter: null,
      filter_status: 'none',
      name: 'Office buyers',
    });
    expectError(await tenant.call(`/v1/teams/${id}`, { method: 'PATCH', body: {} }), 400, 'validation_error');

    // Members: adding twice changes nothing; only members of the organization; removing twice changes nothing.
    const added = await tenant.call(`/v1/teams/${id}/members`, { method: 'POST', body: { user_ids: [colleague.id] } });
    expect(added.status).toBe(200);
    expect(added.body.user_ids.sort()).toEqual([tenant.userId, colleague.id].sort());
    const again = await tenant.call(`/v1/teams/${id}/members`, {
      method: 'POST',
      body: { user_ids: [colleague.id, tenant.userId] },
    });
    expect(again.body).toEqual(added.body);
    const outsider = await createTenant();
    const refused = await tenant.call(`/v1/teams/${id}/members`, {
      method: 'POST',
      body: { user_ids: [outsider.userId] },
    });
    expectError(refused, 400, 'validation_error');
    expect(refused.body.error.details).toEqual([
      { field: 'user_ids', message: `${outsider.userId} is not a member of the organization` },
    ]);
    const removed = await tenant.call(`/v1/teams/${id}/members/${colleague.id}`, { method: 'DELETE' });
    expect(removed.body.user_ids).toEqual([tenant.userId]);
    const removedAgain = await tenant.call(`/v1/teams/${id}/members/${colleague.id}`, { method: 'DELETE' });
    expect(removedAgain.status).toBe(200);
    expect(removedAgain.body).toEqual(removed.body);
    expectError(
      await tenant.call(`/v1/teams`, {
        method: 'POST',
        body: { name: 'x', user_ids: [outsider.userId], filter: null },
      }),
      400,
      'validation_error',
    );

    // Read reads; Write manages.
    const readKey = await keyFor(tenant, 'read');
    expect((await tenant.call(`/v1/teams/${id}`, { token: readKey })).status).toBe(200);
    expectError(
      await tenant.call('/v1/teams', {
        method: 'POST',
        token: readKey,
        body: { name: 'x', user_ids: [], filter: null },
      }),
      403,
      'insufficient_level',
    );
    expectError(await tenant.call(`/v1/teams/${id}`, { method: 'DELETE', token: readKey }), 403, 'insufficient_level');

    // Another organization's team does not exist for this one.
    expectError(await outsider.call(`/v1/teams/${id}`), 404, 'not_found');
    expectError(
      await outsider.call(`/v1/teams/${id}`, { method: 'PATCH', body: { name: 'mine now' } }),
      404,
      'not_found',
    );
    expectError(
      await outsider.call(`/v1/teams/${id}/members`, { method: 'POST', body: { user_ids: [outsider.userId] } }),
      404,
      'not_found',
    );
    expectError(await outsider.call(`/v1/teams/${id}`, { method: 'DELETE' }), 404, 'not_found');
    expect((await outsider.call('/v1/teams')).body.data).toEqual([]);

    // Delete is permanent.
    expect((await tenant.call(`/v1/teams/${id}`, { method: 'DELETE' })).status).toBe(204);
    expectError(await tenant.call(`/v1/teams/${id}`), 404, 'not_found');
    expect(await testDb().teamMember.count({ where: { teamId: id } })).toBe(0);
  });

  it('take their read shape back: unchanged fields change nothing, members change only through /members', async () => {
    const tenant = await createTenant();
    const db = testDb();
    const colleague = await addMember(db, {
      organizationId: tenant.organizationId,
      email: `${randomUUID()}@example.test`,
      role: 'read',
    });
    const team = await createTeam(tenant, {
      user_ids: [tenant.userId, colleague.id],
      filter: filterOf([cond('invoice.currency', 'is', 'EUR')]),
    });
    const read = (await tenant.call(`/v1/teams/${team.id}`)).body;
    // Members sent in another order are the same members; other members are refused.
    const reordered = await tenant.call(`/v1/teams/${team.id}`, {
      method: 'PATCH',
      body: { ...read, user_ids: [...read.user_ids].reverse() },
    });
    expect(reordered.status, JSON.stringify(reordered.body)).toBe(200);
    expect(reordered.body).toEqual(read);
    const moved = await tenant.call(`/v1/teams/${team.id}`, {
      method: 'PATCH',
      body: { ...read, name: 'Renamed', user_ids: [tenant.userId] },
    });
    expectError(moved, 400, 'validation_error');
    expect(moved.body.error.details).toEqual([
      { field: 'user_ids', message: 'is read-only: send it as read or leave it out' },
    ]);
    // An invalid filter in a PATCH names its path and changes nothing.
    const invalid = await tenant.call(`/v1/teams/${team.id}`, {
      method: 'PATCH',
      body: { ...read, name: 'Renamed', filter: filterOf([{ ...cond('invoice.currency', 'is', 'EUR'), extra: 1 }]) },
    });
    expectError(invalid, 400, 'validation_error');
    expect(invalid.body.error.details.map((d: { field: string }) => d.field)).toEqual(['filter.root.children.0.extra']);
    expect((await tenant.call(`/v1/teams/${team.id}`)).body).toEqual(read);

    // A stored legacy filter that no longer validates is read verbatim and can be sent back with a new name.
    const legacy = {
      schema_version: 1,
      root: { combinator: 'and', children: [{ field: 'invoice.colour', op: 'is', value: 'red' }] },
    };
    await db.team.update({ where: { id: team.id }, data: { filter: legacy } });
    const legacyRead = (await tenant.call(`/v1/teams/${team.id}`)).body;
    expect(legacyRead.filter_status).toBe('invalid');
    const renamed = await tenant.call(`/v1/teams/${team.id}`, {
      method: 'PATCH',
      body: { ...legacyRead, name: 'Legacy buyers' },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Legacy buyers', filter: legacy, filter_status: 'invalid' });
    // A copy cannot be created with it: new filters must validate.
    expectError(await tenant.call('/v1/teams', { method: 'POST', body: legacyRead }), 400, 'validation_error');
  });

  it('refuses invalid filters with the path of the offending property and creates nothing', async () => {
    const tenant = await createTenant();
    const refuse = async (filter: unknown, field: string) => {
      const response = await tenant.call('/v1/teams', { method: 'POST', body: { name: 'x', user_ids: [], filter } });
      expectError(response, 400, 'validation_error');
      expect(response.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    };
    await refuse(
      filterOf([{ combinator: 'and', children: [{ ...cond('invoice.currency', 'is', 'EUR'), extra: true }] }]),
      'filter.root.children.0.children.0.extra',
    );
    await refuse({ ...filterOf([cond('invoice.currency', 'is', 'EUR')]), version: 2 }, 'filter.version');
    await refuse(
      filterOf(Array.from({ length: 21 }, () => cond('invoice.currency', 'is', 'EUR'))),
      'filter.root.children',
    );
    await refuse(
      filterOf([
        { combinator: 'and', children: Array.from({ length: 11 }, () => cond('invoice.currency', 'is', 'EUR')) },
        { combinator: 'and', children: Array.from({ length: 10 }, () => cond('invoice.currency', 'is', 'EUR')) },
      ]),
      'filter.root',
    );
    await refuse(
      filterOf([
        {
          combinator: 'and',
          children: [
            { combinator: 'or', children: [{ combinator: 'and', children: [cond('invoice.currency', 'is', 'EUR')] }] },
          ],
        },
      ]),
      'filter.root.children.0.children.0.children.0',
    );
    await refuse(
      filterOf([
        cond(
          'supplier.id',
          'is_any_of',
          Array.from({ length: 101 }, () => randomUUID()),
        ),
      ]),
      'filter.root.children.0.value',
    );
    await refuse(filterOf([cond('invoice.amount', 'gt', '12,50')]), 'filter.root.children.0.value');
    expect((await tenant.call('/v1/teams')).body.data).toEqual([]);

    // At the edges: 20 conditions over 3 levels, 20 children, 100 values.
    const third = {
      combinator: 'or',
      children: Array.from({ length: 9 }, () => cond('invoice.currency', 'is', 'EUR')),
    };
    const atEdges = filterOf([
      cond(
        'supplier.id',
        'is_any_of',
        Array.from({ length: 100 }, () => randomUUID()),
      ),
      { combinator: 'and', children: [third, ...Array.from({ length: 10 }, () => cond('invoice.amount', 'lte', 10))] },
    ]);
    expect(
      (await tenant.call('/v1/teams', { method: 'POST', body: { name: 'edge', user_ids: [], filter: atEdges } }))
        .status,
    ).toBe(201);
  });

  it('narrow lists, totals, groups and exports with mine and team_ids; conditions are met through different related records', async () => {
    const tenant = await createTenant();
    const db = testDb();
    // Supplier 1: invoice A (EUR 55.00) and invoice B (NOK 200.00), both matched to agreement G1.
    const s1 = newSupplier('Paper');
    const a = await invoiceOf(tenant, s1);
    const b = await invoiceOf(tenant, s1, {
      currency: 'NOK',
      lines: [{ description: 'Toner', quantity: '2', unit_price: '100.00', net_amount: '200.00' }],
    });
    const g1 = await matchedAgreement(tenant, [a.supplier.id], 'Paper deal');
    // Supplier 2: invoice C (EUR 300.00) matched to agreement G2.
    const s2 = newSupplier('Chairs');
    const c = await invoiceOf(tenant, s2, {
      lines: [{ description: 'Chair', quantity: '1', unit_price: '300.00', net_amount: '300.00' }],
    });
    const g2 = await matchedAgreement(tenant, [c.supplier.id], 'Chair deal');
    await db.invoice.update({ where: { id: b.id }, data: { orderReference: 'PO-77' } });
    await db.supplier.update({ where: { id: c.supplier.id }, data: { countryCode: 'SE' } });
    const alertA = (await postAlert(tenant, { invoice_id: a.id, agreement_id: g1 })).id as string;
    const alertB = (await postAlert(tenant, { invoice_id: b.id, agreement_id: g1, impact_amount: '20.00' }))
      .id as string;
    const alertC = (await postAlert(tenant, { invoice_id: c.id, agreement_id: g2 })).id as string;
    const claim = await createClaim(tenant, { agreement_id: g1, alerts: { alert_ids: [alertA, alertB] } });

    // Mine 1: supplier 1 AND an EUR invoice AND an invoice of at least 100 — on G1 the last two are met
    // by different invoices (A and B), so G1 and its claim are covered, but no invoice or alert is.
    await createTeam(tenant, {
      user_ids: [tenant.userId],
      filter: filterOf([
        cond('supplier.id', 'is', a.supplier.id),
        cond('invoice.currency', 'is', 'EUR'),
        cond('invoice.amount', 'gte', 100),
      ]),
    });
    // Mine 2: invoices whose reference is PO-77 (only B), or whose supplier is Swedish (only C).
    await createTeam(tenant, {
      user_ids: [tenant.userId],
      filter: filterOf([cond('invoice.reference', 'is', 'po-77'), cond('supplier.country', 'is', 'SE')], 'or'),
    });
    // Not mine: everything of agreement G1.
    const g1Team = await createTeam(tenant, { filter: filterOf([cond('agreement.id', 'is', g1)]) });
    // Not mine: no filter, and a negative condition.
    const noFilter = await createTeam(tenant, {});
    const notNok = await createTeam(tenant, { filter: filterOf([cond('invoice.currency', 'is_not', 'NOK')]) });

    const list = (path: string) =>
      tenant.call(path).then((r) => {
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return ids(r);
      });
    const sorted = (...values: string[]) => [...values].sort();

    // mine
    expect(await list('/v1/invoices?mine=true')).toEqual(sorted(b.id, c.id));
    expect(await list('/v1/agreements?mine=true')).toEqual(sorted(g1, g2));
    expect(await list('/v1/alerts?mine=true')).toEqual(sorted(alertB, alertC));
    expect(await list('/v1/claims?mine=true')).toEqual([claim.id]);
    // team_ids, regardless of membership
    expect(await list(`/v1/invoices?team_ids=${g1Team.id}`)).toEqual(sorted(a.id, b.id));
    expect(await list(`/v1/agreements?team_ids=${g1Team.id}`)).toEqual([g1]);
    expect(await list(`/v1/alerts?team_ids=${g1Team.id}`)).toEqual(sorted(alertA, alertB));
    expect(await list(`/v1/claims?team_ids=${g1Team.id}`)).toEqual([claim.id]);
    expect(await list(`/v1/invoices?team_ids=${g1Team.id},${noFilter.id}`)).toEqual(sorted(a.id, b.id));
    // A negative condition: no related invoice in NOK (G1 has B, so it is out; A and C are in).
    expect(await list(`/v1/invoices?team_ids=${notNok.id}`)).toEqual(sorted(a.id, c.id));
    expect(await list(`/v1/agreements?team_ids=${notNok.id}`)).toEqual([g2]);
    expect(await list(`/v1/alerts?team_ids=${notNok.id}`)).toEqual(sorted(alertA, alertC));
    expect(await list(`/v1/claims?team_ids=${notNok.id}`)).toEqual([]);
    // A team without a filter matches nothing.
    for (const path of ['invoices', 'agreements', 'alerts', 'claims'])
      expect(await list(`/v1/${path}?team_ids=${noFilter.id}`)).toEqual([]);
    // Other filters narrow further.
    expect(
      await list(`/v1/invoices?team_ids=${g1Team.id}&document_types=invoice&search=${encodeURIComponent('zzz-none')}`),
    ).toEqual([]);
    expect(await list(`/v1/alerts?team_ids=${g1Team.id}&invoice_ids=${a.id}`)).toEqual([alertA]);
    expect(await list(`/v1/agreements?mine=true&supplier_ids=${c.supplier.id}`)).toEqual([g2]);
    expect(await list(`/v1/claims?mine=true&statuses=completed`)).toEqual([]);

    // Pages: the cursor carries the scope.
    const first = await tenant.call(`/v1/invoices?team_ids=${g1Team.id}&limit=1`);
    expect(first.body.data).toHaveLength(1);
    const second = await tenant.call(
      `/v1/invoices?team_ids=${g1Team.id}&limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`,
    );
    expect(sorted(first.body.data[0].id, second.body.data[0].id)).toEqual(sorted(a.id, b.id));
    expect(
      second.body.next_cursor === null ||
        (
          await tenant.call(
            `/v1/invoices?team_ids=${g1Team.id}&limit=1&cursor=${encodeURIComponent(second.body.next_cursor)}`,
          )
        ).body.data.length === 0,
    ).toBe(true);
    expectError(
      await tenant.call(`/v1/invoices?mine=true&limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`),
      400,
      'validation_error',
    );

    // Totals, groups and exports.
    const invoiceMetrics = (await tenant.call(`/v1/invoices/metrics?team_ids=${g1Team.id}`)).body;
    expect(invoiceMetrics.counts.total).toBe(2);
    expect(
      invoiceMetrics.spend.map((s: { currency_code: string; invoiced: string }) => [s.currency_code, s.invoiced]),
    ).toEqual([
      ['EUR', '55.00'],
      ['NOK', '200.00'],
    ]);
    expect((await tenant.call('/v1/invoices/metrics?mine=true')).body.counts.total).toBe(2);
    const alertMetrics = (await tenant.call('/v1/alerts/metrics?mine=true')).body;
    expect(alertMetrics.counts.total).toBe(2);
    // Per currency, never added across: C's alert in EUR, B's (claimed) in NOK.
    expect(alertMetrics.impact).toEqual([
      expect.objectContaining({ currency_code: 'EUR', total: '10.00', pending: '10.00' }),
      expect.objectContaining({ currency_code: 'NOK', total: '20.00', claimed: '20.00' }),
    ]);
    const groups = (await tenant.call(`/v1/alerts/groups?group_by=agreement&team_ids=${g1Team.id}`)).body.data;
    expect(groups).toEqual([expect.objectContaining({ key: g1, count: 2 })]);
    const csv = (await tenant.call(`/v1/alerts/export?format=csv&mine=true`)).body as string;
    expect(csv).toContain(alertB);
    expect(csv).toContain(alertC);
    expect(csv).not.toContain(alertA);
    expect((await tenant.call(`/v1/claims/metrics?team_ids=${g1Team.id}`)).body.counts.total).toBe(1);
    expect((await tenant.call(`/v1/claims/metrics?team_ids=${notNok.id}`)).body.counts.total).toBe(0);

    // Both at once is refused; an unknown (or another organization's) team is not found.
    for (const path of [
      'invoices',
      'agreements',
      'alerts',
      'claims',
      'invoices/metrics',
      'alerts/metrics',
      'claims/metrics',
      'alerts/export',
    ]) {
      expectError(await tenant.call(`/v1/${path}?mine=true&team_ids=${g1Team.id}`), 400, 'validation_error');
    }
    expectError(await tenant.call('/v1/invoices?team_ids=not-a-uuid'), 400, 'validation_error');
    // An ingestion token belongs to no one: mine=true is refused; team_ids works.
    expectError(await tenant.call('/v1/invoices?mine=true', { token: tenant.ingestionToken }), 400, 'validation_error');
    expect(
      (await tenant.call(`/v1/invoices?team_ids=${g1Team.id}`, { token: tenant.ingestionToken })).body.invoices
        .map((i: { invoice_id: string }) => i.invoice_id)
        .sort(),
    ).toEqual(sorted(a.id, b.id));
    const other = await createTenant();
    const othersTeam = await createTeam(other, {
      user_ids: [other.userId],
      filter: filterOf([cond('agreement.id', 'is', g1)]),
    });
    expectError(await tenant.call(`/v1/invoices?team_ids=${othersTeam.id}`), 404, 'not_found');
    // Teams only narrow: the other organization's team over this organization's agreement covers nothing there.
    expect((await other.call('/v1/invoices?mine=true')).body.data).toEqual([]);
    expect((await other.call(`/v1/alerts?team_ids=${othersTeam.id}`)).body.data).toEqual([]);
    // A caller in no team sees nothing with mine=true.
    const colleague = await addMember(db, {
      organizationId: tenant.organizationId,
      email: `${randomUUID()}@example.test`,
      role: 'read',
    });
    const { createApiKey } = await import('../../src/admin/service.js');
    const colleagueKey = (
      await createApiKey(db, { organizationId: tenant.organizationId, userId: colleague.id, level: 'read' })
    ).key;
    expect((await tenant.call('/v1/invoices?mine=true', { token: colleagueKey })).body.data).toEqual([]);
    expect(ids(await tenant.call(`/v1/invoices?team_ids=${g1Team.id}`, { token: colleagueKey }))).toEqual(
      sorted(a.id, b.id),
    );

    // A stored filter that no longer validates is returned verbatim, says so, and matches nothing.
    const legacy = {
      schema_version: 1,
      root: { combinator: 'and', children: [{ field: 'invoice.colour', op: 'is', value: 'red' }] },
    };
    const legacyId = randomUUID();
    await db.team.create({
      data: {
        id: legacyId,
        organizationId: tenant.organizationId,
        name: 'Legacy',
        filter: legacy,
        members: { create: [{ userId: colleague.id }] },
      },
    });
    const legacyTeam = (await tenant.call(`/v1/teams/${legacyId}`)).body;
    expect(legacyTeam).toMatchObject({
      filter: legacy,
      filter_status: 'invalid',
      filter_errors: [{ field: 'filter.root.children.0.field', message: expect.any(String) }],
    });
    expect(await list(`/v1/invoices?team_ids=${legacyId}`)).toEqual([]);
    expect((await tenant.call('/v1/alerts?mine=true', { token: colleagueKey })).body.data).toEqual([]);
    // Deleting a team leaves its records alone.
    expect((await tenant.call(`/v1/teams/${g1Team.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await tenant.call(`/v1/invoices/${a.id}`)).status).toBe(200);
    expect((await tenant.call(`/v1/agreements/${g1}`)).status).toBe(200);
  });
});
