import { z } from 'zod';

// The team filter definition exactly as the spec's table (docs/teams.md). Validation is written by
// hand, not as a zod union, so every refusal names the JSON path of the offending property, and a
// stored (possibly legacy) definition can be checked with the same code on every read.

export const MAX_CONDITIONS = 20;
export const MAX_LEVELS = 3;
export const MAX_CHILDREN = 20;
export const MAX_LIST_VALUES = 100;
// The spec is silent on text length; longer values are refused so a filter stays small.
export const MAX_TEXT_LENGTH = 500;
const MAX_NUMBER_LENGTH = 40;

export const REFERENCE_FIELDS = ['supplier.id', 'recipient.id', 'agreement.id', 'agreement.tag'] as const;
export const TEXT_FIELDS = [
  'supplier.country',
  'invoice.currency',
  'invoice.reference',
  'invoice.delivery_address',
] as const;
export const NUMBER_FIELDS = ['invoice.amount'] as const;
export const DATE_FIELDS = ['agreement.expiration_date', 'invoice.issued_date'] as const;
export const LIST_OPS = ['is', 'is_not', 'is_any_of', 'is_none_of'] as const;
export const CONTAINS_OPS = ['contains', 'not_contains'] as const;
export const NUMBER_OPS = ['eq', 'gt', 'gte', 'lt', 'lte'] as const;
export const DATE_OPS = ['on', 'before', 'on_or_before', 'after', 'on_or_after'] as const;
export const RELATIVE_DATES = [
  'last_30_days',
  'last_90_days',
  'last_365_days',
  'expiring_30_days',
  'expiring_60_days',
  'expiring_90_days',
] as const;

export type ReferenceField = (typeof REFERENCE_FIELDS)[number];
export type TextField = (typeof TEXT_FIELDS)[number];
export type DateField = (typeof DATE_FIELDS)[number];
export type ConditionField = ReferenceField | TextField | (typeof NUMBER_FIELDS)[number] | DateField;

export type Condition =
  | { field: ReferenceField | TextField; op: 'is' | 'is_not'; value: string }
  | { field: ReferenceField | TextField; op: 'is_any_of' | 'is_none_of'; value: string[] }
  | { field: TextField; op: 'contains' | 'not_contains'; value: string }
  | { field: 'invoice.amount'; op: (typeof NUMBER_OPS)[number]; value: number | string }
  | { field: DateField; op: (typeof DATE_OPS)[number]; value: string }
  | { field: DateField; op: 'within'; value: (typeof RELATIVE_DATES)[number] };

export interface Group {
  combinator: 'and' | 'or';
  children: (Group | Condition)[];
}

export interface TeamFilter {
  schema_version: 1;
  root: Group;
}

export interface FilterIssue {
  // Path of the offending property, dotted as every validation error of the API: filter.root.children.2.value
  field: string;
  message: string;
}

export type FilterValidation = { ok: true; filter: TeamFilter } | { ok: false; errors: FilterIssue[] };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
// Linear: no nested quantifiers; the length is capped before it runs.
const DECIMAL = /^-?\d+(\.\d+)?$/;

