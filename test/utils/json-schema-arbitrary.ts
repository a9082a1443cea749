import fc from 'fast-check';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { resolveRef, type OpenApiDocument } from '#contract/openapi-document.js';
import { createAjv, DOCUMENT_ID, type ValidateFunction } from '#contract/schema-compiler.js';
import { anchorRefs } from '#contract/validation-errors.js';

/**
 * Generated JSON values for the schemas of an OpenAPI document (JSON Schema 2020-12), for property
 * tests such as the proof that every answer shaped for a version validates against that version's
 * document (libs/contract/src/versions/answer-shaper.spec.ts, docs/design-record.md#d22).
 *
 * It knows the subset the documents use: type (a list too, and null), properties, required,
 * additionalProperties (false or a schema), propertyNames, min/maxProperties, items, min/maxItems,
 * uniqueItems, enum, const, format, pattern, min/maxLength, minimum/maximum (and the exclusive
 * ones), allOf, anyOf, oneOf, not, if/then/else, and `$ref` into the document. A keyword outside
 * it, or a format it cannot make, throws rather than yield values the schema may refuse; so does a
 * schema it cannot satisfy. Every value is checked against its schema by the project's Ajv setup
 * before a property sees it (`arbitrary` filters nothing silently: see `check`).
 */

export type JsonSchema = boolean | Record<string, unknown>;
type SchemaObject = Record<string, unknown>;

export interface ArbitraryOptions {
  /**
   * Every optional property present, every array and map with at least one entry: values that
   * show every field a schema may carry (a random value leaves some out).
   */
  readonly maximal?: boolean;
}

/** Keywords that say nothing about which values are valid. */
const ANNOTATIONS = new Set([
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'example',
  'deprecated',
  'readOnly',
  'writeOnly',
  'externalDocs',
  'xml',
  'discriminator',
]);

const KNOWN = new Set([
  '$ref',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
]);

/** How many more entries than its minimum an array or a map gets at most: values stay small. */
const EXTRA_ENTRIES = 2;
/** Deeper than this, a schema refers to itself: refused rather than recursed into forever. */
const MAX_DEPTH = 40;

const isObject = (value: unknown): value is SchemaObject => value !== null && typeof value === 'object' && !Array.isArray(value);
const isAnnotation = (key: string) => ANNOTATIONS.has(key) || key.startsWith('x-');
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Instants between 1970 and 2100, whole milliseconds: what the documents' timestamps hold. */
const instant = fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) - 1 }).map((ms) => new Date(ms));

/** A value of each format the documents use; every one passes ajv-formats' check of that format. */
const FORMATS: Readonly<Record<string, fc.Arbitrary<string>>> = {
  'date-time': instant.map((date) => date.toISOString()),
  date: instant.map((date) => `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`),
  time: instant.map((date) => date.toISOString().slice(11)),
  uuid: fc.uuid(),
  email: fc
    .tuple(fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,15}$/), fc.constantFrom('example.com', 'mail.example.org', 'x.pt'))
    .map(([local, domain]) => `${local.replace(/\.+$/, '').replace(/\.{2,}/g, '.')}@${domain}`),
  uri: fc.webUrl(),
  'uri-reference': fc.oneof(fc.webUrl(), fc.constant('about:blank'), fc.stringMatching(/^\/[a-z0-9-]{1,12}(\/[a-z0-9-]{1,12}){0,2}$/)),
  'json-pointer': fc.array(fc.stringMatching(/^[A-Za-z0-9_]{1,10}$/), { maxLength: 3 }).map((parts) => parts.map((p) => `/${p}`).join('')),
  hostname: fc.domain(),
  ipv4: fc.ipV4(),
  ipv6: fc.ipV6(),
};

/** The values, and the check, of the schemas of one document. */
export class JsonSchemaArbitraries {
  private readonly ajv: Ajv2020;
  private readonly compiled = new WeakMap<object, ValidateFunction>();

