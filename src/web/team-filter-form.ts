import type { OperationCaller } from './operations.js';
import type { Texts } from './texts/index.js';

// The team filter as a plain HTML form (no script needed): the API's definition
// {schema_version: 1, root: {combinator, children}} (docs/teams.md) drawn as nested fieldsets,
// read back from flat field names. Each node's name carries its path of child indexes:
//   root.combinator                   the root group's and/or
//   n.0.field, n.0.op, n.0.value      a condition, the root's first child
//   n.1.combinator, n.1.0.field ...   a group (second child of the root) and its first condition
// Buttons named `do` change the shape: add:<group path>, group:<group path>, remove:<node path>
// ('' is the root). Rules stay the API's: the form sends what was filled in and shows the API's
// refusal at the field it names.

export interface DraftCondition {
  kind: 'condition';
  field: string;
  op: string;
  value: string;
}
export interface DraftGroup {
  kind: 'group';
  combinator: string;
  children: DraftNode[];
}
export type DraftNode = DraftCondition | DraftGroup;

export interface FieldError {
  field: string;
  message: string;
}

type TeamTexts = Texts['teams'];

// The filter's fields (their labels: `t.teams.fields[value]`).
export const FILTER_FIELDS = [
  { value: 'supplier.id', kind: 'reference' },
  { value: 'recipient.id', kind: 'reference' },
  { value: 'agreement.id', kind: 'reference' },
  { value: 'agreement.tag', kind: 'reference' },
  { value: 'supplier.country', kind: 'text' },
  { value: 'invoice.currency', kind: 'text' },
  { value: 'invoice.reference', kind: 'text' },
  { value: 'invoice.delivery_address', kind: 'text' },
  { value: 'invoice.amount', kind: 'number' },
  { value: 'invoice.issued_date', kind: 'date' },
  { value: 'agreement.expiration_date', kind: 'date' },
] as const;

// Every operator of the API, grouped by the kind of field it applies to (the API refuses a
// combination that does not fit, and the form shows that at the operator). Labels:
// `t.teams.opGroups[group]` and `t.teams.ops[op]`.
export const FILTER_OPS = [
  { group: 'text', ops: ['is', 'is_not', 'is_any_of', 'is_none_of', 'contains', 'not_contains'] },
  { group: 'amounts', ops: ['eq', 'gt', 'gte', 'lt', 'lte'] },
  { group: 'dates', ops: ['on', 'before', 'on_or_before', 'after', 'on_or_after', 'within'] },
] as const;

// The fields and operators with their labels in the request's language, for the form.
export function labelledFilterChoices(t: TeamTexts) {
  return {
    fields: FILTER_FIELDS.map((field) => ({ ...field, label: t.fields[field.value] })),
    opGroups: FILTER_OPS.map((group) => ({
      label: t.opGroups[group.group],
      ops: group.ops.map((op) => ({ value: op, label: t.ops[op] })),
    })),
  };
}

export const RELATIVE_DATES = [
  'last_30_days',
  'last_90_days',
  'last_365_days',
  'expiring_30_days',
  'expiring_60_days',
  'expiring_90_days',
] as const;

const LIST_OPS = new Set(['is_any_of', 'is_none_of']);
const MAX_DEPTH = 3;
const MAX_NODES = 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const emptyCondition = (): DraftCondition => ({ kind: 'condition', field: 'supplier.id', op: 'is', value: '' });
export const emptyRoot = (): DraftGroup => ({ kind: 'group', combinator: 'and', children: [] });

const text = (value: unknown): string => {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.slice(0, 5000) : '';
};

// The body parser reads dotted names as nested objects (n.0.field -> {n: [{field}]}): back to the
// dotted names. A repeated field (an array of strings) stays one value.
function flatten(value: unknown, prefix: string, out: Record<string, unknown>, budget = { left: 2000 }): void {
  if (--budget.left < 0) return;
  const leaf =
    !value || typeof value !== 'object' || (Array.isArray(value) && value.every((v) => typeof v !== 'object'));
  if (leaf) {
    out[prefix] = value;
    return;
  }
  for (const [key, inner] of Object.entries(value as Record<string, unknown>))
    flatten(inner, prefix ? `${prefix}.${key}` : key, out, budget);
}

