import { describe, expect, it } from 'vitest';
import { isSuppressed, itemKeyOf, parseDirectives } from '../../src/agreements/context-suggestions/directives.js';
import { expectError } from '../support/api.js';
import { createTenant, keyFor, testDb, type Tenant } from '../support/tenants.js';
import { insertAlert, paperAndTonerPair } from '../support/alerts.js';

const matchedPair = (tenant: Tenant) =>
  paperAndTonerPair(tenant, {
    supplier: { name: 'Acme', org_number: '111222333' },
    agreement: { title: 'Acme supplies', instructions: INSTRUCTIONS },
  });

// Draft agreements, so no automatic check replaces the alerts. Alerts of the checks (with a checker and a fingerprint) are inserted with the test database
// client for a real matched pair; alerts people record go through POST /v1/alerts; dismissals go
// through POST /v1/alerts/dismiss, which calls suggestInstructionEdits.

const INSTRUCTIONS = 'Prices are net of VAT.';

const suggestionsOf = async (tenant: Tenant, agreementId: string, query = '') =>
  (await tenant.call(`/v1/agreements/${agreementId}/context-suggestions${query}`)).body;
const dismiss = (tenant: Tenant, alertIds: string[], extra: Record<string, unknown> = {}) =>
  tenant.call('/v1/alerts/dismiss', { method: 'POST', body: { alert_ids: alertIds, ...extra } });
const agreementRow = (id: string) => testDb().agreement.findUniqueOrThrow({ where: { id } });

