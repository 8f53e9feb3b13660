import fc from 'fast-check';

// The subset of JSON Schema (2020-12, as OpenAPI 3.1 uses it) that our contract document is made
// of: enough to generate request values from it and to validate responses against it. Keywords
// it does not know are reported by `unknownKeywords`, so the fuzz test notices when the document
// starts using one instead of silently accepting everything.

export type Schema = Record<string, any>;

const KNOWN_KEYWORDS = new Set([
  '$ref',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'oneOf',
  'allOf',
  'enum',
  'const',
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'propertyNames',
  'description',
  'default',
  'title',
  'examples',
  'example',
  'deprecated',
  'readOnly',
  'writeOnly',
  'id',
]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export class SchemaSet {
  constructor(private readonly components: Record<string, Schema>) {}

  resolve(schema: Schema): Schema {
    let current = schema;
    for (let hops = 0; current && typeof current.$ref === 'string'; hops++) {
      if (hops > 20) throw new Error(`$ref cycle at ${schema.$ref}`);
      const name = current.$ref.replace('#/components/schemas/', '');
      const target = this.components[name];
      if (!target) throw new Error(`unresolved $ref ${current.$ref}`);
      const { $ref: _ref, ...siblings } = current;
      current = { ...target, ...siblings };
    }
    return current;
  }

  unknownKeywords(schema: Schema, seen = new Set<Schema>()): string[] {
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
    seen.add(schema);
    const found = Object.keys(schema).filter((key) => !KNOWN_KEYWORDS.has(key) && !key.startsWith('x-'));
    const resolved = this.resolve(schema);
    if (resolved !== schema) found.push(...this.unknownKeywords(resolved, seen));
    for (const child of childSchemas(schema)) found.push(...this.unknownKeywords(child, seen));
    return found;
  }

  // Problems found, each with its JSON path; empty when the value is valid. `partial`: required
  // properties may be missing (a response narrowed with `fields`).
  validate(schema: Schema, value: unknown, path = '$', partial = false): string[] {
    const s = this.resolve(schema);
    if (s === undefined || Object.keys(s).length === 0) return [];
    const problems: string[] = [];
    if (s.allOf) for (const part of s.allOf) problems.push(...this.validate(part, value, path, partial));
    if (s.anyOf && !s.anyOf.some((part: Schema) => this.validate(part, value, path, partial).length === 0)) {
      problems.push(
        `${path}: matches none of anyOf (${s.anyOf.map((part: Schema) => this.validate(part, value, path, partial)[0]).join(' | ')})`,
      );
    }
    if (s.oneOf) {
      const matching = s.oneOf.filter((part: Schema) => this.validate(part, value, path, partial).length === 0).length;
      if (matching !== 1) problems.push(`${path}: matches ${matching} of oneOf, not exactly one`);
    }
    if ('const' in s && !deepEqual(s.const, value)) problems.push(`${path}: is not ${JSON.stringify(s.const)}`);
    if (s.enum && !s.enum.some((option: unknown) => deepEqual(option, value)))
      problems.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`);
    if (s.type !== undefined) {
      const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
      if (!types.some((type) => hasType(value, type))) {
        problems.push(`${path}: expected ${types.join(' or ')}, got ${describeType(value)}`);
        return problems;
      }
    }
    if (typeof value === 'string') problems.push(...this.validateString(s, value, path));
    if (typeof value === 'number') {
      if (s.minimum !== undefined && value < s.minimum) problems.push(`${path}: ${value} < minimum ${s.minimum}`);
      if (s.maximum !== undefined && value > s.maximum) problems.push(`${path}: ${value} > maximum ${s.maximum}`);
    }
    if (Array.isArray(value)) {
      if (s.minItems !== undefined && value.length < s.minItems)
        problems.push(`${path}: fewer than ${s.minItems} items`);
      if (s.maxItems !== undefined && value.length > s.maxItems)
        problems.push(`${path}: more than ${s.maxItems} items`);
      if (s.items)
        value.forEach((item, index) => problems.push(...this.validate(s.items, item, `${path}[${index}]`, partial)));
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const record = value as Record<string, unknown>;
      for (const key of partial ? [] : (s.required ?? []))
        if (!(key in record)) problems.push(`${path}: missing required ${key}`);
      for (const [key, child] of Object.entries(record)) {
        const declared = s.properties?.[key];
        if (declared) problems.push(...this.validate(declared, child, `${path}.${key}`, partial));
        else if (s.additionalProperties === false) problems.push(`${path}: unexpected property ${key}`);
        else if (s.additionalProperties && typeof s.additionalProperties === 'object')
          problems.push(...this.validate(s.additionalProperties, child, `${path}.${key}`, partial));
      }
    }
    return problems;
  }

  private validateString(s: Schema, value: string, path: string): string[] {
    const problems: string[] = [];
    if (s.minLength !== undefined && [...value].length < s.minLength)
      problems.push(`${path}: shorter than ${s.minLength}`);
    if (s.maxLength !== undefined && [...value].length > s.maxLength)
      problems.push(`${path}: longer than ${s.maxLength}`);
    if (s.pattern && !new RegExp(s.pattern, 'u').test(value))
      problems.push(`${path}: ${JSON.stringify(value.slice(0, 80))} does not match ${s.pattern}`);
    if (s.format === 'uuid' && !UUID.test(value)) problems.push(`${path}: not a uuid`);
    if (s.format === 'date-time' && !DATE_TIME.test(value)) problems.push(`${path}: not a date-time`);
    return problems;
  }
}

function childSchemas(schema: Schema): Schema[] {
  const children: Schema[] = [];
  for (const key of ['items', 'additionalProperties', 'propertyNames'])
    if (schema[key] && typeof schema[key] === 'object') children.push(schema[key]);
  for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(schema[key])) children.push(...schema[key]);
  if (schema.properties) children.push(...Object.values(schema.properties as Record<string, Schema>));
  return children;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return typeof value === type;
  }
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

// ---- generation ----

export interface GenerationHints {
  // Identifiers of existing records for a property or parameter name (agreement_id, alert_ids,
  // ...), so valid requests reach real records, not only 404s.
  idsFor(name: string | undefined): string[];
}

const MAX_DEPTH = 8;
const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

const dateArbitrary = fc.date({
  min: new Date('1990-01-01T00:00:00Z'),
  max: new Date('2040-12-31T00:00:00Z'),
  noInvalidDate: true,
});

export function uuidArbitrary(hints: GenerationHints, name: string | undefined): fc.Arbitrary<string> {
  const known = hints.idsFor(name);
  return known.length > 0
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: fc.uuid() })
    : fc.uuid();
}

// A value valid against `schema` (within what the schema says; rules only the server knows, such
// as "this agreement must be active", are for the server to answer with a 4xx).
export function validValue(
  set: SchemaSet,
  schema: Schema,
  hints: GenerationHints,
  name?: string,
  depth = 0,
): fc.Arbitrary<unknown> {
  const s = set.resolve(schema);
  if (depth > MAX_DEPTH) return fc.constant(null);
  if ('const' in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives: Schema[] | undefined = s.anyOf ?? s.oneOf;
  if (alternatives)
    return fc.oneof(
      ...alternatives.map((part) =>
        validValue(set, { ...withoutCombinators(s), ...set.resolve(part) }, hints, name, depth + 1),
      ),
    );
  if (s.allOf)
    return validValue(
      set,
      Object.assign({}, withoutCombinators(s), ...s.allOf.map((part: Schema) => set.resolve(part))),
      hints,
      name,
      depth + 1,
    );
  const types: string[] = Array.isArray(s.type)
    ? s.type
    : s.type
      ? [s.type]
      : s.properties
        ? ['object']
        : s.items
          ? ['array']
          : [];
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(...types.map((type) => valueOfType(set, s, type, hints, name, depth)));
}

function withoutCombinators(s: Schema): Schema {
  const { anyOf: _a, oneOf: _o, allOf: _l, ...rest } = s;
  return rest;
}

function valueOfType(
  set: SchemaSet,
  s: Schema,
  type: string,
  hints: GenerationHints,
  name: string | undefined,
  depth: number,
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({
        min: Math.max(s.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER),
        max: Math.min(s.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER),
      });
    case 'number':
      return fc.double({ min: s.minimum ?? -1e9, max: s.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
    case 'string':
      return stringValue(s, hints, name);
    case 'array': {
      const minLength = s.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(s.maxItems ?? 4, 4));
      return fc.array(validValue(set, s.items ?? {}, hints, singular(name), depth + 1), { minLength, maxLength });
    }
    case 'object': {
      const properties: Record<string, Schema> = s.properties ?? {};
      const required = new Set<string>(s.required ?? []);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, child] of Object.entries(properties)) model[key] = validValue(set, child, hints, key, depth + 1);
      return fc.record(model, { requiredKeys: [...required].filter((key) => key in model) });
    }
    default:
      return fc.constant(null);
  }
}

function singular(name: string | undefined): string | undefined {
  return name?.endsWith('_ids') ? `${name.slice(0, -4)}_id` : name;
}

function stringValue(s: Schema, hints: GenerationHints, name: string | undefined): fc.Arbitrary<string> {
  if (s.format === 'uuid') return uuidArbitrary(hints, name);
  if (s.format === 'date-time') return dateArbitrary.map((date) => date.toISOString());
  if (s.pattern === DATE_PATTERN)
    return fc.oneof(
      { weight: 4, arbitrary: dateArbitrary.map((date) => date.toISOString().slice(0, 10)) },
      { weight: 1, arbitrary: fc.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
    );
  const minLength = s.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(s.maxLength ?? 60, 60));
  if (s.pattern) {
    // fast-check builds strings from the pattern itself; lengths beyond the schema's bounds are
    // cut down to them (the server answers a cut-off value with a 400 at worst).
    return fc
      .stringMatching(new RegExp(s.pattern))
      .map((value) => (s.maxLength !== undefined && value.length > s.maxLength ? value.slice(0, s.maxLength) : value));
  }
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ minLength, maxLength, unit: 'binary' }),
    fc.string({ minLength, maxLength, unit: 'grapheme' }),
  );
}
