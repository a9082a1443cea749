import fc from 'fast-check';
import type { OpenApiDocument } from '#contract/openapi-document.js';
import { ServedContract } from '#contract/served-contract.js';
import { API_VERSIONS } from '#contract/versions/api-versions.js';
import { JsonSchemaArbitraries, merge, type JsonSchema } from '../../utils/json-schema-arbitrary.js';

/**
 * The generator of test/utils/json-schema-arbitrary.ts: each keyword it knows yields only valid
 * values, it refuses what it does not know, and every component schema of every published
 * document gets valid values from it, random and maximal. No database: it sits with the contract's
 * property test (version-shaping.int-spec.ts), which the import rules keep out of the libs.
 */

const SEED = 20_230_401;
const document = (schemas: Record<string, JsonSchema>): OpenApiDocument =>
  ({ openapi: '3.1.0', info: { title: 't', version: '0' }, paths: {}, components: { schemas } }) as unknown as OpenApiDocument;

/** Asserts that every generated value of `schema` is valid, random and maximal. */
function allValid(arbitraries: JsonSchemaArbitraries, schema: JsonSchema, numRuns = 30): void {
  for (const maximal of [false, true]) {
    fc.assert(
      fc.property(arbitraries.arbitrary(schema, { maximal }), (value) => {
        const problem = arbitraries.check(schema, value);
        if (problem !== undefined) throw new Error(`${problem}: ${JSON.stringify(value)}`);
      }),
      { seed: SEED, numRuns },
    );
  }
}

const sample = (arbitraries: JsonSchemaArbitraries, schema: JsonSchema, options = {}) =>
  fc.sample(arbitraries.arbitrary(schema, options), { seed: SEED, numRuns: 40 });