  constructor(readonly document: OpenApiDocument) {
    this.ajv = createAjv(document, { coerceTypes: false });
  }

  /** Values valid against `schema` (references resolve in the document). */
  arbitrary(schema: JsonSchema, options: ArbitraryOptions = {}): fc.Arbitrary<unknown> {
    return new Builder(this, options).of(schema, 0);
  }

  /** Why `value` is not valid against `schema`, or undefined when it is. The value is not changed. */
  check(schema: JsonSchema, value: unknown): string | undefined {
    const validate = this.validator(schema);
    // The project's Ajv fills in defaults (useDefaults): a copy keeps the value as given.
    if (validate(structuredClone(value))) return undefined;
    // Ajv's text leaves out which property or value: its params say it (additionalProperty, allowedValues).
    return (validate.errors ?? [])
      .map((error) => `value${error.instancePath} ${error.message ?? ''} ${JSON.stringify(error.params)}`)
      .join(', ');
  }

  /** Whether `value` is valid against `schema`. */
  validates(schema: JsonSchema, value: unknown): boolean {
    return this.check(schema, value) === undefined;
  }

  /** A schema of the document by its reference (`#/components/schemas/Appointment`). */
  resolve(ref: string): JsonSchema {
    return resolveRef<JsonSchema>(this.document, { $ref: ref });
  }

  private validator(schema: JsonSchema): ValidateFunction {
    const key = typeof schema === 'boolean' ? (schema ? TRUE_KEY : FALSE_KEY) : schema;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(typeof schema === 'boolean' ? schema : (anchorRefs(schema, DOCUMENT_ID) as SchemaObject));
      this.compiled.set(key, validate);
    }
    return validate;
  }
}
const TRUE_KEY = {};
const FALSE_KEY = {};

/** One arbitrary's construction: the schema walked, references resolved, allOf merged. */
class Builder {
  constructor(
    private readonly owner: JsonSchemaArbitraries,
    private readonly options: ArbitraryOptions,
  ) {}

  of(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    if (depth > MAX_DEPTH) throw new Error(`Schema nested deeper than ${MAX_DEPTH}: does it refer to itself? ${describe(schema)}`);
    const flat = this.flatten(schema, depth);
    if (flat === false) throw new Error('No value is valid against the schema `false`');
    if (flat === true) return anyJson;
    for (const key of Object.keys(flat)) {
      if (!KNOWN.has(key) && !isAnnotation(key)) throw new Error(`Unsupported JSON Schema keyword "${key}" in ${describe(flat)}`);
    }
    if ('if' in flat) return this.conditional(flat, depth);
    if (Array.isArray(flat.anyOf) || Array.isArray(flat.oneOf)) return this.alternatives(flat, depth);
    let arbitrary = this.plain(flat, depth);
    if (flat.not !== undefined) {
      const not = flat.not as JsonSchema;
      arbitrary = arbitrary.filter((value) => !this.owner.validates(not, value));
    }
    return arbitrary;
  }

  /** The schema with its `$ref` resolved and its `allOf` merged into it, at the top level. */
  private flatten(schema: JsonSchema, depth: number): JsonSchema {
    if (typeof schema === 'boolean') return schema;
    if (depth > MAX_DEPTH) throw new Error(`Schema nested deeper than ${MAX_DEPTH}: does it refer to itself? ${describe(schema)}`);
    let flat: JsonSchema = schema;
    if (typeof schema.$ref === 'string') {
      const { $ref, ...rest } = schema;
      const target = this.flatten(this.owner.resolve($ref), depth + 1);
      flat = Object.keys(rest).some((key) => !isAnnotation(key)) ? merge(target, this.flatten(rest, depth + 1)) : target;
    }
    if (isObject(flat) && Array.isArray(flat.allOf)) {
      const { allOf, ...rest } = flat;
      flat = (allOf as JsonSchema[]).reduce<JsonSchema>(
        (merged, branch) => merge(merged, this.flatten(branch, depth + 1)),
        this.flatten(rest, depth + 1),
      );
    }
    return flat;
  }

