import fc from 'fast-check';
import { SchemaSet, validValue, type GenerationHints, type Schema } from './json-schema.js';

// Requests for one operation of the contract document: valid ones, mutated ones and hostile ones.
// Huge and deeply nested bodies are described (length, depth) and built only when sent, so a
// failing case prints in a line and replays from the seed.

export interface Operation {
  method: string;
  path: string;
  operationId: string;
  parameters: { name: string; in: string; required?: boolean; schema: Schema }[];
  jsonBody: Schema | null;
  multipart: boolean;
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

export function operationsOf(document: any): Operation[] {
  const operations: Operation[] = [];
  for (const [path, byMethod] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(byMethod)) {
      const content = operation.requestBody?.content ?? {};
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId,
        parameters: operation.parameters ?? [],
        jsonBody: content['application/json']?.schema ?? null,
        multipart: Boolean(content['multipart/form-data']),
        responses: operation.responses,
      });
    }
  }
  return operations;
}

// A string of `length` copies of `unit`, built when serialized.
export class HugeString {
  constructor(
    readonly length: number,
    readonly unit: string,
  ) {}
  toJSON(): string {
    return this.unit.repeat(Math.max(1, Math.floor(this.length / this.unit.length)));
  }
  [fc.toStringMethod](): string {
    return `HugeString(${this.length} x ${JSON.stringify(this.unit)})`;
  }
}

// A body sent as is (not JSON-encoded): deep nesting, broken JSON, other content types.
export class RawBody {
  constructor(
    readonly kind: 'deep_arrays' | 'deep_objects' | 'malformed' | 'text',
    readonly size: number,
    readonly contentType = 'application/json',
    readonly sample = '',
  ) {}
  text(): string {
    switch (this.kind) {
      case 'deep_arrays':
        return '['.repeat(this.size) + ']'.repeat(this.size);
      case 'deep_objects':
        return '{"a":'.repeat(this.size) + 'null' + '}'.repeat(this.size);
      case 'malformed':
        return this.sample;
      case 'text':
        return this.sample.repeat(Math.max(1, this.size));
    }
  }
  [fc.toStringMethod](): string {
    return `RawBody(${this.kind}, ${this.size}, ${this.contentType}, ${JSON.stringify(this.sample.slice(0, 60))})`;
  }
}

export interface FuzzRequest {
  method: string;
  path: string;
  query: [string, string][];
  body: { json: unknown } | RawBody | null;
  kind: string;
}

export interface IdPools extends GenerationHints {
  forPathParameter(collection: string): string[];
  any(): string[];
}

const junkValue = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 20 }),
  fc.constant(''),
  fc.constant('1e309'),
  fc.constant('-0'),
  fc.constant('99999999999999999999999999999999999999.99'),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.constant({}),
  fc.constant(JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}')),
);

const hugeString = fc
  .record({
    length: fc.integer({ min: 10_000, max: 1_900_000 }),
    unit: fc.constantFrom('a', 'é', '0', ' ', '\\', '"', '\u0000', '😀', '%', "'; --", 'a.'),
  })
  .map(({ length, unit }) => new HugeString(length, unit));

// A segment that is only dots names another path: clients resolve "." and ".." in the URL before
// sending it (GET /v1/invoices/. is GET /v1/invoices/), so no request can carry one as an id.
const isDotSegment = (value: string) => value === '.' || value === '..';

const malformedPathId = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }).filter((value) => !isDotSegment(value)),
  fc.constantFrom(
    '0',
    '-1',
    'null',
    'undefined',
    '%00',
    '.%2e',
    '00000000-0000-0000-0000-00000000000g',
    ' 00000000-0000-0000-0000-000000000000',
    'aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa',
  ),
  fc.integer({ min: 100, max: 5_000 }).map((n) => 'a'.repeat(n)),
);

// ---- mutations of a valid body ----

type Mutation =
  | { kind: 'wrong_type'; at: number; junk: unknown }
  | { kind: 'drop_key'; at: number }
  | { kind: 'unknown_key'; at: number; key: string; junk: unknown }
  | { kind: 'huge_string'; at: number; huge: HugeString }
  | { kind: 'null_leaf'; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('wrong_type' as const), at: fc.nat(), junk: junkValue }),
  fc.record({ kind: fc.constant('drop_key' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('unknown_key' as const),
    at: fc.nat(),
    key: fc.string({ minLength: 1, maxLength: 12 }),
    junk: junkValue,
  }),
  fc.record({ kind: fc.constant('huge_string' as const), at: fc.nat(), huge: hugeString }),
  fc.record({ kind: fc.constant('null_leaf' as const), at: fc.nat() }),
);

type Slot = { parent: Record<string, unknown> | unknown[] | null; key: string | number; value: unknown };

