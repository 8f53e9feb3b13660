import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compileFilter, teamFilterSchema, validateTeamFilter } from '../../../../src/teams/filter/index.js';

const cond = (value = 'EUR') => ({ field: 'invoice.currency', op: 'is', value });
const group = (children: unknown[], combinator = 'and') => ({ combinator, children });
const filterOf = (root: unknown) => ({ schema_version: 1, root });
const errorsOf = (raw: unknown) => {
  const result = validateTeamFilter(raw);
  if (result.ok) throw new Error('expected the filter to be refused');
  return result.errors;
};

describe('team filter definition', () => {
  it('accepts every condition kind with each of its ops', () => {
    const uuid = randomUUID();
    const children = [
      { field: 'supplier.id', op: 'is', value: uuid },
      { field: 'recipient.id', op: 'is_not', value: uuid },
      { field: 'agreement.id', op: 'is_any_of', value: [uuid] },
      { field: 'agreement.tag', op: 'is_none_of', value: [uuid, randomUUID()] },
      { field: 'supplier.country', op: 'is', value: 'NO' },
      { field: 'invoice.reference', op: 'is_any_of', value: ['PO-1', 'PO-2'] },
      { field: 'invoice.delivery_address', op: 'contains', value: 'Oslo' },
      { field: 'invoice.currency', op: 'not_contains', value: 'K' },
      { field: 'invoice.amount', op: 'gte', value: 100 },
      { field: 'invoice.amount', op: 'lt', value: '-12.50' },
      { field: 'invoice.issued_date', op: 'on_or_after', value: '2026-01-31' },
      { field: 'agreement.expiration_date', op: 'before', value: '2026-12-31' },
      { field: 'agreement.expiration_date', op: 'within', value: 'expiring_90_days' },
      { field: 'invoice.issued_date', op: 'within', value: 'last_365_days' },
    ];
    const raw = filterOf(group(children));
    expect(validateTeamFilter(raw)).toEqual({ ok: true, filter: raw });
    // Every condition compiles for every target.
    for (const target of ['invoice', 'agreement', 'alert', 'claim'] as const) {
      const compiled = compileFilter(raw as never, target, { organizationId: '00000000-0000-4000-8000-000000000001' });
      expect(compiled.sql).toContain('EXISTS');
      // Lookups of other tables are bound to the organization.
      expect(compiled.values).toContain('00000000-0000-4000-8000-000000000001');
    }
    // The outer row cannot take a name the compiled SQL uses inside.
    expect(() =>
      compileFilter(raw as never, 'invoice', { organizationId: '00000000-0000-4000-8000-000000000001', alias: 'inv' }),
    ).toThrow();
  });

  it('holds 20 conditions and refuses the 21st', () => {
    const twenty = filterOf(
      group([group(Array.from({ length: 10 }, () => cond())), group(Array.from({ length: 10 }, () => cond()))], 'or'),
    );
    expect(validateTeamFilter(twenty).ok).toBe(true);
    const twentyOne = filterOf(
      group([group(Array.from({ length: 10 }, () => cond())), group(Array.from({ length: 11 }, () => cond()))], 'or'),
    );
    expect(errorsOf(twentyOne)).toContainEqual({
      field: 'filter.root',
      message: expect.stringContaining('21 conditions'),
    });
  });

  it('holds 1 to 20 children per group', () => {
    expect(validateTeamFilter(filterOf(group([cond()]))).ok).toBe(true);
    expect(validateTeamFilter(filterOf(group(Array.from({ length: 20 }, () => cond())))).ok).toBe(true);
    expect(errorsOf(filterOf(group([])))).toContainEqual({
      field: 'filter.root.children',
      message: expect.stringContaining('1 to 20'),
    });
    expect(errorsOf(filterOf(group([group([]), cond()])))).toContainEqual({
      field: 'filter.root.children.0.children',
      message: expect.stringContaining('1 to 20'),
    });
  });

  it('nests three group levels; a third-level group holds only conditions', () => {
    const threeLevels = filterOf(group([group([group([cond(), cond('NOK')], 'or')])]));
    expect(validateTeamFilter(threeLevels).ok).toBe(true);
    const fourLevels = filterOf(group([group([group([group([cond()])])])]));
    expect(errorsOf(fourLevels)).toEqual([
      { field: 'filter.root.children.0.children.0.children.0', message: expect.stringContaining('3 levels') },
    ]);
  });

  it('takes 1 to 100 values per list condition', () => {
    const values = (n: number) => Array.from({ length: n }, () => randomUUID());
    const list = (n: number) => filterOf(group([{ field: 'supplier.id', op: 'is_any_of', value: values(n) }]));
    expect(validateTeamFilter(list(1)).ok).toBe(true);
    expect(validateTeamFilter(list(100)).ok).toBe(true);
    expect(errorsOf(list(101))).toEqual([
      { field: 'filter.root.children.0.value', message: expect.stringContaining('1 to 100') },
    ]);
    expect(errorsOf(list(0))).toEqual([
      { field: 'filter.root.children.0.value', message: expect.stringContaining('1 to 100') },
    ]);
    const text = filterOf(group([{ field: 'invoice.reference', op: 'is_none_of', value: ['PO-1', ''] }]));
    expect(errorsOf(text)).toEqual([
      { field: 'filter.root.children.0.value.1', message: expect.stringContaining('non-empty') },
    ]);
  });

  it('refuses unknown properties with their path, wherever they are', () => {
    expect(errorsOf({ schema_version: 1, root: group([cond()]), name: 'x' })).toEqual([
      { field: 'filter.name', message: expect.stringContaining('unknown property') },
    ]);
    expect(errorsOf(filterOf({ ...group([cond()]), not: true }))).toEqual([
      { field: 'filter.root.not', message: expect.stringContaining('unknown property') },
    ]);
    expect(errorsOf(filterOf(group([group([{ ...cond(), case_sensitive: true }])])))).toEqual([
      {
        field: 'filter.root.children.0.children.0.case_sensitive',
        message: expect.stringContaining('unknown property'),
      },
    ]);
  });

  it('refuses wrong kinds, ops and values with their path', () => {
    const one = (condition: unknown) => errorsOf(filterOf(group([condition])));
    expect(one({ field: 'invoice.colour', op: 'is', value: 'red' })).toEqual([
      { field: 'filter.root.children.0.field', message: expect.any(String) },
    ]);
    expect(one({ field: 'supplier.id', op: 'contains', value: randomUUID() })).toEqual([
      { field: 'filter.root.children.0.op', message: expect.any(String) },
    ]);
    expect(one({ field: 'supplier.id', op: 'is', value: 'not-a-uuid' })).toEqual([
      { field: 'filter.root.children.0.value', message: 'must be a UUID' },
    ]);
    expect(one({ field: 'invoice.amount', op: 'gt', value: '1e5' })).toEqual([
      { field: 'filter.root.children.0.value', message: expect.stringContaining('decimal') },
    ]);
    expect(one({ field: 'invoice.amount', op: 'gt', value: Number.NaN })).toHaveLength(1);
    expect(one({ field: 'invoice.amount', op: 'is', value: 5 })).toEqual([
      { field: 'filter.root.children.0.op', message: expect.any(String) },
    ]);
    expect(one({ field: 'invoice.issued_date', op: 'on', value: '2026-02-30' })).toEqual([
      { field: 'filter.root.children.0.value', message: expect.stringContaining('date') },
    ]);
    expect(one({ field: 'invoice.issued_date', op: 'within', value: 'last_7_days' })).toEqual([
      { field: 'filter.root.children.0.value', message: expect.any(String) },
    ]);
    expect(one({ field: 'invoice.currency', op: 'contains', value: '' })).toEqual([
      { field: 'filter.root.children.0.value', message: expect.stringContaining('non-empty') },
    ]);
    expect(errorsOf({ schema_version: 2, root: group([cond()]) })).toEqual([
      { field: 'filter.schema_version', message: 'must be 1' },
    ]);
    expect(errorsOf(filterOf(group([cond()], 'xor')))).toEqual([
      { field: 'filter.root.combinator', message: expect.any(String) },
    ]);
    expect(errorsOf(null)).toHaveLength(1);
  });

  it('as a request-body schema, allows null and names the offending path', () => {
    expect(teamFilterSchema.safeParse(null).success).toBe(true);
    const parsed = teamFilterSchema.safeParse(filterOf(group([{ ...cond(), extra: 1 }])));
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path).toEqual(['root', 'children', 0, 'extra']);
  });

  it('refuses over-long values before any pattern runs over them', () => {
    const refused = errorsOf(
      filterOf(
        group([
          { field: 'invoice.amount', op: 'gt', value: `${'1'.repeat(50_000)}.` },
          { field: 'invoice.reference', op: 'is', value: 'a'.repeat(501) },
        ]),
      ),
    );
    expect(refused.map((e) => e.field)).toEqual(['filter.root.children.0.value', 'filter.root.children.1.value']);
  });
});
