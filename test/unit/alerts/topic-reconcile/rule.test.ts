import { describe, expect, it } from 'vitest';
import {
  groupKeyOf,
  planReconcile,
  type ReconcileAlert,
  type ReconcilePlan,
  type ReconcileTopic,
} from '../../../../src/alerts/topic-reconcile/rule.js';

let counter = 0;
function alert(fields: Partial<ReconcileAlert>): ReconcileAlert {
  counter += 1;
  return {
    id: `alert-${counter}`,
    invoiceId: 'inv-1',
    checker: 'price_mismatch',
    status: 'pending',
    topicId: null,
    impactAmount: '10.00',
    currencyCode: 'EUR',
    line: { sellerItemId: '1001', description: 'Copy paper A4' },
    setAside: false,
    ...fields,
  };
}
const topic = (fields: Partial<ReconcileTopic> & { id: string }): ReconcileTopic => ({
  groupKey: null,
  isLocked: false,
  title: 'T',
  description: null,
  ...fields,
});

// Applies a plan the way the service does, to check that a second run changes nothing.
function applied(topics: ReconcileTopic[], alerts: ReconcileAlert[], plan: ReconcilePlan) {
  const next = topics
    .filter((t) => !plan.remove.includes(t.id))
    .map((t) => ({ ...t, ...plan.rewrite.find((r) => r.topicId === t.id) }));
  const placed = new Map<string, string>();
  plan.create.forEach((c, i) => {
    next.push({ id: `new-${i}`, groupKey: c.groupKey, isLocked: false, title: c.title, description: c.description });
    c.alertIds.forEach((id) => placed.set(id, `new-${i}`));
  });
  plan.assign.forEach((a) => a.alertIds.forEach((id) => placed.set(id, a.topicId)));
  const clean = next.map(({ topicId: _drop, ...t }: ReconcileTopic & { topicId?: string }) => t);
  return { topics: clean, alerts: alerts.map((a) => ({ ...a, topicId: placed.get(a.id) ?? a.topicId })) };
}

describe('groupKeyOf', () => {
  it('groups line alerts by checker and item, whole-invoice alerts by checker', () => {
    expect(groupKeyOf(alert({}))).toBe('check:price_mismatch|item:1001');
    expect(groupKeyOf(alert({ line: { sellerItemId: null, description: 'Copy paper, A4' } }))).toBe(
      'check:price_mismatch|item:copypapera4',
    );
    expect(groupKeyOf(alert({ checker: 'totals_mismatch', line: null }))).toBe('check:totals_mismatch');
    expect(groupKeyOf(alert({ checker: null, line: null }))).toBe('user');
    expect(groupKeyOf(alert({ line: { sellerItemId: 'AB-1', description: null } }))).toBe(
      groupKeyOf(alert({ line: { sellerItemId: 'ab 1', description: 'other' } })),
    );
  });
});

