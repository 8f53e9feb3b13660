import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addMember, createApiKey } from '../../src/admin/service.js';
import { performCheck } from '../../src/checks/perform.js';
import { newSupplier, paperAndTonerPair, postAlert } from '../support/alerts.js';
import { importDocument, sample, settledImport, uploadDocument } from '../support/invoices.js';
import { call, expectError } from '../support/api.js';
import { alertOn, claimSetup, createClaim } from '../support/claims.js';
import { createTenant, keyFor, testDb, type Tenant } from '../support/tenants.js';

// GET /v1/activity and comments over HTTP (docs/activity.md): every kind of change in a record's
// timeline with who made it (a person's key, or the system and its run), comments and replies
// with the author rules, paging, levels and tenancy.

type Json = any;

async function timeline(tenant: Tenant, query: string): Promise<Json[]> {
  const response = await tenant.call(`/v1/activity?${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
}

// A second member of the organization with a key of their own.
async function colleague(tenant: Tenant) {
  const user = await addMember(testDb(), {
    organizationId: tenant.organizationId,
    email: `${randomUUID()}@example.test`,
    name: 'Colleague',
    role: 'write',
  });
  const key = await createApiKey(testDb(), { organizationId: tenant.organizationId, userId: user.id, level: 'write' });
  return {
    userId: user.id,
    call: (path: string, options: Json = {}) =>
      call(path, { token: key.key, organizationId: tenant.organizationId, ...options }),
  };
}

describe('activity timelines', () => {
  it("show a claim's changes newest first with the key and person who made them, related alerts on request, paged by cursor", async () => {
    const tenant = await createTenant();
    const { agreementId, invoices } = await claimSetup(tenant, [{}]);
    const alertId = await alertOn(tenant, invoices[0]!.id, agreementId);
    const claim = await createClaim(tenant, { agreement_id: agreementId, alerts: { alert_ids: [alertId] } });
    await tenant.call(`/v1/claims/${claim.id}`, { method: 'PATCH', body: { title: 'Renamed', status: 'in_progress' } });
    await tenant.call(`/v1/claims/${claim.id}/refunds`, {
      method: 'POST',
      body: { amount: '5.00', currency_code: 'EUR' },
    });

    const entries = await timeline(tenant, `entity_type=claim&entity_id=${claim.id}`);
    expect(entries.map((e) => e.action)).toEqual([
      'refund_added',
      'status_changed',
      expect.stringMatching(/^(alerts_added|created)$/),
      expect.stringMatching(/^(alerts_added|created)$/),
    ]);
    expect(entries[1]).toMatchObject({
      entry_type: 'activity',
      entity_type: 'claim',
      entity_id: claim.id,
      actor: { type: 'api_key', user_id: tenant.userId, api_key_id: tenant.apiKeyId, run_id: null, name: 'Test User' },
      changes: {
        title: { before: 'Overcharges Q1', after: 'Renamed' },
        status: { before: 'pending', after: 'in_progress' },
      },
      comment: null,
    });
    // Alerts' own entries join the claim's on request.
    const withAlerts = await timeline(tenant, `entity_type=claim&entity_id=${claim.id}&include_related_alerts=true`);
    expect(
      withAlerts
        .filter((e) => e.entity_type === 'alert')
        .map((e) => e.action)
        .sort(),
    ).toEqual(['claim_added', 'created']);

    // Cursor paging: one entry a page, each once, in the same order.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response: Json = await tenant.call(
        `/v1/activity?entity_type=claim&entity_id=${claim.id}&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...response.body.data.map((e: Json) => e.id));
      cursor = response.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(entries.map((e) => e.id));
    // A cursor is bound to its filters.
    const first = await tenant.call(`/v1/activity?entity_type=claim&entity_id=${claim.id}&limit=1`);
    expectError(
      await tenant.call(
        `/v1/activity?entity_type=claim&entity_id=${claim.id}&entry_type=comment&cursor=${first.body.next_cursor}`,
      ),
      400,
      'validation_error',
    );
  });

  it("show the system's work with its run: an import creating an invoice, a match, a check and its alerts", async () => {
    const tenant = await createTenant();
    // An import: the invoice is created by the import's run.
    const started = await importDocument(
      tenant,
      await uploadDocument(tenant, 'base-example.xml', sample('peppol-bis3/peppol-base-example.xml')),
    );
    const done = await settledImport(tenant, started.body.id);
    expect(done.outcome).toBe('imported');
    const imported = await timeline(tenant, `entity_type=invoice&entity_id=${done.invoice_id}&entry_type=activity`);
    expect(imported.find((e) => e.action === 'created')).toMatchObject({
      actor: { type: 'system', user_id: null, api_key_id: null, run_id: done.workflow_run_id, name: 'System (import)' },
      changes: {
        source: { before: null },
        import_id: { before: null, after: started.body.id },
        invoice_number: { before: null, after: 'Snippet1' },
      },
    });

    // An invoice written by a person, matched by a refresh run, then checked by a check run.
    const pair = await paperAndTonerPair(tenant, {
      supplier: newSupplier(),
      agreement: { title: 'Supplies', instructions: 'Net 30' },
    });
    await tenant.call(`/v1/agreements/${pair.agreementId}/price-items`, {
      method: 'POST',
      body: {
        entries: [{ description: 'Copy paper A4', seller_item_id: '1001', price: { type: 'amount', amount: '10.00' } }],
      },
    });
    const run = randomUUID();
    await testDb().workflowRun.create({
      data: { id: run, organizationId: tenant.organizationId, type: 'check', status: 'running' },
    });
    expect((await performCheck(testDb(), tenant.organizationId, run, pair.invoiceId, pair.agreementId)).status).toBe(
      'completed',
    );

    const entries = await timeline(
      tenant,
      `entity_type=invoice&entity_id=${pair.invoiceId}&include_related_alerts=true`,
    );
    expect(entries.find((e) => e.entity_type === 'invoice' && e.action === 'created')!.actor).toMatchObject({
      type: 'api_key',
      user_id: tenant.userId,
      api_key_id: tenant.apiKeyId,
    });
    const matched = entries.find((e) => e.action === 'agreement_matched')!;
    expect(matched.actor.type).toBe('system');
    expect(matched.actor.run_id).toBeTruthy();
    expect(matched.changes.agreement_id).toEqual({ before: null, after: pair.agreementId });
    const agreementSide = await timeline(
      tenant,
      `entity_type=agreement&entity_id=${pair.agreementId}&entry_type=activity`,
    );
    expect(agreementSide.find((e) => e.action === 'invoice_matched')!.changes.invoice_id).toEqual({
      before: null,
      after: pair.invoiceId,
    });
    const checked = entries.find((e) => e.action === 'checked')!;
    expect(checked.actor).toEqual({
      type: 'system',
      user_id: null,
      api_key_id: null,
      run_id: run,
      name: 'System (check)',
    });
    const created = entries.filter((e) => e.entity_type === 'alert' && e.action === 'created');
    expect(created.length).toBe(checked.changes.alert_count.after);
    expect(created.length).toBeGreaterThan(0);
    for (const entry of created) expect(entry.actor.run_id).toBe(run);
  });

  it('show credit notes attached (with the refund recorded from one) and detached on the claim, once each', async () => {
    const tenant = await createTenant();
    const { agreementId, supplier, invoices } = await claimSetup(tenant, [{}]);
    // A refund is in a currency the claim claims: the claim holds a EUR alert.
    const alertId = await alertOn(tenant, invoices[0]!.id, agreementId, { impact_amount: '25.00' });
    const claim = await createClaim(tenant, { agreement_id: agreementId, alerts: { alert_ids: [alertId] } });
    const note = await tenant.call('/v1/invoices', {
      method: 'POST',
      body: {
        document_type: 'credit_note',
        invoice_number: `CN-${randomUUID().slice(0, 8)}`,
        issue_date: '2026-04-02',
        currency_code: 'EUR',
        supplier,
        line_items: [{ description: 'Credit', quantity: '1', unit_price: '25.00', net_amount: '25.00' }],
        amounts: { excluding_vat: '25.00', vat: '0', including_vat: '25.00' },
      },
    });
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    for (let i = 0; i < 2; i++)
      await tenant.call(`/v1/claims/${claim.id}/credit-notes`, {
        method: 'POST',
        body: { invoice_id: note.body.id, create_refund: true },
      });
    for (let i = 0; i < 2; i++)
      expect(
        (await tenant.call(`/v1/claims/${claim.id}/credit-notes/${note.body.id}`, { method: 'DELETE' })).status,
      ).toBe(204);
    const entries = await timeline(tenant, `entity_type=claim&entity_id=${claim.id}&entry_type=activity`);
    expect(
      entries
        .map((e) => e.action)
        .filter((a) => a !== 'created' && a !== 'alerts_added')
        .sort(),
    ).toEqual(['credit_note_attached', 'credit_note_detached', 'refund_added']);
    expect(entries.find((e) => e.action === 'refund_added')!.changes.refund.after).toMatchObject({
      amount: '25.00',
      currency_code: 'EUR',
      credit_note_invoice_id: note.body.id,
    });
    expect(entries[0]).toMatchObject({
      action: 'credit_note_detached',
      changes: { credit_note_invoice_id: { before: note.body.id, after: null } },
    });
  });

  it("answer 404 for another organization's record, and need Read", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const { agreementId, invoices } = await claimSetup(tenant, [{}]);
    const alert = await postAlert(tenant, { invoice_id: invoices[0]!.id, agreement_id: agreementId });
    expectError(await other.call(`/v1/activity?entity_type=alert&entity_id=${alert.id}`), 404, 'not_found');
    expectError(await other.call(`/v1/activity?entity_type=agreement&entity_id=${agreementId}`), 404, 'not_found');
    // The organization timeline holds only one's own entries.
    expect((await timeline(other, 'limit=1000')).filter((e) => e.entity_id === alert.id)).toEqual([]);
    expectError(await tenant.call(`/v1/activity?entity_type=alert`), 400, 'validation_error');
    expectError(
      await tenant.call(`/v1/activity?entity_type=alert&entity_id=${alert.id}&include_related_alerts=true`),
      400,
      'validation_error',
    );
    const readKey = await keyFor(tenant, 'read');
    const read = await call(`/v1/activity?entity_type=alert&entity_id=${alert.id}`, {
      token: readKey,
      organizationId: tenant.organizationId,
    });
    expect(read.status).toBe(200);
    expect(read.body.data.map((e: Json) => e.action)).toEqual(['created']);
    expectError(
      await call('/v1/comments', {
        method: 'POST',
        token: readKey,
        organizationId: tenant.organizationId,
        body: { entity_type: 'alert', entity_id: alert.id, body: 'x' },
      }),
      403,
      'insufficient_level',
    );
  });
});