// The form's fields back into a tree (children in index order; gaps closed).
export function readDraft(raw: Record<string, unknown>): DraftGroup {
  const body: Record<string, unknown> = {};
  flatten(raw, '', body);
  const root = emptyRoot();
  root.combinator = text(body['root.combinator']) || 'and';
  const nodes = new Map<string, Record<string, string>>();
  for (const [key, value] of Object.entries(body)) {
    const match = /^n\.((?:\d{1,2}\.){0,2}\d{1,2})\.(kind|combinator|field|op|value)$/.exec(key);
    if (!match) continue;
    const props = nodes.get(match[1]!) ?? {};
    props[match[2]!] = text(value);
    nodes.set(match[1]!, props);
    if (nodes.size > MAX_NODES) break;
  }
  const byIndex = (a: string, b: string) => {
    const x = a.split('.').map(Number);
    const y = b.split('.').map(Number);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return x.length - y.length;
  };
  const placed = new Map<string, DraftGroup>([['', root]]);
  for (const path of [...nodes.keys()].sort(byIndex)) {
    const props = nodes.get(path)!;
    const parentPath = path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '';
    const parent = placed.get(parentPath);
    if (!parent) continue;
    if (props.kind === 'group') {
      const group: DraftGroup = { kind: 'group', combinator: props.combinator || 'and', children: [] };
      parent.children.push(group);
      placed.set(path, group);
    } else {
      parent.children.push({
        kind: 'condition',
        field: props.field ?? '',
        op: props.op ?? '',
        value: props.value ?? '',
      });
    }
  }
  return root;
}

function nodeAt(root: DraftGroup, path: string): DraftNode | null {
  let node: DraftNode = root;
  for (const part of path === '' ? [] : path.split('.')) {
    if (node.kind !== 'group') return null;
    const next: DraftNode | undefined = node.children[Number(part)];
    if (!next) return null;
    node = next;
  }
  return node;
}

// A change of shape asked by a `do` button; anything else (save, count) leaves the tree as it is.
export function applyShapeChange(root: DraftGroup, change: string): DraftGroup {
  const [verb, path = ''] = change.split(':');
  if (verb === 'remove' && path !== '') {
    const parentPath = path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '';
    const parent = nodeAt(root, parentPath);
    if (parent?.kind === 'group') parent.children.splice(Number(path.split('.').pop()), 1);
    return root;
  }
  const group = nodeAt(root, path);
  if (group?.kind !== 'group') return root;
  const depth = path === '' ? 1 : path.split('.').length + 1;
  if (verb === 'add') group.children.push(emptyCondition());
  if (verb === 'group' && depth < MAX_DEPTH)
    group.children.push({ kind: 'group', combinator: 'or', children: [emptyCondition()] });
  return root;
}

// Without blank conditions and the groups they leave empty: what a count looks at while one edits.
export function withoutBlanks(group: DraftGroup): DraftGroup {
  const children: DraftNode[] = [];
  for (const child of group.children) {
    if (child.kind === 'condition') {
      if (child.value.trim() !== '') children.push(child);
    } else {
      const inner = withoutBlanks(child);
      if (inner.children.length > 0) children.push(inner);
    }
  }
  return { ...group, children };
}

export const conditionCount = (group: DraftGroup): number =>
  group.children.reduce((n, child) => n + (child.kind === 'condition' ? 1 : conditionCount(child)), 0);

// ---------------------------------------------------------------------------------------------
// Names of records in reference conditions

export type ReferenceField = 'supplier.id' | 'recipient.id' | 'agreement.id' | 'agreement.tag';
const REFERENCE_FIELDS = new Set<string>(['supplier.id', 'recipient.id', 'agreement.id', 'agreement.tag']);
const isReference = (field: string): field is ReferenceField => REFERENCE_FIELDS.has(field);

// Records whose name is exactly the text (case-insensitive), through the API's own lists.
export async function namedRecords(call: OperationCaller, field: ReferenceField, name: string): Promise<string[]> {
  const exact = (rows: { id: string; name: string | null }[]) =>
    rows.filter((row) => (row.name ?? '').toLowerCase() === name.toLowerCase()).map((row) => row.id);
  const query = { search: name, limit: '100' };
  switch (field) {
    case 'supplier.id':
      return exact((await call('listSuppliers', { query })).data);
    case 'recipient.id':
      return exact((await call('listRecipients', { query })).data);
    case 'agreement.id':
      return exact((await call('listAgreements', { query })).data.map((row) => ({ id: row.id, name: row.title })));
    case 'agreement.tag':
      // Tags have no search: the first 100 by name.
      return exact((await call('listAgreementTags', { query: { limit: '100', sort: 'name' } })).data);
  }
}

const values = (condition: DraftCondition): string[] =>
  LIST_OPS.has(condition.op)
    ? condition.value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
    : [condition.value.trim()];