describe('JsonSchemaArbitraries', () => {
  const local = new JsonSchemaArbitraries(
    document({
      Named: {
        type: 'object',
        additionalProperties: false,
        required: ['id'],
        properties: { id: { type: 'string', format: 'uuid' }, n: { type: 'integer' } },
      },
      Kind: { type: 'string', enum: ['a', 'b', 'c'] },
    }),
  );

  it.each<[string, JsonSchema]>([
    ['types, a list of them and null', { type: ['string', 'null'], format: 'uuid' }],
    ['integers within bounds', { type: 'integer', minimum: 3, maximum: 9 }],
    ['exclusive bounds', { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }],
    ['strings of a pattern and length', { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,40}$', maxLength: 5 }],
    [
      'a timestamp: a format and a pattern',
      { type: 'string', format: 'date-time', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$' },
    ],
    ...['date', 'email', 'uri', 'uri-reference', 'json-pointer', 'time'].map((format): [string, JsonSchema] => [
      `format ${format}`,
      { type: 'string', format },
    ]),
    [
      'enum and const',
      { type: 'object', required: ['k', 'c'], properties: { k: { $ref: '#/components/schemas/Kind' }, c: { const: 'x' } } },
    ],
    ['closed objects with optional properties', { $ref: '#/components/schemas/Named' }],
    [
      'maps: additionalProperties, propertyNames, maxProperties',
      {
        type: 'object',
        maxProperties: 2,
        propertyNames: { pattern: '^[a-z]{1,3}$' },
        additionalProperties: { type: 'string', maxLength: 3 },
      },
    ],
    ['minProperties', { type: 'object', minProperties: 1, properties: { a: { type: 'boolean' }, b: { type: 'null' } } }],
    [
      'arrays: items, bounds, unique items',
      { type: 'array', minItems: 2, maxItems: 3, uniqueItems: true, items: { $ref: '#/components/schemas/Kind' } },
    ],
    [
      'allOf over a reference, narrowed',
      { allOf: [{ $ref: '#/components/schemas/Named' }, { type: 'object', properties: { n: { minimum: 0, maximum: 5 } } }] },
    ],
    ['anyOf', { anyOf: [{ $ref: '#/components/schemas/Kind' }, { type: 'string', const: 'webhook.test' }] }],
    [
      'oneOf (exactly one branch)',
      {
        oneOf: [
          { type: 'integer', minimum: 0, maximum: 10 },
          { type: 'integer', minimum: 5, maximum: 20 },
        ],
      },
    ],
    ['not', { type: 'integer', minimum: 0, maximum: 3, not: { const: 2 } }],
    [
      'if/then/else, and a property left out by not/required',
      {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'data'],
        properties: {
          type: { enum: ['moved', 'made'] },
          data: {
            type: 'object',
            additionalProperties: false,
            required: ['id'],
            properties: { id: { type: 'integer' }, previousId: { type: 'integer' } },
          },
        },
        if: { properties: { type: { const: 'moved' } } },
        then: { properties: { data: { required: ['previousId'] } } },
        else: { properties: { data: { not: { required: ['previousId'] } } } },
      },
    ],
  ])('makes valid values for %s', (_name, schema) => {
    allValid(local, schema);
  });

  it('leaves optional properties out at random, and puts every one in when maximal', () => {
    const random = sample(local, { $ref: '#/components/schemas/Named' }) as Record<string, unknown>[];
    expect(random.some((value) => !('n' in value))).toBe(true);
    expect(random.some((value) => 'n' in value)).toBe(true);
    const maximal = sample(local, { $ref: '#/components/schemas/Named' }, { maximal: true }) as Record<string, unknown>[];
    expect(maximal.every((value) => 'n' in value)).toBe(true);
    const lists = sample(local, { type: 'array', items: { type: 'boolean' } }, { maximal: true }) as unknown[][];
    expect(lists.every((list) => list.length >= 1)).toBe(true);
  });

  it('makes plain objects, as parsed JSON is', () => {
    for (const value of sample(local, { $ref: '#/components/schemas/Named' })) expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it('refuses a keyword, a format or a combination it does not know, rather than make values that may be invalid', () => {
    expect(() => local.arbitrary({ type: 'object', patternProperties: { '^a': { type: 'string' } } })).toThrow(
      /Unsupported JSON Schema keyword "patternProperties"/,
    );
    expect(() => local.arbitrary({ type: 'string', format: 'idn-email' })).toThrow(/Unsupported format "idn-email"/);
    expect(() => local.arbitrary({ allOf: [{ pattern: '^a' }, { pattern: '^b' }] })).toThrow(/Cannot combine "pattern"/);
    expect(() => local.arbitrary(false)).toThrow(/No value/);
  });

  it('merges schemas as allOf does', () => {
    expect(merge({ type: ['string', 'null'], required: ['a'] }, { type: 'string', required: ['b'], minLength: 2 })).toEqual({
      type: ['string'],
      required: ['a', 'b'],
      minLength: 2,
    });
    expect(merge({ properties: { a: { type: 'integer' } } }, { properties: { a: { minimum: 1 }, b: true } })).toEqual({
      properties: { a: { allOf: [{ type: 'integer' }, { minimum: 1 }] }, b: true },
    });
    expect(merge({ type: 'object', additionalProperties: false }, true)).toEqual({ type: 'object', additionalProperties: false });
  });

  it('checks without changing the value (the project Ajv fills in defaults)', () => {
    const value = {};
    expect(local.check({ type: 'object', properties: { a: { type: 'boolean', default: true } } }, value)).toBeUndefined();
    expect(value).toEqual({});
    expect(local.check({ type: 'integer' }, 'x')).toMatch(/must be integer/);
  });

  describe.each(API_VERSIONS)('every component schema of the %s document', (version) => {
    const published = new ServedContract().published(version).document;
    const arbitraries = new JsonSchemaArbitraries(published);
    const names = Object.keys(published.components.schemas ?? {});
    it.each(names)('%s', (name) => {
      allValid(arbitraries, { $ref: `#/components/schemas/${name}` }, 10);
    });
  });
});