describe('comments', () => {
  it('appear in the timeline as comments; replies go under a top-level comment, never deeper; only the author edits or deletes; deleting takes the replies', async () => {
    const tenant = await createTenant();
    const mate = await colleague(tenant);
    const { agreementId, invoices } = await claimSetup(tenant, [{}]);
    const alert = await postAlert(tenant, { invoice_id: invoices[0]!.id, agreement_id: agreementId });

    const body = `Ask @[${mate.userId}] about this; @[${randomUUID()}] is nobody here; @[not-an-id] stays text`;
    const posted = await tenant.call('/v1/comments', {
      method: 'POST',
      body: { entity_type: 'alert', entity_id: alert.id, body },
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    expect(posted.headers.get('location')).toBe(`/v1/comments/${posted.body.id}`);
    expect(posted.body).toMatchObject({
      entity_type: 'alert',
      entity_id: alert.id,
      parent_comment_id: null,
      body,
      mentions: [mate.userId],
      reply_count: 0,
      edited_at: null,
      author: { type: 'api_key', user_id: tenant.userId, name: 'Test User' },
    });
    const commentId = posted.body.id;

    const reply = await mate.call('/v1/comments', {
      method: 'POST',
      body: { entity_type: 'alert', entity_id: alert.id, body: 'On it', parent_comment_id: commentId },
    });
    expect(reply.status).toBe(201);
    // Not deeper than one level, not under another record's comment.
    expectError(
      await tenant.call('/v1/comments', {
        method: 'POST',
        body: { entity_type: 'alert', entity_id: alert.id, body: 'x', parent_comment_id: reply.body.id },
      }),
      400,
      'validation_error',
    );
    expectError(
      await tenant.call('/v1/comments', {
        method: 'POST',
        body: { entity_type: 'agreement', entity_id: agreementId, body: 'x', parent_comment_id: commentId },
      }),
      400,
      'validation_error',
    );
    // Topics cannot be commented on; bodies are 1..10,000 characters.
    const topic = (
      await tenant.call('/v1/alert-topics', { method: 'POST', body: { agreement_id: agreementId, title: 'Prices' } })
    ).body;
    expectError(
      await tenant.call('/v1/comments', {
        method: 'POST',
        body: { entity_type: 'topic', entity_id: topic.id, body: 'x' },
      }),
      400,
      'validation_error',
    );
    expectError(
      await tenant.call('/v1/comments', {
        method: 'POST',
        body: { entity_type: 'alert', entity_id: alert.id, body: 'x'.repeat(10_001) },
      }),
      400,
      'validation_error',
    );
    expectError(
      await tenant.call('/v1/comments', {
        method: 'POST',
        body: { entity_type: 'alert', entity_id: alert.id, body: '   ' },
      }),
      400,
      'validation_error',
    );
    expect(
      (
        await tenant.call('/v1/comments', {
          method: 'POST',
          body: {
            entity_type: 'claim',
            entity_id: (await createClaim(tenant, { agreement_id: agreementId })).id,
            body: 'x'.repeat(10_000),
          },
        })
      ).status,
    ).toBe(201);

    // The timeline shows the top-level comment (replies are read under it) alongside activity.
    const entries = await timeline(tenant, `entity_type=alert&entity_id=${alert.id}`);
    expect(entries.map((e) => [e.entry_type, e.action])).toEqual([
      ['comment', 'commented'],
      ['activity', 'created'],
    ]);
    expect(entries[0].comment).toMatchObject({ id: commentId, reply_count: 1, mentions: [mate.userId] });
    expect(entries[0].changes).toBeNull();
    expect(
      (await timeline(tenant, `entity_type=alert&entity_id=${alert.id}&entry_type=activity`)).map((e) => e.action),
    ).toEqual(['created']);
    expect(
      (await timeline(tenant, `entity_type=alert&entity_id=${alert.id}&entry_type=comment`)).map((e) => e.id),
    ).toEqual([commentId]);
    const replies = await tenant.call(`/v1/comments/${commentId}/replies`);
    expect(replies.body.data.map((r: Json) => [r.body, r.author.user_id, r.parent_comment_id])).toEqual([
      ['On it', mate.userId, commentId],
    ]);

    // Only the author changes or deletes a comment.
    expectError(
      await mate.call(`/v1/comments/${commentId}`, { method: 'PATCH', body: { body: 'Hijacked' } }),
      403,
      'not_comment_author',
    );
    expectError(await mate.call(`/v1/comments/${commentId}`, { method: 'DELETE' }), 403, 'not_comment_author');
    const edited = await tenant.call(`/v1/comments/${commentId}`, {
      method: 'PATCH',
      body: { body: 'Ask the supplier' },
    });
    expect(edited.body).toMatchObject({ body: 'Ask the supplier', mentions: [] });
    expect(edited.body.edited_at).not.toBeNull();
    expect((await tenant.call(`/v1/comments/${commentId}`, { method: 'DELETE' })).status).toBe(204);
    expectError(await tenant.call(`/v1/comments/${reply.body.id}`), 404, 'not_found');
    expect(await testDb().comment.count({ where: { id: { in: [commentId, reply.body.id] } } })).toBe(0);
    expect((await timeline(tenant, `entity_type=alert&entity_id=${alert.id}`)).map((e) => e.entry_type)).toEqual([
      'activity',
    ]);
  });

  it('are not found from another organization, nor can be made on its records', async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const { agreementId } = await claimSetup(tenant, [{}]);
    const comment = (
      await tenant.call('/v1/comments', {
        method: 'POST',
        body: { entity_type: 'agreement', entity_id: agreementId, body: 'Mine' },
      })
    ).body;
    expectError(
      await other.call('/v1/comments', {
        method: 'POST',
        body: { entity_type: 'agreement', entity_id: agreementId, body: 'x' },
      }),
      404,
      'not_found',
    );
    expectError(await other.call(`/v1/comments/${comment.id}`), 404, 'not_found');
    expectError(await other.call(`/v1/comments/${comment.id}/replies`), 404, 'not_found');
    expectError(
      await other.call(`/v1/comments/${comment.id}`, { method: 'PATCH', body: { body: 'x' } }),
      404,
      'not_found',
    );
    expectError(await other.call(`/v1/comments/${comment.id}`, { method: 'DELETE' }), 404, 'not_found');
    expectError(
      await other.call('/v1/comments', {
        method: 'POST',
        body: { entity_type: 'agreement', entity_id: agreementId, body: 'x', parent_comment_id: comment.id },
      }),
      404,
      'not_found',
    );
    expect((await tenant.call(`/v1/comments/${comment.id}`)).body.body).toBe('Mine');
  });
});