  /** if/then/else: a value of the base with `then`, or with `else`, kept when the one the value's `if` picks holds. */
  private conditional(schema: SchemaObject, depth: number): fc.Arbitrary<unknown> {
    const { if: condition, then: consequent, else: alternative, ...base } = schema;
    const thenSchema = (consequent ?? true) as JsonSchema;
    const elseSchema = (alternative ?? true) as JsonSchema;
    return fc
      .oneof(this.of(merge(base, thenSchema), depth + 1), this.of(merge(base, elseSchema), depth + 1))
      .filter((value) => this.owner.validates(this.owner.validates(condition as JsonSchema, value) ? thenSchema : elseSchema, value));
  }

  /** anyOf / oneOf: a value of one branch (with the schema's other keywords); oneOf keeps those valid against exactly one. */
  private alternatives(schema: SchemaObject, depth: number): fc.Arbitrary<unknown> {
    const { anyOf, oneOf, ...rest } = schema;
    if (anyOf !== undefined && oneOf !== undefined) {
      // Both at once: a value of an anyOf branch, checked against the whole schema.
      return this.of({ ...rest, anyOf }, depth + 1).filter((value) => this.owner.validates({ oneOf }, value));
    }
    const branches = (anyOf ?? oneOf) as JsonSchema[];
    const arbitrary = fc.oneof(...branches.map((branch) => this.of(merge(rest, this.flatten(branch, depth + 1)), depth + 1)));
    if (oneOf === undefined) return arbitrary;
    return arbitrary.filter((value) => branches.filter((branch) => this.owner.validates(branch, value)).length === 1);
  }