describe('context suggestions', () => {
  it('suggests a directive on dismissal; accepting appends it once, outdates checks, and the checks then suppress that alert', async () => {
    const tenant = await createTenant();
    const pair = await matchedPair(tenant);
    const alertId = await insertAlert(tenant, pair, { checker: 'price_mismatch', lineId: pair.lines[0]!.id });
    expect(
      (await dismiss(tenant, [alertId], { category: 'not_an_issue', note: 'Price raise agreed by phone' })).status,
    ).toBe(200);

    const listed = await suggestionsOf(tenant, pair.agreementId);
    expect(listed).toEqual({
      data: [
        {
          id: expect.any(String),
          agreement_id: pair.agreementId,
          alert_id: alertId,
          status: 'pending',
          instruction:
            'Do not flag: price_mismatch for item "1001" at unit price 12.50 EUR. Reason: Price raise agreed by phone',
          reason:
            'Alert "Unit price above the agreed price" was dismissed as not_an_issue: Price raise agreed by phone',
          created_at: expect.any(String),
          decided_at: null,
        },
      ],
      next_cursor: null,
    });
    const suggestion = listed.data[0];
    const before = await agreementRow(pair.agreementId);

    const accepted = await tenant.call(
      `/v1/agreements/${pair.agreementId}/context-suggestions/${suggestion.id}/accept`,
      { method: 'POST' },
    );
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ id: suggestion.id, status: 'accepted', decided_at: expect.any(String) });
    const agreement = (await tenant.call(`/v1/agreements/${pair.agreementId}`)).body;
    expect(agreement.instructions).toBe(`${INSTRUCTIONS}\n${suggestion.instruction}`);
    const after = await agreementRow(pair.agreementId);
    expect(after.termsChangedAt.getTime()).toBeGreaterThan(before.termsChangedAt.getTime());

    // Accepting again changes nothing.
    const again = await tenant.call(`/v1/agreements/${pair.agreementId}/context-suggestions/${suggestion.id}/accept`, {
      method: 'POST',
    });
    expect(again.body).toEqual(accepted.body);
    expect((await agreementRow(pair.agreementId)).termsChangedAt).toEqual(after.termsChangedAt);
    expect((await agreementRow(pair.agreementId)).instructions).toBe(agreement.instructions);
    expectError(
      await tenant.call(`/v1/agreements/${pair.agreementId}/context-suggestions/${suggestion.id}/reject`, {
        method: 'POST',
      }),
      409,
      'suggestion_accepted',
    );

    // The promise: the same problem found again (on this or a later invoice) is not raised.
    const line = pair.lines[0]!;
    const refound = {
      checker: 'price_mismatch',
      fingerprint: 'price_mismatch:later',
      itemKey: itemKeyOf(line),
      unitPrice: line.unitPrice!.toString(),
      currencyCode: 'EUR',
    };
    expect(isSuppressed(refound, parseDirectives(agreement.instructions))).toBe(true);
    expect(isSuppressed({ ...refound, unitPrice: '14.00' }, parseDirectives(agreement.instructions))).toBe(false);

    // Dismissing the same kind of alert again suggests nothing new.
    const second = await insertAlert(tenant, pair, { checker: 'price_mismatch', lineId: line.id });
    await dismiss(tenant, [second], { note: 'again' });
    expect((await suggestionsOf(tenant, pair.agreementId)).data).toHaveLength(1);
  });

  it('never suggests a rejected edit again, and does not suggest when told not to', async () => {
    const tenant = await createTenant();
    const pair = await matchedPair(tenant);
    const first = await insertAlert(tenant, pair, { checker: 'price_mismatch', lineId: pair.lines[1]!.id });
    await dismiss(tenant, [first]);
    const [suggestion] = (await suggestionsOf(tenant, pair.agreementId)).data;
    expect(suggestion.instruction).toBe('Do not flag: price_mismatch for item "Toner" at unit price 80.00 EUR');
    const path = `/v1/agreements/${pair.agreementId}/context-suggestions/${suggestion.id}`;

    const rejected = await tenant.call(`${path}/reject`, { method: 'POST' });
    expect(rejected.body).toMatchObject({ status: 'rejected', decided_at: expect.any(String) });
    expect((await tenant.call(`${path}/reject`, { method: 'POST' })).body).toEqual(rejected.body);
    expectError(await tenant.call(`${path}/accept`, { method: 'POST' }), 409, 'suggestion_rejected');
    expect((await agreementRow(pair.agreementId)).instructions).toBe(INSTRUCTIONS);

    // The same edit from another alert, with another reason: still only the rejected one.
    const second = await insertAlert(tenant, pair, {
      checker: 'price_mismatch',
      lineId: pair.lines[1]!.id,
      title: 'Another wording',
    });
    await dismiss(tenant, [second], { category: 'other', note: 'different reason' });
    expect((await suggestionsOf(tenant, pair.agreementId)).data.map((s: any) => s.status)).toEqual(['rejected']);

    const untold = await insertAlert(tenant, pair, { checker: 'quantity_mismatch', lineId: pair.lines[1]!.id });
    await dismiss(tenant, [untold], { suggest_instructions: false });
    expect((await suggestionsOf(tenant, pair.agreementId)).data).toHaveLength(1);
  });

  it('suggests for every alert of a bulk dismissal, each edit once', async () => {
    const tenant = await createTenant();
    const pair = await matchedPair(tenant);
    const [paper, toner] = [pair.lines[0]!.id, pair.lines[1]!.id];
    const first = await insertAlert(tenant, pair, { checker: 'price_mismatch', lineId: paper });
    const sameEdit = await insertAlert(tenant, pair, { checker: 'price_mismatch', lineId: paper });
    const other = await insertAlert(tenant, pair, { checker: 'quantity_mismatch', lineId: toner });
    expect((await dismiss(tenant, [first, sameEdit, other], { note: 'bulk' })).status).toBe(200);

    const { data } = await suggestionsOf(tenant, pair.agreementId);
    const byInstruction = [...data].sort((a: any, b: any) => (a.instruction < b.instruction ? -1 : 1));
    expect(byInstruction.map((s: any) => s.instruction)).toEqual([
      'Do not flag: price_mismatch for item "1001" at unit price 12.50 EUR. Reason: bulk',
      'Do not flag: quantity_mismatch for item "Toner" at unit price 80.00 EUR. Reason: bulk',
    ]);
    // The two alerts with the same edit give one suggestion, from either of them.
    expect([first, sameEdit]).toContain(byInstruction[0].alert_id);
    expect(byInstruction[1].alert_id).toBe(other);
  });

  it('suggests an exact directive for a whole-invoice alert and a note for an alert a user recorded', async () => {
    const tenant = await createTenant();
    const pair = await matchedPair(tenant);
    const whole = await insertAlert(tenant, pair, {
      checker: 'totals_mismatch',
      lineId: null,
      title: 'Totals do not add up',
    });
    const fingerprint = (await testDb().alert.findUniqueOrThrow({ where: { id: whole } })).fingerprint;
    const recorded = await tenant.call('/v1/alerts', {
      method: 'POST',
      body: {
        invoice_id: pair.invoiceId,
        agreement_id: pair.agreementId,
        title: 'Freight charged twice',
        explanation: 'Two freight lines.',
        impact_amount: '15.00',
      },
    });
    expect(recorded.status).toBe(201);
    await dismiss(tenant, [whole], { note: 'rounding' });
    await dismiss(tenant, [recorded.body.id], { note: 'two deliveries' });

    const { data } = await suggestionsOf(tenant, pair.agreementId);
    expect(data.map((s: any) => [s.alert_id, s.instruction])).toEqual([
      [recorded.body.id, 'Not an issue: "Freight charged twice". Reason: two deliveries'],
      [whole, `Do not flag: totals_mismatch (ref ${fingerprint}). Reason: rounding`],
    ]);
    // Accepting both keeps both lines, in the order accepted.
    for (const s of [...data].reverse())
      expect(
        (await tenant.call(`/v1/agreements/${pair.agreementId}/context-suggestions/${s.id}/accept`, { method: 'POST' }))
          .status,
      ).toBe(200);
    expect((await agreementRow(pair.agreementId)).instructions).toBe(
      `${INSTRUCTIONS}\n${data[1].instruction}\n${data[0].instruction}`,
    );
  });

  it('filters by status, pages with cursors, and finds no suggestion of another agreement or organization', async () => {
    const tenant = await createTenant();
    const pair = await matchedPair(tenant);
    const alerts = [
      await insertAlert(tenant, pair, { checker: 'a_check', lineId: pair.lines[0]!.id }),
      await insertAlert(tenant, pair, { checker: 'b_check', lineId: pair.lines[0]!.id }),
      await insertAlert(tenant, pair, { checker: 'c_check', lineId: pair.lines[0]!.id }),
    ];
    for (const id of alerts) await dismiss(tenant, [id]);
    const all = (await suggestionsOf(tenant, pair.agreementId)).data;
    expect(all).toHaveLength(3);
    await tenant.call(`/v1/agreements/${pair.agreementId}/context-suggestions/${all[0].id}/reject`, { method: 'POST' });

    expect((await suggestionsOf(tenant, pair.agreementId, '?statuses=pending')).data.map((s: any) => s.id)).toEqual([
      all[1].id,
      all[2].id,
    ]);
    expect(
      (await suggestionsOf(tenant, pair.agreementId, '?statuses=rejected,accepted')).data.map((s: any) => s.id),
    ).toEqual([all[0].id]);
    const first = await suggestionsOf(tenant, pair.agreementId, '?limit=2');
    const rest = await suggestionsOf(
      tenant,
      pair.agreementId,
      `?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`,
    );
    expect([...first.data, ...rest.data].map((s: any) => s.id)).toEqual(all.map((s: any) => s.id));
    expect(rest.next_cursor).toBeNull();
    expectError(
      await tenant.call(`/v1/agreements/${pair.agreementId}/context-suggestions?statuses=maybe`),
      400,
      'validation_error',
    );

    const other = (await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Other' } })).body;
    expectError(
      await tenant.call(`/v1/agreements/${other.id}/context-suggestions/${all[1].id}/accept`, { method: 'POST' }),
      404,
      'not_found',
    );
    expect((await suggestionsOf(tenant, other.id)).data).toEqual([]);
    const stranger = await createTenant();
    expectError(await stranger.call(`/v1/agreements/${pair.agreementId}/context-suggestions`), 404, 'not_found');
    expectError(
      await stranger.call(`/v1/agreements/${pair.agreementId}/context-suggestions/${all[1].id}/accept`, {
        method: 'POST',
      }),
      404,
      'not_found',
    );
    const readKey = await keyFor(tenant, 'read');
    expectError(
      await tenant.call(`/v1/agreements/${pair.agreementId}/context-suggestions/${all[1].id}/accept`, {
        method: 'POST',
        token: readKey,
      }),
      403,
      'insufficient_level',
    );
  });
});
