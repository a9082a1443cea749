import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
// The rules are a plain ES module of scripts/ (run by npm, outside the compiled tree), so neither
// an alias nor type declarations reach them.
// @ts-expect-error no type declarations
// eslint-disable-next-line no-restricted-imports
import * as rules from '../../scripts/contract-compat-rules.mjs';

type Doc = Record<string, unknown>;
const { ALLOWED_NARROWINGS, ALLOWED_RELAXATIONS, compatibilityProblems, requestCompatibility } = rules as Record<string, unknown>;
const check = compatibilityProblems as (frozen: Doc, current: Doc, options?: { responses: boolean }) => string[];
type Exception = { version: string; at: string[]; keyword: string; to: unknown; from?: unknown; reason: string };
type Narrowing = { operation: string; part: string; path: string; at: string; keyword: string };
const compare = requestCompatibility as (
  frozen: Doc,
  current: Doc,
) => { allowed: { narrowing: Narrowing; exception: Exception }[]; refused: string[] };
const exceptions = [...(ALLOWED_NARROWINGS as Exception[]), ...(ALLOWED_RELAXATIONS as Exception[])];
const published = (version: string) => parse(readFileSync(`openapi/v${version}.yaml`, 'utf8')) as Doc;

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
    expect(check(published('1.2.0'), published('1.3.0'))).toEqual([]);
  });
});

/**
 * A small document of requests: GET /things with a shared `limit` parameter, a `status` enum and a
 * header; POST /things with a closed body reached through `$ref`, a oneOf of two owner forms, an
 * allOf around a note, an open object and a nullable count.
 */
function requests(change: (d: ReturnType<typeof requestBase>) => void = () => undefined): Doc {
  const d = requestBase();
  change(d);
  return d;
}

function requestBase() {
  return {
    openapi: '3.1.0',
    info: { version: '9.1.0' },
    paths: {
      '/things': {
        get: {
          parameters: [
            { $ref: '#/components/parameters/Limit' } as Record<string, unknown>,
            { name: 'status', in: 'query', required: false, schema: { $ref: '#/components/schemas/Status' } } as Record<string, unknown>,
            { name: 'X-Trace', in: 'header', required: false, schema: { type: 'string' } } as Record<string, unknown>,
          ],
          responses: {},
        },
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewThing' } } } },
          responses: {},
        },
      },
    },
    components: {
      parameters: {
        Limit: { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } } as Record<
          string,
          unknown
        >,
      },
      schemas: {
        Status: { type: 'string', enum: ['ON', 'OFF'] },
        Note: { type: 'string', maxLength: 500 } as Record<string, unknown>,
        NewThing: {
          type: 'object',
          additionalProperties: false as boolean,
          required: ['name'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 120 },
            tags: { type: 'array', items: { type: 'string' }, maxItems: 10 },
            price: { type: 'number', exclusiveMinimum: 0, maximum: 1000 },
            count: { type: ['integer', 'null'] },
            owner: { oneOf: [{ $ref: '#/components/schemas/ExistingOwner' }, { $ref: '#/components/schemas/NewOwner' }] },
            note: { allOf: [{ $ref: '#/components/schemas/Note' }], description: 'A note.' },
            extra: { type: 'object', properties: { label: { type: 'string' } } },
          } as Record<string, Record<string, unknown>>,
        },
        ExistingOwner: {
          type: 'object',
          additionalProperties: false,
          required: ['id'],
          properties: { id: { type: 'string', format: 'uuid' } },
        },
        NewOwner: {
          type: 'object',
          additionalProperties: false,
          required: ['name'],
          properties: { name: { type: 'string' } as Record<string, unknown> },
        },
      },
    },
  };
}

type RequestDoc = ReturnType<typeof requestBase>;
const body = (d: RequestDoc) => d.components.schemas.NewThing.properties;
const getThings = (d: RequestDoc) => d.paths['/things'].get.parameters;