  /** A schema without composition: by const, enum, or type. */
  private plain(schema: SchemaObject, depth: number): fc.Arbitrary<unknown> {
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) {
      if (schema.enum.length === 0) throw new Error(`Empty enum in ${describe(schema)}`);
      return fc.constantFrom(...(schema.enum as unknown[]));
    }
    const types = typeOf(schema);
    if (types.length === 0) throw new Error(`No type satisfies ${describe(schema)}`);
    if (types.length > 1) return fc.oneof(...types.map((type) => this.ofType(type, schema, depth)));
    return this.ofType(types[0], schema, depth);
  }

  private ofType(type: string, schema: SchemaObject, depth: number): fc.Arbitrary<unknown> {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return integerOf(schema);
      case 'number':
        return numberOf(schema);
      case 'string':
        return stringOf(schema);
      case 'array':
        return this.arrayOf(schema, depth);
      case 'object':
        return this.objectOf(schema, depth);
      default:
        throw new Error(`Unknown type "${type}" in ${describe(schema)}`);
    }
  }

  private arrayOf(schema: SchemaObject, depth: number): fc.Arbitrary<unknown[]> {
    const items = this.of((schema.items ?? true) as JsonSchema, depth + 1);
    const { minLength, maxLength } = this.sizes(schema.minItems, schema.maxItems);
    return schema.uniqueItems === true
      ? fc.uniqueArray(items, { minLength, maxLength, selector: (value) => JSON.stringify(value) })
      : fc.array(items, { minLength, maxLength });
  }

  private objectOf(schema: SchemaObject, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    // `not: { required: [...] }` (a notice's data without previousId): those properties are left out.
    const not = schema.not;
    const forbidden = new Set(isObject(not) && Array.isArray(not.required) ? (not.required as string[]) : []);
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [name, property] of Object.entries(properties)) {
      if (forbidden.has(name) && !required.has(name)) continue;
      model[name] = this.of(property, depth + 1);
    }
    const additional = (schema.additionalProperties ?? true) as JsonSchema;
    for (const name of required) {
      if (!(name in model)) {
        if (additional === false) throw new Error(`Required property "${name}" is not allowed by ${describe(schema)}`);
        model[name] = this.of(additional, depth + 1);
      }
    }
    const requiredKeys = this.options.maximal ? Object.keys(model) : Object.keys(model).filter((name) => required.has(name));
    const record = fc.record(model, { requiredKeys, noNullPrototype: true });
    const extraRoom = (schema.maxProperties === undefined ? Infinity : Number(schema.maxProperties)) - Object.keys(model).length;
    // Further properties only where the schema describes them (a map such as Metadata).
    const mapped = isObject(additional) && extraRoom > 0;
    let arbitrary: fc.Arbitrary<Record<string, unknown>> = record;
    if (mapped) {
      const { minLength, maxLength } = this.sizes(undefined, extraRoom);
      const names = this.of((schema.propertyNames ?? { type: 'string', minLength: 1, maxLength: 12 }) as JsonSchema, depth + 1).filter(
        (name): name is string => typeof name === 'string' && !(name in properties) && !forbidden.has(name),
      );
      const extras = fc.dictionary(names, this.of(additional, depth + 1), {
        minKeys: minLength,
        maxKeys: maxLength,
        noNullPrototype: true,
      });
      arbitrary = fc.tuple(record, extras).map(([known, more]) => ({ ...more, ...known }));
    } else if (schema.propertyNames !== undefined) {
      const names = schema.propertyNames as JsonSchema;
      arbitrary = arbitrary.filter((value) => Object.keys(value).every((name) => this.owner.validates(names, name)));
    }
    if (schema.minProperties !== undefined) {
      const least = Number(schema.minProperties);
      arbitrary = arbitrary.filter((value) => Object.keys(value).length >= least);
    }
    return arbitrary;
  }

  /** The sizes of an array or a map: from its minimum to a few more, at least one when maximal. */
  private sizes(least: unknown, most: unknown): { minLength: number; maxLength: number } {
    const max = most === undefined ? Infinity : Number(most);
    const min = Math.min(Math.max(Number(least ?? 0), this.options.maximal ? 1 : 0), max);
    return { minLength: min, maxLength: Math.min(max, min + EXTRA_ENTRIES) };
  }
}

/** The types a schema allows: its `type`, or what its keywords imply when it has none. */
function typeOf(schema: SchemaObject): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (['properties', 'required', 'additionalProperties', 'propertyNames', 'minProperties', 'maxProperties'].some((k) => k in schema))
    return ['object'];
  if (['items', 'minItems', 'maxItems', 'uniqueItems'].some((k) => k in schema)) return ['array'];
  if (['format', 'pattern', 'minLength', 'maxLength'].some((k) => k in schema)) return ['string'];
  if (['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].some((k) => k in schema)) return ['number'];
  return ['null', 'boolean', 'integer', 'string'];
}

function bounds(schema: SchemaObject, integer: boolean): { min: number; max: number } {
  const step = integer ? 1 : Number.EPSILON;
  let min = schema.minimum === undefined ? -1_000_000 : Number(schema.minimum);
  let max = schema.maximum === undefined ? 1_000_000 : Number(schema.maximum);
  if (schema.exclusiveMinimum !== undefined) min = Math.max(min, Number(schema.exclusiveMinimum) + step);
  if (schema.exclusiveMaximum !== undefined) max = Math.min(max, Number(schema.exclusiveMaximum) - step);
  if (schema.minimum !== undefined && schema.maximum === undefined) max = Math.max(min, 0) + 1_000_000;
  if (schema.maximum !== undefined && schema.minimum === undefined) min = Math.min(max, 0) - 1_000_000;
  if (integer) {
    min = Math.ceil(min);
    max = Math.floor(max);
  }
  if (min > max) throw new Error(`No number satisfies ${describe(schema)}`);
  return { min, max };
}

const integerOf = (schema: SchemaObject) => fc.integer(bounds(schema, true));
const numberOf = (schema: SchemaObject) => fc.double({ ...bounds(schema, false), noNaN: true, noDefaultInfinity: true });

function stringOf(schema: SchemaObject): fc.Arbitrary<string> {
  const minLength = Number(schema.minLength ?? 0);
  const maxLength = schema.maxLength === undefined ? Infinity : Number(schema.maxLength);
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
  let arbitrary: fc.Arbitrary<string>;
  if (typeof schema.format === 'string') {
    const formatted = FORMATS[schema.format];
    if (!formatted) throw new Error(`Unsupported format "${schema.format}" in ${describe(schema)}`);
    arbitrary = pattern ? formatted.filter((value) => pattern.test(value)) : formatted;
  } else if (pattern) {
    arbitrary = fc.stringMatching(pattern);
  } else {
    return fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 20) });
  }
  return arbitrary.filter((value) => [...value].length >= minLength && [...value].length <= maxLength);
}

