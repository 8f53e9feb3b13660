// The topic reconcile rule (pure; docs/topics-and-suggestions.md). It sorts one agreement's alerts
// into topics and returns the changes; applying them and then running the rule again yields no
// changes (the rule is a fixed point), which is what makes the reconcile activity idempotent.
//
//   1. Grouping key: `check:<checker>` (or `user` for alerts people recorded), plus
//      `|item:<seller item id, else description, folded>` when the alert is on a line naming one.
//   2. Only uncategorized alerts move: each goes to the topic carrying its key (the oldest, if
//      several), a new topic when there is none. Alerts already in a topic -- locked, made by a
//      user or made by this rule -- stay where they are, so a user's move is never undone.
//   3. Texts: every unlocked topic this rule made (groupKey set) gets its title and description
//      rewritten from its alerts; locked topics and user-made topics are never rewritten. New
//      alerts may join a locked topic of their key (locking keeps the text, not the membership).
//   4. An unlocked topic made by this rule that holds no alert at all is removed.
//   Alerts that are set aside (the match ended or the invoice was deleted) are not sorted and
//   do not shape texts, but they keep their topic, and a topic holding one is not empty.
import { Decimal } from 'decimal.js';
import { formatAmount } from '../../shared/money.js';
import { compactItem, itemKeyOf } from '../../agreements/context-suggestions/directives.js';

export interface ReconcileAlert {
  id: string;
  invoiceId: string;
  checker: string | null;
  status: 'pending' | 'claimed' | 'credited' | 'dismissed';
  topicId: string | null;
  impactAmount: string;
  currencyCode: string | null;
  // The flagged line, null for whole-invoice alerts.
  line: { sellerItemId: string | null; description: string | null } | null;
  // The match ended or the invoice was deleted (docs/alerts.md).
  setAside: boolean;
}

export interface ReconcileTopic {
  id: string;
  groupKey: string | null;
  isLocked: boolean;
  title: string;
  description: string | null;
}

export interface TopicText {
  title: string;
  description: string;
}

export interface ReconcilePlan {
  create: (TopicText & { groupKey: string; alertIds: string[] })[];
  // Uncategorized alerts into existing topics.
  assign: { topicId: string; alertIds: string[] }[];
  // Only texts that change.
  rewrite: (TopicText & { topicId: string })[];
  remove: string[];
}

const OPEN_STATUSES = new Set(['pending', 'claimed']);

export function groupKeyOf(alert: Pick<ReconcileAlert, 'checker' | 'line'>): string {
  const kind = alert.checker ? `check:${alert.checker}` : 'user';
  const item = compactItem(itemKeyOf(alert.line));
  return item ? `${kind}|item:${item}` : kind;
}

function humanized(checker: string): string {
  const words = checker.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function titleFor(sample: ReconcileAlert): string {
  const head = sample.checker ? humanized(sample.checker) : 'Recorded by users';
  const line = sample.line;
  if (line?.description?.trim() && line.sellerItemId?.trim())
    return `${head}: ${line.description.trim()} (item ${line.sellerItemId.trim()})`;
  if (line?.description?.trim()) return `${head}: ${line.description.trim()}`;
  if (line?.sellerItemId?.trim()) return `${head}: item ${line.sellerItemId.trim()}`;
  return `${head} (whole invoice)`;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function descriptionFor(alerts: ReconcileAlert[]): string {
  const invoices = new Set(alerts.map((a) => a.invoiceId)).size;
  const open = alerts.filter((a) => OPEN_STATUSES.has(a.status));
  const head = `${plural(alerts.length, 'alert')} on ${plural(invoices, 'invoice')}`;
  if (open.length === 0) return `${head}, none open.`;
  const byCurrency = new Map<string, Decimal>();
  for (const alert of open) {
    const currency = alert.currencyCode ?? 'no currency';
    byCurrency.set(currency, (byCurrency.get(currency) ?? new Decimal(0)).plus(alert.impactAmount));
  }
  const impact = [...byCurrency.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, amount]) => `${formatAmount(amount)} ${currency}`)
    .join(', ');
  return `${head}, ${open.length} open; open impact ${impact}.`;
}

// The text of a topic from its alerts: the title names the key's checker and item (from the first
// alert of that key, else the first alert), the description counts and sums.
export function textFor(groupKey: string, alerts: ReconcileAlert[]): TopicText {
  const sample = alerts.find((a) => groupKeyOf(a) === groupKey) ?? alerts[0]!;
  return { title: titleFor(sample), description: descriptionFor(alerts) };
}

function groupBy<T>(values: T[], key: (value: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const value of values) {
    const k = key(value);
    const group = groups.get(k);
    if (group) group.push(value);
    else groups.set(k, [value]);
  }
  return groups;
}

/** Alerts and topics in a stable order (oldest first); the plan follows that order. */
export function planReconcile(topics: ReconcileTopic[], alerts: ReconcileAlert[]): ReconcilePlan {
  const topicOfKey = new Map<string, ReconcileTopic>();
  for (const topic of topics)
    if (topic.groupKey !== null && !topicOfKey.has(topic.groupKey)) topicOfKey.set(topic.groupKey, topic);

  const toSort = alerts.filter((a) => !a.setAside && a.topicId === null);
  const plan: ReconcilePlan = { create: [], assign: [], rewrite: [], remove: [] };
  const byTopic = groupBy(
    alerts.filter((a) => a.topicId !== null),
    (a) => a.topicId!,
  );
  const membership = new Map<string, ReconcileAlert[]>(topics.map((t) => [t.id, byTopic.get(t.id) ?? []]));

  for (const [groupKey, group] of groupBy(toSort, groupKeyOf)) {
    const ids = group.map((a) => a.id);
    const topic = topicOfKey.get(groupKey);
    if (topic) {
      plan.assign.push({ topicId: topic.id, alertIds: ids });
      membership.get(topic.id)!.push(...group);
    } else {
      plan.create.push({ groupKey, alertIds: ids, ...textFor(groupKey, group) });
    }
  }

  for (const topic of topics) {
    if (topic.isLocked || topic.groupKey === null) continue;
    const members = membership.get(topic.id)!;
    if (members.length === 0) {
      plan.remove.push(topic.id);
      continue;
    }
    const shaping = members.filter((a) => !a.setAside);
    if (shaping.length === 0) continue;
    const text = textFor(topic.groupKey, shaping);
    if (text.title !== topic.title || text.description !== topic.description)
      plan.rewrite.push({ topicId: topic.id, ...text });
  }
  return plan;
}