describe('request narrowings (docs/design-record.md#d13: a request accepted then is accepted now)', () => {
  const cases: [string, (d: RequestDoc) => void, string][] = [
    [
      'a lower maxLength',
      (d) => void (body(d).name.maxLength = 100),
      'POST /things request body application/json /properties/name: maxLength 120 became 100 (#/components/schemas/NewThing/properties/name)',
    ],
    [
      'a higher minLength',
      (d) => void (body(d).name.minLength = 2),
      'POST /things request body application/json /properties/name: minLength 1 became 2 (#/components/schemas/NewThing/properties/name)',
    ],
    [
      'a lower maxItems',
      (d) => void (body(d).tags.maxItems = 5),
      'POST /things request body application/json /properties/tags: maxItems 10 became 5 (#/components/schemas/NewThing/properties/tags)',
    ],
    [
      'a new minItems',
      (d) => void (body(d).tags.minItems = 1),
      'POST /things request body application/json /properties/tags: minItems added 1 (#/components/schemas/NewThing/properties/tags)',
    ],
    [
      'a lower maximum',
      (d) => void (body(d).price.maximum = 999),
      'POST /things request body application/json /properties/price: upper bound maximum 1000 became maximum 999 (#/components/schemas/NewThing/properties/price)',
    ],
    [
      'a maximum made exclusive',
      (d) => {
        delete body(d).price.maximum;
        body(d).price.exclusiveMaximum = 1000;
      },
      'POST /things request body application/json /properties/price: upper bound maximum 1000 became exclusiveMaximum 1000 (#/components/schemas/NewThing/properties/price)',
    ],
    [
      'an exclusive minimum raised',
      (d) => void (body(d).price.exclusiveMinimum = 1),
      'POST /things request body application/json /properties/price: lower bound exclusiveMinimum 0 became exclusiveMinimum 1 (#/components/schemas/NewThing/properties/price)',
    ],
    [
      'a higher minimum on a shared query parameter',
      (d) => void ((d.components.parameters.Limit.schema as Record<string, unknown>).minimum = 5),
      'GET /things query parameter limit: lower bound minimum 1 became minimum 5 (#/components/parameters/Limit/schema)',
    ],
    [
      'a format added',
      (d) => void (body(d).name.format = 'email'),
      'POST /things request body application/json /properties/name: format added ("email") (#/components/schemas/NewThing/properties/name)',
    ],
    [
      'a format changed, inside a oneOf branch',
      (d) => void (d.components.schemas.ExistingOwner.properties.id.format = 'uri'),
      'POST /things request body application/json /properties/owner/oneOf/0/properties/id: format "uuid" became "uri" (#/components/schemas/ExistingOwner/properties/id)',
    ],
    [
      'a pattern added, inside a oneOf branch',
      (d) => void (d.components.schemas.NewOwner.properties.name.pattern = '^[A-Z]'),
      'POST /things request body application/json /properties/owner/oneOf/1/properties/name: pattern added ("^[A-Z]") (#/components/schemas/NewOwner/properties/name)',
    ],
    [
      'an enum value removed from a query parameter',
      (d) => void (d.components.schemas.Status.enum = ['ON']),
      'GET /things query parameter status: lost the value "OFF" (#/components/schemas/Status)',
    ],
    [
      'a property newly required',
      (d) => void d.components.schemas.NewThing.required.push('tags'),
      'POST /things request body application/json: property "tags" newly required (#/components/schemas/NewThing)',
    ],
    [
      'additionalProperties newly false',
      (d) => void (body(d).extra.additionalProperties = false),
      'POST /things request body application/json /properties/extra: other properties now refused (additionalProperties: false) (#/components/schemas/NewThing/properties/extra)',
    ],
    [
      'a property removed from a closed object',
      (d) => void delete (body(d) as Record<string, unknown>).tags,
      'POST /things request body application/json /properties/tags: property removed (now refused) (#/components/schemas/NewThing)',
    ],
    [
      'a type narrowed',
      (d) => void (body(d).count.type = 'integer'),
      'POST /things request body application/json /properties/count: type narrowed from ["integer","null"] to "integer" (#/components/schemas/NewThing/properties/count)',
    ],
    [
      'a parameter newly required',
      (d) => void (getThings(d)[2].required = true),
      'GET /things header parameter X-Trace: parameter newly required (#/paths/~1things/get/parameters/2)',
    ],
    [
      'a new required parameter',
      (d) => void getThings(d).push({ name: 'region', in: 'query', required: true, schema: { type: 'string' } }),
      'GET /things query parameter region: new required parameter (#/paths/~1things/get/parameters/3)',
    ],
    ['a parameter removed', (d) => void getThings(d).splice(1, 1), 'GET /things query parameter status: parameter removed'],
    [
      'a lower maxLength through allOf',
      (d) => void (d.components.schemas.Note.maxLength = 200),
      'POST /things request body application/json /properties/note: maxLength 500 became 200 (#/components/schemas/NewThing/properties/note)',
    ],
    [
      'a new property of an open object, constrained',
      (d) => void (body(d).extra.properties = { label: { type: 'string' }, size: { type: 'integer' } }),
      'POST /things request body application/json /properties/extra/properties/size: type narrowed from "any" to "integer" (#/components/schemas/NewThing/properties/extra/properties/size)',
    ],
    [
      'a media type no longer accepted',
      (d) => void (d.paths['/things'].post.requestBody.content = {} as never),
      'POST /things request body application/json: media type no longer accepted (#/paths/~1things/post/requestBody)',
    ],
  ];

  it.each(cases)('refuses %s, naming the versions, where and what', (_, change, problem) => {
    expect(check(requests(), requests(change))).toEqual([`9.1.0 → 9.1.0 ${problem}`]);
  });

  it('accepts every widening: higher maxima, lower minima, formats and patterns dropped, new values, optional fields and parameters', () => {
    const later = requests((d) => {
      Object.assign(body(d).name, { maxLength: 200, minLength: 0 });
      body(d).tags.maxItems = 20;
      body(d).price = { type: 'number', minimum: 0 };
      body(d).count.type = ['number', 'null'];
      body(d).colour = { type: 'string', maxLength: 10 };
      d.components.schemas.NewThing.required = [];
      d.components.schemas.Status.enum.push('BROKEN');
      d.components.schemas.ExistingOwner.properties = { id: { type: 'string' } } as never;
      (body(d).owner.oneOf as unknown[]).push({ $ref: '#/components/schemas/Status' });
      d.components.schemas.Note.maxLength = 1000;
      body(d).extra.additionalProperties = true;
      d.components.parameters.Limit.schema = { type: 'integer', minimum: 0, maximum: 500 };
      getThings(d).push({ name: 'region', in: 'query', required: false, schema: { type: 'string', pattern: '^[a-z]+$' } });
      d.paths['/things'].post.requestBody.required = false;
    });
    expect(check(requests(), later)).toEqual([]);
  });

  it('allows a listed narrowing only in its version, at its place and to its value', () => {
    const uri = (version: string, at: 'url' | 'name', format = 'uri') =>
      requests((d) => {
        d.info.version = version;
        (d.components.schemas as Record<string, unknown>).WebhookUrl = { type: 'string', maxLength: 2048 };
        body(d).url = { $ref: '#/components/schemas/WebhookUrl' };
        if (at === 'url') (d.components.schemas as Record<string, Record<string, unknown>>).WebhookUrl.format = format;
        else body(d).name.format = format;
      });
    expect(compare(uri('1.3.0', 'url'), uri('1.4.0', 'url')).refused).toEqual([]);
    expect(compare(uri('1.4.0', 'url'), uri('1.5.0', 'url', 'hostname')).refused).toEqual([
      '1.4.0 → 1.5.0 POST /things request body application/json /properties/url: format "uri" became "hostname" (#/components/schemas/WebhookUrl)',
    ]);
    expect(compare(uri('1.3.0', 'url', 'hostname'), uri('1.4.0', 'url', 'hostname')).refused).toEqual([]);
    expect(compare(uri('1.3.0', 'name', 'email'), uri('1.4.0', 'name', 'uri')).refused).toEqual([
      '1.3.0 → 1.4.0 POST /things request body application/json /properties/name: format "email" became "uri" (#/components/schemas/NewThing/properties/name)',
    ]);
  });

  it('passes for the published documents with exactly the listed exceptions, each used at every place it names', () => {
    const uses = [compare(published('1.2.0'), published('1.3.0')), compare(published('1.3.0'), published('1.4.0'))];
    expect(uses.flatMap((use) => use.refused)).toEqual([]);
    expect(check(published('1.3.0'), published('1.4.0'), { responses: false })).toEqual([]);
    const used = new Set(uses.flatMap((use) => use.allowed.map(({ narrowing, exception }) => `${exception.version} ${narrowing.at}`)));
    expect([...used].sort()).toEqual(exceptions.flatMap((exception) => exception.at.map((at) => `${exception.version} ${at}`)).sort());
    expect(exceptions.every((exception) => exception.reason.length > 0)).toBe(true);
  });

  it("lists 1.4.0's narrowings: cursor's minLength and the webhook address's format", () => {
    const narrowedIn140 = (ALLOWED_NARROWINGS as Exception[]).filter((exception) => exception.version === '1.4.0');
    expect(narrowedIn140.map(({ at, keyword, to }) => ({ at, keyword, to }))).toEqual([
      { at: ['#/components/parameters/Cursor/schema'], keyword: 'minLength', to: 1 },
      { at: ['#/components/schemas/WebhookUrl'], keyword: 'format', to: 'uri' },
    ]);
  });
});