function slotsOf(root: { value: unknown }): Slot[] {
  const slots: Slot[] = [{ parent: null, key: 'value', value: root.value }];
  const visit = (value: unknown) => {
    if (Array.isArray(value))
      value.forEach((child, index) => {
        slots.push({ parent: value, key: index, value: child });
        visit(child);
      });
    else if (value && typeof value === 'object')
      for (const [key, child] of Object.entries(value)) {
        slots.push({ parent: value as Record<string, unknown>, key, value: child });
        visit(child);
      }
  };
  visit(root.value);
  return slots;
}

function applyMutation(valid: unknown, change: Mutation): unknown {
  const root = { value: structuredClone(valid) };
  const slots = slotsOf(root);
  const slot = slots[change.at % slots.length]!;
  const target = (slot.parent ?? root) as Record<string | number, unknown>;
  switch (change.kind) {
    case 'wrong_type':
      target[slot.key] = change.junk;
      break;
    case 'null_leaf':
      target[slot.key] = null;
      break;
    case 'drop_key':
      if (slot.parent && !Array.isArray(slot.parent)) delete target[slot.key];
      else target[slot.key] = undefined;
      break;
    case 'unknown_key': {
      const objects = slots.filter((s) => s.value && typeof s.value === 'object' && !Array.isArray(s.value));
      const holder =
        objects.length > 0 ? (objects[change.at % objects.length]!.value as Record<string, unknown>) : null;
      if (holder) holder[change.key] = change.junk;
      else target[slot.key] = { [change.key]: change.junk };
      break;
    }
    case 'huge_string': {
      const strings = slots.filter((s) => typeof s.value === 'string');
      const chosen = strings.length > 0 ? strings[change.at % strings.length]! : slot;
      ((chosen.parent ?? root) as Record<string | number, unknown>)[chosen.key] = change.huge;
      break;
    }
  }
  return root.value;
}

// ---- the request ----

function pathArbitrary(operation: Operation, pools: IdPools): fc.Arbitrary<string> {
  const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  if (names.length === 0) return fc.constant(operation.path);
  const values = names.map((name) => {
    const collection = operation.path.slice(0, operation.path.indexOf(`{${name}}`) - 1);
    const valid = pools.forPathParameter(collection);
    const options: fc.WeightedArbitrary<string>[] = [
      { weight: 2, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: pools.any().length > 0 ? fc.constantFrom(...pools.any()) : fc.uuid() },
      { weight: 2, arbitrary: malformedPathId },
    ];
    if (valid.length > 0) options.push({ weight: 6, arbitrary: fc.constantFrom(...valid) });
    return fc.oneof(...options);
  });
  return fc.tuple(...values).map((chosen) => {
    let path = operation.path;
    names.forEach((name, index) => (path = path.replace(`{${name}}`, encodeURIComponent(chosen[index]!))));
    return path;
  });
}

function queryValue(set: SchemaSet, schema: Schema, pools: IdPools, name: string): fc.Arbitrary<string[]> {
  const s = set.resolve(schema);
  if (s.type === 'array') {
    // Plural filters: one comma list, or the parameter repeated.
    return fc
      .tuple(validValue(set, s, pools, name) as fc.Arbitrary<unknown[]>, fc.boolean())
      .map(([items, repeated]) => (repeated ? items.map(String) : [items.map(String).join(',')]));
  }
  return validValue(set, s, pools, name).map((value) => [typeof value === 'string' ? value : JSON.stringify(value)]);
}

const invalidQueryValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom(
    '',
    ',',
    ',,,',
    'true,false',
    '-1',
    '1.5',
    '1e400',
    'null',
    '[]',
    '{}',
    '2026-02-30',
    '9999-99-99',
    'not-a-uuid',
  ),
  fc.integer({ min: 1_000, max: 12_000 }).map((n) => 'x'.repeat(n)),
);

function queryArbitrary(set: SchemaSet, operation: Operation, pools: IdPools): fc.Arbitrary<[string, string][]> {
  const parameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  const each = parameters.map((parameter) =>
    fc
      .oneof(
        { weight: 5, arbitrary: fc.constant([] as string[]) },
        {
          weight: 4,
          arbitrary:
            parameter.name === 'cursor'
              ? fc.constant([] as string[])
              : queryValue(set, parameter.schema, pools, parameter.name),
        },
        { weight: 1, arbitrary: invalidQueryValue.map((value) => [value]) },
      )
      .map((values) => values.map((value) => [parameter.name, value] as [string, string])),
  );
  const unknown = fc.oneof(
    { weight: 9, arbitrary: fc.constant([] as [string, string][]) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 10 }))
        .map((pair) => [pair]),
    },
  );
  return fc.tuple(fc.tuple(...each), unknown).map(([lists, extra]) => [...lists.flat(), ...extra]);
}