describe('planReconcile', () => {
  it('creates one topic per key for uncategorized alerts, with a title and a description from them', () => {
    const alerts = [
      alert({ invoiceId: 'inv-1', impactAmount: '10.00' }),
      alert({ invoiceId: 'inv-2', impactAmount: '2.5', status: 'claimed' }),
      alert({ invoiceId: 'inv-2', status: 'dismissed' }),
      alert({ checker: 'totals_mismatch', line: null, currencyCode: 'SEK', impactAmount: '1' }),
    ];
    const plan = planReconcile([], alerts);
    expect(plan.create).toEqual([
      {
        groupKey: 'check:price_mismatch|item:1001',
        alertIds: [alerts[0]!.id, alerts[1]!.id, alerts[2]!.id],
        title: 'Price mismatch: Copy paper A4 (item 1001)',
        description: '3 alerts on 2 invoices, 2 open; open impact 12.50 EUR.',
      },
      {
        groupKey: 'check:totals_mismatch',
        alertIds: [alerts[3]!.id],
        title: 'Totals mismatch (whole invoice)',
        description: '1 alert on 1 invoice, 1 open; open impact 1.00 SEK.',
      },
    ]);
    expect(plan).toMatchObject({ assign: [], rewrite: [], remove: [] });
  });

  it('puts uncategorized alerts into the existing topic of their key and rewrites its text', () => {
    const existing = topic({
      id: 'topic-1',
      groupKey: 'check:price_mismatch|item:1001',
      title: 'Old',
      description: 'old',
    });
    const inside = alert({ topicId: 'topic-1' });
    const loose = alert({ invoiceId: 'inv-9' });
    const plan = planReconcile([existing], [inside, loose]);
    expect(plan.create).toEqual([]);
    expect(plan.assign).toEqual([{ topicId: 'topic-1', alertIds: [loose.id] }]);
    expect(plan.rewrite).toEqual([
      {
        topicId: 'topic-1',
        title: 'Price mismatch: Copy paper A4 (item 1001)',
        description: '2 alerts on 2 invoices, 2 open; open impact 20.00 EUR.',
      },
    ]);
  });

  it('never rewrites a locked topic, though alerts of its key may join it', () => {
    const locked = topic({
      id: 'locked',
      groupKey: 'check:price_mismatch|item:1001',
      isLocked: true,
      title: 'Paper: ask Anna',
      description: 'mine',
    });
    const loose = alert({});
    const plan = planReconcile([locked], [alert({ topicId: 'locked', checker: 'other' }), loose]);
    expect(plan.assign).toEqual([{ topicId: 'locked', alertIds: [loose.id] }]);
    expect(plan.rewrite).toEqual([]);
    expect(plan.remove).toEqual([]);
  });

  it('leaves alerts where they are once they have a topic: locked, user-made or its own', () => {
    const topics = [
      topic({ id: 'locked', groupKey: 'check:a', isLocked: true }),
      topic({ id: 'user', groupKey: null, title: 'Ask the supplier' }),
      topic({
        id: 'made',
        groupKey: 'check:b',
        title: 'B (whole invoice)',
        description: '1 alert on 1 invoice, 1 open; open impact 10.00 EUR.',
      }),
    ];
    const alerts = [
      alert({ topicId: 'locked' }),
      alert({ topicId: 'user' }),
      alert({ topicId: 'made', checker: 'b', line: null }),
      alert({ topicId: 'made' }),
    ];
    const plan = planReconcile(topics, alerts);
    expect(plan.create).toEqual([]);
    expect(plan.assign).toEqual([]);
    // The rule's own topic is rewritten from all its alerts, a user's move included; its title keeps naming its key.
    expect(plan.rewrite).toEqual([
      {
        topicId: 'made',
        title: 'B (whole invoice)',
        description: '2 alerts on 1 invoice, 2 open; open impact 20.00 EUR.',
      },
    ]);
  });

  it('removes unlocked topics of its own that hold no alert, and keeps every other empty topic', () => {
    const topics = [
      topic({ id: 'empty-made', groupKey: 'check:a' }),
      topic({ id: 'empty-locked', groupKey: 'check:b', isLocked: true }),
      topic({ id: 'empty-user', groupKey: null }),
      topic({ id: 'set-aside-only', groupKey: 'check:c', title: 'kept', description: 'kept' }),
    ];
    const plan = planReconcile(topics, [alert({ topicId: 'set-aside-only', setAside: true })]);
    expect(plan.remove).toEqual(['empty-made']);
    // Set-aside alerts keep their topic and do not reshape its text.
    expect(plan.rewrite).toEqual([]);
  });

  it('does not sort set-aside alerts', () => {
    expect(planReconcile([], [alert({ setAside: true })])).toEqual({ create: [], assign: [], rewrite: [], remove: [] });
  });

  it('joins the oldest of several topics with the same key', () => {
    const loose = alert({});
    const plan = planReconcile(
      [
        topic({ id: 'older', groupKey: 'check:price_mismatch|item:1001' }),
        topic({ id: 'newer', groupKey: 'check:price_mismatch|item:1001' }),
      ],
      [loose],
    );
    expect(plan.assign).toEqual([{ topicId: 'older', alertIds: [loose.id] }]);
    expect(plan.remove).toEqual(['newer']);
  });

  it('is a fixed point: a second run over its own result changes nothing', () => {
    const topics = [
      topic({ id: 'made', groupKey: 'check:price_mismatch|item:1001', title: 'x' }),
      topic({ id: 'stale', groupKey: 'check:gone' }),
      topic({ id: 'user', groupKey: null }),
    ];
    const alerts = [
      alert({}),
      alert({ checker: 'vat', line: null }),
      alert({ checker: null, line: { sellerItemId: null, description: 'Freight' } }),
      alert({ topicId: 'user' }),
      alert({ status: 'credited' }),
    ];
    const first = planReconcile(topics, alerts);
    expect(first.create.length + first.assign.length + first.rewrite.length + first.remove.length).toBeGreaterThan(0);
    const after = applied(topics, alerts, first);
    expect(planReconcile(after.topics, after.alerts)).toEqual({ create: [], assign: [], rewrite: [], remove: [] });
  });

  it('sums open impact per currency and names alerts people recorded', () => {
    const alerts = [
      alert({ checker: null, currencyCode: 'EUR', impactAmount: '0.10' }),
      alert({ checker: null, currencyCode: 'EUR', impactAmount: '0.20' }),
      alert({ checker: null, currencyCode: null, impactAmount: '5' }),
    ];
    const [created] = planReconcile([], alerts).create;
    expect(created).toMatchObject({
      groupKey: 'user|item:1001',
      title: 'Recorded by users: Copy paper A4 (item 1001)',
      description: '3 alerts on 1 invoice, 3 open; open impact 0.30 EUR, 5.00 no currency.',
    });
  });
});