// The draft as the API's definition (null without conditions: a team without a filter matches
// nothing). Names in reference conditions become ids; a name that names no record, or several,
// is an error at its field (nothing is guessed), in the words of `t`.
export async function toDefinition(
  call: OperationCaller,
  draft: DraftGroup,
  t: TeamTexts,
): Promise<{ filter: unknown; errors: FieldError[] }> {
  if (conditionCount(draft) === 0) return { filter: null, errors: [] };
  // First the names to look up (each once), then the tree with their ids.
  const lookups = new Map<string, Promise<string[]>>();
  const collect = (group: DraftGroup) => {
    for (const child of group.children) {
      if (child.kind === 'group') collect(child);
      else if (isReference(child.field))
        for (const value of values(child))
          if (value !== '' && !UUID.test(value) && lookups.size < 40)
            lookups.set(`${child.field}|${value}`, namedRecords(call, child.field, value));
    }
  };
  collect(draft);
  const found = new Map<string, string[]>();
  await Promise.all([...lookups].map(async ([key, ids]) => found.set(key, await ids)));
  const errors: FieldError[] = [];
  const convert = (group: DraftGroup, path: string): Record<string, unknown> => ({
    combinator: group.combinator,
    children: group.children.map((child, index) => {
      const childPath = path === '' ? String(index) : `${path}.${index}`;
      if (child.kind === 'group') return convert(child, childPath);
      const resolved = values(child).map((value) => {
        const ids = isReference(child.field) ? found.get(`${child.field}|${value}`) : undefined;
        if (!ids) return value;
        if (ids.length === 1) return ids[0]!;
        const field = child.field as ReferenceField;
        errors.push({
          field: `n.${childPath}.value`,
          message: ids.length === 0 ? t.noneNamed(field, value) : t.severalNamed(field, value, ids.length),
        });
        return value;
      });
      return { field: child.field, op: child.op, value: LIST_OPS.has(child.op) ? resolved : resolved[0] };
    }),
  });
  return { filter: { schema_version: 1, root: convert(draft, '') }, errors };
}

// A stored definition (as GET returns it) as a draft, with ids shown as names where known.
export function fromDefinition(filter: unknown, names: Map<string, string>): DraftGroup {
  const root = (filter as { root?: unknown } | null)?.root;
  const group = (raw: unknown): DraftGroup => {
    const node = (raw ?? {}) as { combinator?: unknown; children?: unknown };
    const children = Array.isArray(node.children) ? node.children : [];
    return {
      kind: 'group',
      combinator: typeof node.combinator === 'string' ? node.combinator : 'and',
      children: children.map((child: unknown): DraftNode => {
        const c = (child ?? {}) as Record<string, unknown>;
        if ('children' in c) return group(c);
        const shown = (value: unknown) => {
          const textValue = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
          return names.get(textValue) ?? textValue;
        };
        const value = Array.isArray(c.value) ? c.value.map(shown).join(', ') : shown(c.value);
        return {
          kind: 'condition',
          field: typeof c.field === 'string' ? c.field : '',
          op: typeof c.op === 'string' ? c.op : '',
          value,
        };
      }),
    };
  };
  return root ? group(root) : emptyRoot();
}

// The ids in a stored definition's reference conditions, by kind (for their names).
export function referencedIds(filter: unknown): {
  suppliers: string[];
  recipients: string[];
  agreements: string[];
  tags: string[];
} {
  const found = {
    suppliers: [] as string[],
    recipients: [] as string[],
    agreements: [] as string[],
    tags: [] as string[],
  };
  const kinds: Record<string, keyof typeof found> = {
    'supplier.id': 'suppliers',
    'recipient.id': 'recipients',
    'agreement.id': 'agreements',
    'agreement.tag': 'tags',
  };
  const walk = (raw: unknown, depth: number) => {
    if (depth > MAX_DEPTH || !raw || typeof raw !== 'object') return;
    const node = raw as Record<string, unknown>;
    if (Array.isArray(node.children)) for (const child of node.children.slice(0, 20)) walk(child, depth + 1);
    const kind = typeof node.field === 'string' ? kinds[node.field] : undefined;
    if (!kind) return;
    const list = Array.isArray(node.value) ? node.value : [node.value];
    for (const value of list.slice(0, 100)) if (typeof value === 'string' && UUID.test(value)) found[kind].push(value);
  };
  walk((filter as { root?: unknown } | null)?.root, 0);
  return found;
}

// The API's detail field (filter.root.children.0.children.2.value) as the form's field name
// (n.0.2.value; root.combinator).
export function formFieldOf(apiField: string): string {
  const field = apiField.replace(/^body\./, '');
  if (!field.startsWith('filter.root')) return field;
  const rest = field.slice('filter.root'.length);
  const indexes = [...rest.matchAll(/\.children\.(\d+)/g)].map((match) => match[1]);
  const tail = rest.replace(/(\.children\.\d+)+/, '').replace(/^\./, '');
  if (indexes.length === 0) return `root.${tail || 'combinator'}`;
  return `n.${indexes.join('.')}.${tail || 'field'}`;
}