const includes = <T extends string>(list: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (list as readonly string[]).includes(value);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRealDate(value: string): boolean {
  // Year 0000 is no date PostgreSQL knows.
  if (!DATE.test(value) || value.startsWith('0000')) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

class Checker {
  readonly issues: FilterIssue[] = [];
  conditions = 0;

  fail(field: string, message: string): false {
    // A broken definition can produce many issues; the first 50 say enough.
    if (this.issues.length < 50) this.issues.push({ field, message });
    return false;
  }

  onlyKeys(value: Record<string, unknown>, allowed: readonly string[], path: string): boolean {
    let ok = true;
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) ok = this.fail(`${path}.${key}`, `unknown property; allowed: ${allowed.join(', ')}`);
    }
    return ok;
  }

  group(value: unknown, path: string, level: number): void {
    if (!isPlainObject(value)) return void this.fail(path, 'must be a group {combinator, children}');
    this.onlyKeys(value, ['combinator', 'children'], path);
    if (!includes(['and', 'or'], value.combinator)) this.fail(`${path}.combinator`, 'must be and or or');
    const children = value.children;
    if (!Array.isArray(children))
      return void this.fail(`${path}.children`, 'must be an array of 1 to 20 conditions or groups');
    if (children.length < 1 || children.length > MAX_CHILDREN)
      this.fail(`${path}.children`, `must hold 1 to ${MAX_CHILDREN} children (has ${children.length})`);
    children.slice(0, MAX_CHILDREN + 1).forEach((child, index) => {
      const childPath = `${path}.children.${index}`;
      if (isPlainObject(child) && ('combinator' in child || 'children' in child) && !('field' in child)) {
        if (level >= MAX_LEVELS)
          return void this.fail(
            childPath,
            `groups nest at most ${MAX_LEVELS} levels; a third-level group holds only conditions`,
          );
        this.group(child, childPath, level + 1);
      } else {
        this.condition(child, childPath);
      }
    });
  }

  condition(value: unknown, path: string): void {
    this.conditions += 1;
    if (!isPlainObject(value))
      return void this.fail(path, 'must be a condition {field, op, value} or a group {combinator, children}');
    this.onlyKeys(value, ['field', 'op', 'value'], path);
    const { field, op } = value;
    if (includes(REFERENCE_FIELDS, field))
      return this.listCondition(value, path, LIST_OPS, (v) => typeof v === 'string' && UUID.test(v), 'a UUID');
    if (includes(TEXT_FIELDS, field)) {
      if (includes(CONTAINS_OPS, op)) return void this.text(value.value, `${path}.value`);
      return this.listCondition(
        value,
        path,
        [...LIST_OPS, ...CONTAINS_OPS],
        (v) => typeof v === 'string' && v.length > 0 && v.length <= MAX_TEXT_LENGTH,
        `a non-empty string of at most ${MAX_TEXT_LENGTH} characters`,
      );
    }
    if (includes(NUMBER_FIELDS, field)) {
      if (!includes(NUMBER_OPS, op)) return void this.fail(`${path}.op`, `must be one of ${NUMBER_OPS.join(', ')}`);
      const number = value.value;
      const ok =
        (typeof number === 'number' && Number.isFinite(number)) ||
        (typeof number === 'string' && number.length <= MAX_NUMBER_LENGTH && DECIMAL.test(number));
      if (!ok) this.fail(`${path}.value`, 'must be a number or a decimal string such as "1250.00"');
      return;
    }
    if (includes(DATE_FIELDS, field)) {
      if (op === 'within') {
        if (!includes(RELATIVE_DATES, value.value))
          this.fail(`${path}.value`, `must be one of ${RELATIVE_DATES.join(', ')}`);
        return;
      }
      if (!includes(DATE_OPS, op))
        return void this.fail(`${path}.op`, `must be one of ${[...DATE_OPS, 'within'].join(', ')}`);
      if (typeof value.value !== 'string' || !isRealDate(value.value))
        this.fail(`${path}.value`, 'must be a date YYYY-MM-DD');
      return;
    }
    this.fail(
      `${path}.field`,
      `must be one of ${[...REFERENCE_FIELDS, ...TEXT_FIELDS, ...NUMBER_FIELDS, ...DATE_FIELDS].join(', ')}`,
    );
  }

  text(value: unknown, path: string): void {
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TEXT_LENGTH) {
      this.fail(path, `must be a non-empty string of at most ${MAX_TEXT_LENGTH} characters`);
    }
  }

  listCondition(
    value: Record<string, unknown>,
    path: string,
    ops: readonly string[],
    itemOk: (v: unknown) => boolean,
    itemName: string,
  ): void {
    const { op } = value;
    if (!includes(ops, op)) return void this.fail(`${path}.op`, `must be one of ${ops.join(', ')}`);
    if (op === 'is_any_of' || op === 'is_none_of') {
      const list = value.value;
      if (!Array.isArray(list) || list.length < 1 || list.length > MAX_LIST_VALUES) {
        return void this.fail(`${path}.value`, `must be an array of 1 to ${MAX_LIST_VALUES} values, each ${itemName}`);
      }
      list.forEach((item, index) => {
        if (!itemOk(item)) this.fail(`${path}.value.${index}`, `must be ${itemName}`);
      });
      return;
    }
    if (!itemOk(value.value)) this.fail(`${path}.value`, `must be ${itemName}`);
  }
}

// Checks a definition as sent or as stored. `ok: true` hands back the same object, typed.
export function validateTeamFilter(raw: unknown, path = 'filter'): FilterValidation {
  const checker = new Checker();
  if (!isPlainObject(raw)) {
    checker.fail(path, 'must be an object {schema_version: 1, root}');
  } else {
    checker.onlyKeys(raw, ['schema_version', 'root'], path);
    if (raw.schema_version !== 1) checker.fail(`${path}.schema_version`, 'must be 1');
    checker.group(raw.root, `${path}.root`, 1);
    if (checker.conditions > MAX_CONDITIONS)
      checker.fail(`${path}.root`, `holds ${checker.conditions} conditions; at most ${MAX_CONDITIONS} are allowed`);
  }
  return checker.issues.length === 0 ? { ok: true, filter: raw as TeamFilter } : { ok: false, errors: checker.issues };
}

// For request bodies: a filter definition, or null for none. Each issue's path is the offending
// property's path (root.children.0.value), so the error details name it.
export const teamFilterSchema = z
  .unknown()
  .superRefine((raw, ctx) => {
    if (raw === null) return;
    const result = validateTeamFilter(raw, '');
    if (result.ok) return;
    for (const issue of result.errors) {
      ctx.addIssue({ code: 'custom', message: issue.message, path: pathSegments(issue.field) });
    }
  })
  .meta({
    id: 'TeamFilter',
    description:
      'A team filter {schema_version: 1, root: {combinator: and|or, children}} or null (matches nothing). At most 20 conditions, 3 group levels, 20 children per group, 100 values per list condition. See docs/teams.md.',
  });

// ".root.children.0.value" -> ['root', 'children', 0, 'value'].
function pathSegments(field: string): (string | number)[] {
  return field
    .split('.')
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}
