import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { releaseSignal } from '../../workflows/testing.js';
import { eventually, expectError } from '../support/api.js';
import { importDocument, sample, settledImport, uploadDocument } from '../support/invoices.js';
import { startTestRun, testTemporal } from '../support/runs.js';
import { createTenant, testDb, type Tenant } from '../support/tenants.js';

// The generic run machinery against a real Temporal server, driven by the test-only workflow.

const TERMINAL = ['completed', 'completed_with_errors', 'failed', 'cancelled'];

async function settled(tenant: Tenant, runId: string) {
  const response = await eventually(
    () => tenant.call(`/v1/workflow-runs/${runId}`),
    (r) => TERMINAL.includes(r.body?.status),
  );
  return response.body;
}

async function release(runId: string) {
  await (await testTemporal()).workflow.getHandle(runId).signal(releaseSignal);
}

describe('workflow runs', () => {
  it('runs items to completion and reports progress and results', async () => {
    const tenant = await createTenant();
    const runId = await startTestRun(tenant, {
      items: [
        { key: 'a', behaviour: 'succeed' },
        { key: 'b', behaviour: 'succeed' },
      ],
    });
    const run = await settled(tenant, runId);
    expect(run).toMatchObject({
      id: runId,
      type: 'test_items',
      status: 'completed',
      failure: null,
      retry_of_run_id: null,
      progress: { total: 2, queued: 0, running: 0, completed: 2, failed: 0, cancelled: 0 },
    });
    const items = await tenant.call(`/v1/workflow-runs/${runId}/items`);
    expect(items.body.data.map((i: any) => [i.key, i.status, i.result])).toEqual([
      ['a', 'completed', { done: 'succeed' }],
      ['b', 'completed', { done: 'succeed' }],
    ]);
  });

  it('keeps progress.total null while the run is still finding its work', async () => {
    const tenant = await createTenant();
    const runId = await startTestRun(tenant, { items: [{ key: 'a', behaviour: 'succeed' }], holdUntilReleased: true });
    const running = await eventually(
      () => tenant.call(`/v1/workflow-runs/${runId}`),
      (r) => r.body.status === 'running' && r.body.progress.queued === 1,
    );
    expect(running.body.progress.total).toBeNull();
    await release(runId);
    expect((await settled(tenant, runId)).progress.total).toBe(1);
  });

  it('ends completed_with_errors when some items fail, failed when all do', async () => {
    const tenant = await createTenant();
    const mixed = await startTestRun(tenant, {
      items: [
        { key: 'ok', behaviour: 'succeed' },
        { key: 'bad', behaviour: 'fail' },
      ],
    });
    const allBad = await startTestRun(tenant, { items: [{ key: 'bad', behaviour: 'fail' }] });
    expect((await settled(tenant, mixed)).status).toBe('completed_with_errors');
    const failed = await settled(tenant, allBad);
    expect(failed.status).toBe('failed');
    expect(failed.failure).toMatchObject({ code: 'all_items_failed' });
    const items = await tenant.call(`/v1/workflow-runs/${mixed}/items?statuses=failed`);
    expect(items.body.data).toHaveLength(1);
    expect(items.body.data[0].failure.message).toContain('test item failed');
    // Temporal agrees: the workflow of a failed run failed too.
    const description = await (await testTemporal()).workflow.getHandle(allBad).describe();
    expect(description.status.name).toBe('FAILED');
  });

  it('cancels a run; finished runs cannot be cancelled', async () => {
    const tenant = await createTenant();
    const runId = await startTestRun(tenant, { items: [{ key: 'a', behaviour: 'succeed' }], holdUntilReleased: true });
    await eventually(
      () => tenant.call(`/v1/workflow-runs/${runId}`),
      (r) => r.body.status === 'running',
    );
    const cancelled = await tenant.call(`/v1/workflow-runs/${runId}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(cancelled.body.progress).toMatchObject({ cancelled: 1, queued: 0 });
    const again = await tenant.call(`/v1/workflow-runs/${runId}/cancel`, { method: 'POST' });
    expectError(again, 409, 'run_already_finished');
    expect(again.body.error.message).toContain('cancelled');
    // The workflow saw the cancellation and stopped: Temporal and the API agree.
    await eventually(
      () => testTemporal().then((t) => t.workflow.getHandle(runId).describe()),
      (d) => d.status.name === 'CANCELLED',
    );
    expect((await tenant.call(`/v1/workflow-runs/${runId}`)).body.status).toBe('cancelled');
  });

  it('answers 409 naming how a run finished when it finished before the cancel', async () => {
    const tenant = await createTenant();
    const runId = await startTestRun(tenant, { items: [{ key: 'a', behaviour: 'succeed' }] });
    await settled(tenant, runId);
    const response = await tenant.call(`/v1/workflow-runs/${runId}/cancel`, { method: 'POST' });
    expectError(response, 409, 'run_already_finished');
    expect(response.body.error.message).toContain('completed');
    expect((await tenant.call(`/v1/workflow-runs/${runId}`)).body.status).toBe('completed');
  });

  it('keeps a cancelled run cancelled while its running item finishes with its result', async () => {
    const tenant = await createTenant();
    // The workflow ignores the cancellation and runs its finishing steps: they must not
    // overwrite the decision the cancel answered with.
    const runId = await startTestRun(tenant, {
      items: [
        { key: 'running', behaviour: 'brief' },
        { key: 'queued', behaviour: 'succeed' },
      ],
      ignoreCancellation: true,
    });
    await eventually(
      () => tenant.call(`/v1/workflow-runs/${runId}`),
      (r) => r.body.progress?.running === 1,
    );
    const cancelled = await tenant.call(`/v1/workflow-runs/${runId}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    const temporal = await testTemporal();
    await eventually(
      () => temporal.workflow.getHandle(runId).describe(),
      (d) => d.status.name === 'COMPLETED',
    );
    const run = (await tenant.call(`/v1/workflow-runs/${runId}`)).body;
    expect(run.status).toBe('cancelled');
    expect(run.progress).toMatchObject({ total: 2, completed: 1, cancelled: 1, queued: 0, running: 0 });
    const items = (await tenant.call(`/v1/workflow-runs/${runId}/items`)).body.data;
    expect(items.map((i: any) => [i.key, i.status, i.result])).toEqual([
      ['running', 'completed', { done: 'brief' }],
      ['queued', 'cancelled', null],
    ]);
  });

  it('cancels a run whose workflow has not reached its work; nothing is worked on', async () => {
    const tenant = await createTenant();
    const runId = await startTestRun(tenant, {
      items: [{ key: 'a', behaviour: 'succeed' }],
      ignoreCancellation: true,
      holdUntilReleased: true,
    });
    await eventually(
      () => tenant.call(`/v1/workflow-runs/${runId}`),
      (r) => r.body.progress?.queued === 1,
    );
    expect((await tenant.call(`/v1/workflow-runs/${runId}/cancel`, { method: 'POST' })).body.status).toBe('cancelled');
    await release(runId);
    await eventually(
      () => testTemporal().then((t) => t.workflow.getHandle(runId).describe()),
      (d) => d.status.name === 'COMPLETED',
    );
    const run = (await tenant.call(`/v1/workflow-runs/${runId}`)).body;
    expect(run).toMatchObject({ status: 'cancelled', progress: { total: 1, completed: 0, cancelled: 1 } });
  });

  it('cancels imports truthfully: 200 means the run ends cancelled, 409 names how it finished', async () => {
    const tenant = await createTenant();
    const bytes = sample('peppol-bis3/peppol-base-example.xml');
    const answers: number[] = [];
    // Cancels at different moments of an import (right away, after a short wait): whichever
    // wins, the status code and the run's final status agree.
    for (const delayMs of [0, 0, 50, 150, 400]) {
      const imported = await importDocument(tenant, await uploadDocument(tenant, 'invoice.xml', bytes));
      expect(imported.status).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const runId = imported.body.workflow_run_id;
      const response = await tenant.call(`/v1/workflow-runs/${runId}/cancel`, { method: 'POST' });
      answers.push(response.status);
      const final = await settled(tenant, runId);
      if (response.status === 200) {
        expect(response.body.status).toBe('cancelled');
        expect(final.status).toBe('cancelled');
        expect((await settledImport(tenant, imported.body.id)).status).toBe('cancelled');
      } else {
        expectError(response, 409, 'run_already_finished');
        expect(response.body.error.message).toContain(final.status);
      }
      // Temporal has closed the workflow, and the run still says what the client was told.
      await eventually(
        () => testTemporal().then((t) => t.workflow.getHandle(runId).describe()),
        (d) => d.status.name !== 'RUNNING',
      );
      expect((await tenant.call(`/v1/workflow-runs/${runId}`)).body.status).toBe(final.status);
    }
    expect(answers.every((status) => status === 200 || status === 409)).toBe(true);
  });

  it('cancels selected items; the others finish', async () => {
    const tenant = await createTenant();
    const runId = await startTestRun(tenant, {
      items: [
        { key: 'keep', behaviour: 'succeed' },
        { key: 'drop', behaviour: 'succeed' },
      ],
      holdUntilReleased: true,
    });
    const items = await eventually(
      () => tenant.call(`/v1/workflow-runs/${runId}/items`),
      (r) => r.body.data?.length === 2,
    );
    const drop = items.body.data.find((i: any) => i.key === 'drop');
    const response = await tenant.call(`/v1/workflow-runs/${runId}/cancel`, {
      method: 'POST',
      body: { item_ids: [drop.id] },
    });
    expect(response.status).toBe(200);
    expectError(
      await tenant.call(`/v1/workflow-runs/${runId}/cancel`, {
        method: 'POST',
        body: { item_ids: [crypto.randomUUID()] },
      }),
      400,
      'validation_error',
    );
    await release(runId);
    const run = await settled(tenant, runId);
    expect(run.status).toBe('completed');
    expect(run.progress).toMatchObject({ completed: 1, cancelled: 1 });
  });

  it('retries a failed run as a new linked run, once', async () => {
    const tenant = await createTenant();
    const runId = await startTestRun(tenant, { items: [{ key: 'a', behaviour: 'succeed' }], failRun: true });
    const failed = await settled(tenant, runId);
    expect(failed.status).toBe('failed');
    expect(failed.failure.message).toContain('failed as asked');

    const retry = await tenant.call(`/v1/workflow-runs/${runId}/retry`, { method: 'POST' });
    expect(retry.status).toBe(202);
    expect(retry.body.retry_of_run_id).toBe(runId);
    expect(retry.body.id).not.toBe(runId);
    expect(retry.body.workflow_run_id).toBe(retry.body.id);
    expect(retry.headers.get('location')).toBe(`/v1/workflow-runs/${retry.body.id}`);
    const again = await tenant.call(`/v1/workflow-runs/${runId}/retry`, { method: 'POST' });
    expect(again.body.id).toBe(retry.body.id);
    // The new run carries the same input; the test workflow fails a run only on its first attempt
    // number, and a new run starts at attempt 1 again, so it fails the same way.
    expect((await settled(tenant, retry.body.id)).status).toBe('failed');

    const ok = await startTestRun(tenant, { items: [{ key: 'a', behaviour: 'succeed' }] });
    await settled(tenant, ok);
    expectError(await tenant.call(`/v1/workflow-runs/${ok}/retry`, { method: 'POST' }), 409, 'run_not_retryable');
  });

  it('retries only imports, checks and syncs; other run types answer 409 run_type_not_retryable', async () => {
    const tenant = await createTenant();
    const agreement = await tenant.call('/v1/agreements', { method: 'POST', body: { title: 'Retry rules' } });
    expect(agreement.status).toBe(201);
    const refresh = await tenant.call(`/v1/agreements/${agreement.body.id}/invoices/refresh`, { method: 'POST' });
    expect(refresh.status).toBe(202);
    const refreshRun = refresh.body.workflow_run_id;
    const reconcile = await tenant.call(`/v1/agreements/${agreement.body.id}/alert-topics/reconcile`, {
      method: 'POST',
    });
    expect(reconcile.status).toBe(202);
    for (const runId of [refreshRun, reconcile.body.workflow_run_id]) {
      await settled(tenant, runId);
      const response = await tenant.call(`/v1/workflow-runs/${runId}/retry`, { method: 'POST' });
      expectError(response, 409, 'run_type_not_retryable');
      expect(response.body.error.message).toMatch(/only failed import, check and sync runs/);
    }
    // Failed or not, the type decides: a refresh stopped in Temporal (failed) is not retried either.
    const second = await tenant.call(`/v1/agreements/${agreement.body.id}/invoices/refresh`, { method: 'POST' });
    await testTemporal()
      .then((t) => t.workflow.getHandle(second.body.workflow_run_id).terminate('operator stopped it'))
      .catch(() => undefined);
    const stopped = await settled(tenant, second.body.workflow_run_id);
    expectError(
      await tenant.call(`/v1/workflow-runs/${second.body.workflow_run_id}/retry`, { method: 'POST' }),
      409,
      'run_type_not_retryable',
    );
    expect(
      await testDb().workflowRun.count({
        where: { organizationId: tenant.organizationId, retryOfRunId: { not: null } },
      }),
    ).toBe(0);
    expect(['completed', 'failed']).toContain(stopped.status);
  });

  it('resumes a failed resumable run under the same id, keeping finished items', async () => {
    const tenant = await createTenant();
    const runId = await startTestRun(
      tenant,
      { items: [{ key: 'a', behaviour: 'fail_on_first_attempt' }] },
      'test_resumable',
    );
    expect((await settled(tenant, runId)).status).toBe('failed');
    const resumed = await tenant.call(`/v1/workflow-runs/${runId}/retry`, { method: 'POST' });
    expect(resumed.status).toBe(202);
    expect(resumed.body.id).toBe(runId);
    const run = await settled(tenant, runId);
    expect(run).toMatchObject({ status: 'completed', attempt: 2, failure: null, retry_of_run_id: null });
    expect(run.progress).toMatchObject({ total: 1, completed: 1, failed: 0 });
  });

  it('shows a workflow terminated or cancelled in Temporal UI as such', async () => {
    const tenant = await createTenant();
    const temporal = await testTemporal();
    const terminated = await startTestRun(tenant, {
      items: [{ key: 'a', behaviour: 'succeed' }],
      holdUntilReleased: true,
    });
    const cancelled = await startTestRun(tenant, {
      items: [{ key: 'a', behaviour: 'succeed' }],
      holdUntilReleased: true,
    });
    await eventually(
      () => tenant.call(`/v1/workflow-runs/${cancelled}`),
      (r) => r.body.status === 'running',
    );
    await temporal.workflow.getHandle(terminated).terminate('operator stopped it');
    await temporal.workflow.getHandle(cancelled).cancel();
    const t = await settled(tenant, terminated);
    expect(t.status).toBe('failed');
    expect(t.failure.code).toBe('workflow_terminated');
    expect(t.progress.queued + t.progress.running).toBe(0);
    expect((await settled(tenant, cancelled)).status).toBe('cancelled');
  });

  it('starts the workflow of a run whose API stopped before starting it; a day later it fails the run instead', async () => {
    // As an API killed between writing a run's row and starting its workflow leaves it (the
    // scale-out test, test/crash/scale-out.test.ts, kills one under load).
    const tenant = await createTenant();
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const input = { items: [{ key: 'a', behaviour: 'succeed' }] };
    const row = (id: string, createdAt: Date) => ({
      id,
      organizationId: tenant.organizationId,
      type: 'test_items',
      input,
      createdAt,
    });
    const [orphan, fresh, stale] = [randomUUID(), randomUUID(), randomUUID()];
    await testDb().workflowRun.createMany({
      data: [row(orphan, minutesAgo(2)), row(fresh, minutesAgo(0)), row(stale, minutesAgo(25 * 60))],
    });

    // Within the first minute the API that wrote it may still be starting it: left as it is.
    expect((await tenant.call(`/v1/workflow-runs/${fresh}`)).body.status).toBe('queued');
    await expect((await testTemporal()).workflow.getHandle(fresh).describe()).rejects.toThrow();
    expect(await settled(tenant, orphan)).toMatchObject({ status: 'completed', progress: { completed: 1 } });
    expect(await settled(tenant, stale)).toMatchObject({ status: 'failed', failure: { code: 'workflow_not_found' } });
  });
});

describe('workflow run lists', () => {
  it('lists newest first, filters, and pages each run exactly once while runs are added', async () => {
    const tenant = await createTenant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await startTestRun(tenant, { items: [] }));
    const first = await tenant.call('/v1/workflow-runs?limit=2&types=test_items');
    expect(first.body.data.map((r: any) => r.id)).toEqual([ids[4], ids[3]]);
    const added = await startTestRun(tenant, { items: [] });
    const seen = [...first.body.data.map((r: any) => r.id)];
    let cursor = first.body.next_cursor;
    while (cursor) {
      const page = await tenant.call(`/v1/workflow-runs?limit=2&types=test_items&cursor=${encodeURIComponent(cursor)}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((r: any) => r.id));
      cursor = page.body.next_cursor;
    }
    expect(seen).toEqual([...ids].reverse());
    expect(seen).not.toContain(added);

    const cursorOfOtherFilters = (await tenant.call('/v1/workflow-runs?limit=1&types=test_items')).body.next_cursor;
    expectError(
      await tenant.call(`/v1/workflow-runs?limit=1&cursor=${encodeURIComponent(cursorOfOtherFilters)}`),
      400,
      'validation_error',
    );
    expectError(
      await tenant.call(
        `/v1/workflow-runs?limit=1&direction=asc&types=test_items&cursor=${encodeURIComponent(cursorOfOtherFilters)}`,
      ),
      400,
      'validation_error',
    );
    expectError(await tenant.call('/v1/workflow-runs?cursor=forged.cursor'), 400, 'validation_error');

    const created = await Promise.all(
      ids.map(async (id) => (await tenant.call(`/v1/workflow-runs/${id}`)).body.created_at as string),
    );
    const window = await tenant.call(
      `/v1/workflow-runs?types=test_items&created_from=${created[1]}&created_before=${created[3]}`,
    );
    expect(window.body.data.map((r: any) => r.id)).toEqual([ids[2], ids[1]]);
    expectError(await tenant.call('/v1/workflow-runs?created_from=yesterday'), 400, 'validation_error');

    await Promise.all(ids.map((id) => settled(tenant, id)));
    const completed = await tenant.call(
      `/v1/workflow-runs?statuses=completed&owner_type=test&owner_ids=${tenant.organizationId}&fields=status,progress.total`,
    );
    expect(completed.body.data.length).toBeGreaterThanOrEqual(5);
    expect(completed.body.data[0]).toEqual({ id: expect.any(String), status: 'completed', progress: { total: 0 } });
  });
});

describe('conditional requests and idempotency', () => {
  it('sends an ETag and answers 412 when If-Match does not match', async () => {
    const tenant = await createTenant();
    const runId = await startTestRun(tenant, { items: [{ key: 'a', behaviour: 'succeed' }], holdUntilReleased: true });
    const read = await eventually(
      () => tenant.call(`/v1/workflow-runs/${runId}`),
      (r) => r.body.status === 'running' && r.body.progress.queued === 1,
    );
    const etag = read.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expectError(
      await tenant.call(`/v1/workflow-runs/${runId}/cancel`, { method: 'POST', headers: { 'If-Match': '"stale"' } }),
      412,
      'precondition_failed',
    );
    expect((await tenant.call(`/v1/workflow-runs/${runId}`)).body.status).toBe('running');
    const cancelled = await tenant.call(`/v1/workflow-runs/${runId}/cancel`, {
      method: 'POST',
      headers: { 'If-Match': etag },
    });
    expect(cancelled.body.status).toBe('cancelled');
  });

  it('replays the first response for a repeated Idempotency-Key and refuses it for another request', async () => {
    const tenant = await createTenant();
    const [a, b] = [
      await startTestRun(tenant, { items: [], failRun: true }),
      await startTestRun(tenant, { items: [], failRun: true }),
    ];
    await settled(tenant, a);
    await settled(tenant, b);
    const key = { 'Idempotency-Key': `retry-${a}` };
    const first = await tenant.call(`/v1/workflow-runs/${a}/retry`, { method: 'POST', headers: key });
    const repeat = await tenant.call(`/v1/workflow-runs/${a}/retry`, { method: 'POST', headers: key });
    expect(repeat.status).toBe(202);
    expect(repeat.body).toEqual(first.body);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expectError(
      await tenant.call(`/v1/workflow-runs/${b}/retry`, { method: 'POST', headers: key }),
      409,
      'idempotency_key_reused',
    );
    // Keys are per organization: another organization may use the same key.
    const other = await createTenant();
    const otherRun = await startTestRun(other, { items: [], failRun: true });
    await settled(other, otherRun);
    expect((await other.call(`/v1/workflow-runs/${otherRun}/retry`, { method: 'POST', headers: key })).status).toBe(
      202,
    );
  });
});
