import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
// The rules are a plain ES module of scripts/ (run by npm, outside the compiled tree), so neither
// an alias nor type declarations reach them.
// @ts-expect-error no type declarations
// eslint-disable-next-line no-restricted-imports
import { compatibilityProblems } from '../../scripts/contract-compat-rules.mjs';

type Doc = Record<string, unknown>;
const check = compatibilityProblems as (frozen: Doc, current: Doc) => string[];

/** A small document: GET /me (x-scope-list-grows) with a scope enum, GET /things with a closed Thing, one notice. */
function doc(change: (d: ReturnType<typeof base>) => void = () => undefined): Doc {
  const d = base();
  change(d);
  return d;
}

function base() {
  return {
    openapi: '3.1.0',
    paths: {
      '/me': {
        get: {
          operationId: 'getMe',
          'x-scope-list-grows': true,
          responses: {
            '200': {
              description: 'The key.',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    additionalProperties: false,
                    properties: {
                      prefix: { type: 'string', pattern: '^rk_live_[0-9A-Za-z]{4}$' },
                      scopes: { type: 'array', items: { $ref: '#/components/schemas/Scope' } },
                    },
                  },
                },
              },
            },
          },
        },
      },
      '/things': {
        get: {
          operationId: 'listThings',
          responses: {
            '200': { description: 'Things.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          },
        },
      },
    },
    webhooks: {
      'thing.created': {
        post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Notice' } } } }, responses: {} },
      },
    },
    components: {
      schemas: {
        Scope: { type: 'string', enum: ['things.read'] },
        Status: { type: 'string', enum: ['ON', 'OFF'] },
        Thing: {
          type: 'object',
          description: 'A thing.',
          additionalProperties: false,
          required: ['id'],
          properties: { id: { type: 'string' }, status: { $ref: '#/components/schemas/Status' } },
        },
        Notice: { type: 'object', additionalProperties: false, properties: { id: { type: 'string' } } },
      },
    },
  };
}

describe('contract:compat rules (docs/design-record.md#d13)', () => {
  it('accepts new operations, reworded prose and new scopes in GET /me', () => {
    const later = doc((d) => {
      (d.paths as Record<string, unknown>)['/others'] = { get: { operationId: 'listOthers', responses: {} } };
      d.components.schemas.Thing.description = 'A thing, described better.';
      d.components.schemas.Scope.enum.push('things.write');
    });
    expect(check(doc(), later)).toEqual([]);
  });

  it("lets GET /me's key prefix pattern widen to test keys (docs/design-record.md#d19), and nothing else's", () => {
    type MeSchema = { properties: { prefix: { pattern: string } } };
    const me = (d: ReturnType<typeof base>) =>
      (d.paths['/me'].get.responses['200'].content['application/json'].schema as unknown as MeSchema).properties.prefix;
    expect(
      check(
        doc(),
        doc((d) => void (me(d).pattern = '^rk_(live|test)_[0-9A-Za-z]{4}$')),
      ),
    ).toEqual([]);
    expect(
      check(
        doc(),
        doc((d) => void (me(d).pattern = '^rk_test_[0-9A-Za-z]{4}$')),
      ),
    ).toEqual(['GET /me 200 application/json/properties/prefix/pattern: "^rk_live_[0-9A-Za-z]{4}$" became "^rk_test_[0-9A-Za-z]{4}$"']);
    const later = doc((d) => {
      (d.components.schemas.Thing.properties as Record<string, unknown>).id = { type: 'string', pattern: '^x' };
    });
    expect(check(doc(), later)).toEqual(['GET /things 200 application/json/properties/id/pattern: added']);
  });

  it('refuses a new field in a 1.2.0 response, even an optional one', () => {
    const later = doc((d) => {
      (d.components.schemas.Thing.properties as Record<string, unknown>).colour = { type: 'string' };
    });
    expect(check(doc(), later)).toEqual(['GET /things 200 application/json/properties/colour: added']);
  });

  it('refuses a removed field, a removed operation and a new enum value in a response', () => {
    const later = doc((d) => {
      delete (d.components.schemas.Thing.properties as Record<string, unknown>).id;
      d.components.schemas.Status.enum.push('BROKEN');
      delete (d.paths as Record<string, unknown>)['/me'];
    });
    expect(check(doc(), later).sort()).toEqual([
      'GET /me: removed',
      'GET /things 200 application/json/properties/id: removed',
      'GET /things 200 application/json/properties/status/enum: ["ON","OFF"] became ["ON","OFF","BROKEN"]',
    ]);
  });

  it('refuses any change to a 1.2.0 notice, which Optic does not compare', () => {
    const later = doc((d) => {
      (d.components.schemas.Notice.properties as Record<string, unknown>).name = { type: 'string' };
    });
    expect(check(doc(), later)).toEqual(['notice thing.created/content/application/json/schema/properties/name: added']);
  });

  it('passes for the repository: 1.3.0 answers every 1.2.0 operation and notice as 1.2.0 says', () => {
    const read = (file: string) => parse(readFileSync(`openapi/${file}`, 'utf8')) as Doc;
    expect(check(read('v1.2.0.yaml'), read('v1.3.0.yaml'))).toEqual([]);
  });
});

describe('request patterns', () => {
  // Loaded as the rules module exports them; see the import above for why it is untyped.
  const withNamePattern = (pattern?: string): Doc => ({
    openapi: '3.1.0',
    paths: {
      '/clients': {
        post: {
          operationId: 'createClient',
          requestBody: {
            content: {
              'application/json': {
                schema: { type: 'object', properties: { name: { type: 'string', maxLength: 120, ...(pattern ? { pattern } : {}) } } },
              },
            },
          },
          responses: {},
        },
      },
    },
  });

  it('refuses a pattern added to a 1.2.0 request string, naming where', () => {
    expect(check(withNamePattern(), withNamePattern('^[a-z]*$'))).toEqual([
      'POST /clients request body/properties/name/pattern: added (^[a-z]*$)',
    ]);
  });

  it('allows only the narrowings listed with their reasons: control characters in single- and multi-line text', () => {
    expect(check(withNamePattern(), withNamePattern('^[^\\x00-\\x1F\\x7F]*$'))).toEqual([]);
    expect(check(withNamePattern(), withNamePattern('^[^\\x00-\\x08\\x0B-\\x1F\\x7F]*$'))).toEqual([]);
  });
});