/** Small JSON values, for a schema that allows any (`true`). */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -1000, max: 1000 }),
  fc.string({ maxLength: 10 }),
);

/**
 * Two schemas as one that allows what both allow (allOf), for the keywords the documents combine:
 * properties (a property in both gets both), required, type, enum, const, bounds. Keywords the two
 * give differently and that cannot be combined (two patterns, two anyOfs) are refused.
 */
export function merge(a: JsonSchema, b: JsonSchema): JsonSchema {
  if (a === false || b === false) return false;
  if (a === true) return b;
  if (b === true) return a;
  const out: SchemaObject = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (isAnnotation(key)) continue;
    if (!(key in out)) {
      out[key] = value;
      continue;
    }
    const previous = out[key];
    if (sameJson(previous, value)) continue;
    switch (key) {
      case 'properties': {
        const properties: Record<string, JsonSchema> = { ...(previous as Record<string, JsonSchema>) };
        for (const [name, schema] of Object.entries(value as Record<string, JsonSchema>)) {
          properties[name] = name in properties ? { allOf: [properties[name], schema] } : schema;
        }
        out.properties = properties;
        break;
      }
      case 'required':
        out.required = [...new Set([...(previous as string[]), ...(value as string[])])];
        break;
      case 'type': {
        const left = ([] as unknown[]).concat(previous);
        const right = ([] as unknown[]).concat(value);
        // An integer is a number.
        out.type = left.flatMap((type) =>
          right.includes(type)
            ? [type]
            : type === 'number' && right.includes('integer')
              ? ['integer']
              : type === 'integer' && right.includes('number')
                ? ['integer']
                : [],
        );
        break;
      }
      case 'enum':
        out.enum = (previous as unknown[]).filter((item) => (value as unknown[]).some((other) => sameJson(item, other)));
        break;
      case 'minimum':
      case 'exclusiveMinimum':
      case 'minLength':
      case 'minItems':
      case 'minProperties':
        out[key] = Math.max(Number(previous), Number(value));
        break;
      case 'maximum':
      case 'exclusiveMaximum':
      case 'maxLength':
      case 'maxItems':
      case 'maxProperties':
        out[key] = Math.min(Number(previous), Number(value));
        break;
      case 'additionalProperties':
        out.additionalProperties = previous === false || value === false ? false : { allOf: [previous, value] };
        break;
      case 'allOf':
        out.allOf = [...(previous as JsonSchema[]), ...(value as JsonSchema[])];
        break;
      default:
        // Two consts, patterns, formats, anyOfs...: not in the documents, and not combined here.
        throw new Error(`Cannot combine "${key}": ${JSON.stringify(previous)} and ${JSON.stringify(value)}`);
    }
  }
  return out;
}

function describe(schema: unknown): string {
  const text = JSON.stringify(schema, (key, value: unknown) => (isAnnotation(key) ? undefined : value));
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