function bodyArbitrary(
  set: SchemaSet,
  operation: Operation,
  pools: IdPools,
): fc.Arbitrary<{ body: FuzzRequest['body']; kind: string }> {
  const hostile: fc.WeightedArbitrary<{ body: FuzzRequest['body']; kind: string }>[] = [
    {
      weight: 3,
      arbitrary: fc
        .integer({ min: 1_000, max: 100_000 })
        .map((depth) => ({ body: new RawBody('deep_arrays', depth), kind: 'deep_nesting' })),
    },
    {
      weight: 3,
      arbitrary: fc
        .integer({ min: 1_000, max: 100_000 })
        .map((depth) => ({ body: new RawBody('deep_objects', depth), kind: 'deep_nesting' })),
    },
    {
      weight: 3,
      arbitrary: fc
        .constantFrom(
          '{',
          '{"a":',
          '[1,2',
          'nul',
          '{"a":1}}',
          '\u0000',
          '{"a":"\\ud800"}',
          '{"__proto__":{"x":1}}',
          '{"a":1,"a":2}',
        )
        .map((sample) => ({ body: new RawBody('malformed', 1, 'application/json', sample), kind: 'malformed_json' })),
    },
    { weight: 3, arbitrary: junkValue.map((json) => ({ body: { json }, kind: 'wrong_body_type' })) },
    { weight: 3, arbitrary: hugeString.map((huge) => ({ body: { json: huge }, kind: 'huge_string_body' })) },
    {
      weight: 3,
      arbitrary: fc
        .constantFrom(
          'text/plain',
          'application/xml',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
        )
        .map((contentType) => ({ body: new RawBody('text', 3, contentType, 'a=1&'), kind: 'other_content_type' })),
    },
    // Over the 2 MiB limit: must be a 413, not a stall or a 500.
    {
      weight: 1,
      arbitrary: fc.constant({ body: new RawBody('text', 2_200_000, 'application/json', ' '), kind: 'oversized' }),
    },
  ];
  if (!operation.jsonBody)
    return fc.oneof({ weight: 18, arbitrary: fc.constant({ body: null, kind: 'no_body' }) }, ...hostile);
  const valid = validValue(set, operation.jsonBody, pools);
  return fc.oneof(
    { weight: 24, arbitrary: valid.map((json) => ({ body: { json }, kind: 'valid' })) },
    {
      weight: 18,
      arbitrary: fc
        .tuple(valid, mutation)
        .map(([json, change]) => ({ body: { json: applyMutation(json, change) }, kind: `mutated_${change.kind}` })),
    },
    ...hostile,
  );
}

// A request a careful client would send: the organization's own ids, valid query values and a
// body valid per the schema. These reach the handlers (and the database) rather than validation.
function cleanRequest(set: SchemaSet, operation: Operation, pools: IdPools): fc.Arbitrary<FuzzRequest> {
  const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  const path = fc
    .tuple(
      ...names.map((name) => {
        const valid = pools.forPathParameter(operation.path.slice(0, operation.path.indexOf(`{${name}}`) - 1));
        return valid.length > 0 ? fc.constantFrom(...valid) : fc.uuid();
      }),
    )
    .map((chosen) =>
      names.reduce((result, name, index) => result.replace(`{${name}}`, chosen[index]!), operation.path),
    );
  const query = fc
    .tuple(
      ...operation.parameters
        .filter((p) => p.in === 'query' && p.name !== 'cursor' && p.name !== 'fields')
        .map((p) =>
          fc
            .oneof(fc.constant([] as string[]), queryValue(set, p.schema, pools, p.name))
            .map((values) => values.map((value) => [p.name, value] as [string, string])),
        ),
    )
    .map((lists) => lists.flat());
  const body = operation.jsonBody
    ? validValue(set, operation.jsonBody, pools).map((json) => ({ json }))
    : fc.constant(null);
  return fc
    .tuple(path, query, body)
    .map(([p, q, b]) => ({ method: operation.method, path: p, query: q, body: b, kind: 'clean' }));
}

export function requestArbitrary(set: SchemaSet, operation: Operation, pools: IdPools): fc.Arbitrary<FuzzRequest> {
  const anything = fc
    .tuple(pathArbitrary(operation, pools), queryArbitrary(set, operation, pools), bodyArbitrary(set, operation, pools))
    // GET sends no body (fetch refuses one), whatever was generated for it.
    .map(([path, query, { body, kind }]) =>
      operation.method === 'GET'
        ? { method: operation.method, path, query, body: null, kind: 'get' }
        : { method: operation.method, path, query, body, kind },
    );
  return fc.oneof({ weight: 1, arbitrary: cleanRequest(set, operation, pools) }, { weight: 2, arbitrary: anything });
}
