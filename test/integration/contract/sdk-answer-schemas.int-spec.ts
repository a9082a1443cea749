import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { operationsById, resolveRef, type OpenApiDocument } from '#contract/openapi-document.js';
import { ServedContract } from '#contract/served-contract.js';
import { AnswerShaper } from '#contract/versions/answer-shaper.js';
import { API_VERSIONS, CURRENT_API_VERSION, type ApiVersion } from '#contract/versions/api-versions.js';
import { JsonSchemaArbitraries, type JsonSchema } from '../../utils/json-schema-arbitrary.js';

/**
 * The answers' JSON Schemas the SDK ships for strict clients (libs/sdk/schemas/v<version>.json, by
 * scripts/sdk-schemas.mjs; docs/partners.md "Strict clients"): one file per published version,
 * taken by Ajv in strict mode as it is, with an entry for every answer body of that version's
 * document; and an answer the server shapes for a version (generated from the current document's
 * schemas, as in version-shaping.int-spec.ts, then AnswerShaper.shapeAnswer) validates against the
 * file of that version.
 */

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const SEED = 1_795_830_000;
const RUNS = 3;

const contract = new ServedContract();
const shaper = new AnswerShaper(contract);
const current = contract.published(CURRENT_API_VERSION).document;
const generator = new JsonSchemaArbitraries(current);

interface Bundle {
  $id: string;
  $defs: Record<string, unknown>;
}
const bundleOf = (version: ApiVersion): Bundle =>
  JSON.parse(readFileSync(join(process.cwd(), 'libs', 'sdk', 'schemas', `v${version}.json`), 'utf8')) as Bundle;

/** What the SDK README tells a strict client to write. */
function strictValidator(bundle: Bundle): (operationId: string, status: string) => ValidateFunction {
  const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true })).addSchema(bundle);
  return (operationId, status) => ajv.getSchema(`${bundle.$id}#/$defs/${operationId}.${status}`)!;
}

const JSON_MEDIA = ['application/json', 'application/problem+json'];
/** Every (operation, status) with a JSON body in a document, and its schema there. */
function answersOf(document: OpenApiDocument): { operationId: string; status: string; schema: JsonSchema }[] {
  return [...operationsById(document)].flatMap(([operationId, { operation }]) =>
    Object.entries(operation.responses).flatMap(([status, declared]) => {
      const content = resolveRef<{ content?: Record<string, { schema?: JsonSchema }> }>(document, declared).content ?? {};
      const media = JSON_MEDIA.find((type) => content[type]?.schema !== undefined);
      return media === undefined ? [] : [{ operationId, status, schema: content[media].schema! }];
    }),
  );
}

/**
 * GET /me shows the key as it is (docs/design-record.md#d13): a test key's prefix and scopes added
 * after 1.2.0, which the 1.2.0 document does not describe. A generated key is made one of 1.2.0's.
 */
function asA120Key(version: ApiVersion, operationId: string, body: unknown): unknown {
  if (version !== '1.2.0' || operationId !== 'getMe' || body === null || typeof body !== 'object') return body;
  const { key } = body as { key?: { prefix?: string; scopes?: { scope: string }[] } };
  if (key === undefined) return body;
  const known = [
    'appointments.read',
    'appointments.write',
    'clients.read',
    'clients.write',
    'services.read',
    'payments.read',
    'sales.read',
  ];
  return {
    ...body,
    key: { ...key, prefix: key.prefix?.replace(/^rk_test_/, 'rk_live_'), scopes: key.scopes?.filter(({ scope }) => known.includes(scope)) },
  };
}

describe.each(API_VERSIONS)("the SDK's answer schemas of %s", (version) => {
  const bundle = bundleOf(version);
  const validator = strictValidator(bundle);
  const own = answersOf(contract.published(version).document);

  it('has every answer body of its document, and Ajv in strict mode compiles each', () => {
    const entries = Object.keys(bundle.$defs).filter((name) => name.includes('.'));
    expect(entries.sort()).toEqual(own.map(({ operationId, status }) => `${operationId}.${status}`).sort());
    for (const { operationId, status } of own) expect(typeof validator(operationId, status)).toBe('function');
  });

  // The operations and statuses this version's document has, answered by the current server.
  const shaped = answersOf(current).filter(({ operationId, status }) =>
    own.some((answer) => answer.operationId === operationId && answer.status === status),
  );
  it.each(shaped)('validates $operationId $status as the server shapes it for this version', ({ operationId, status, schema }) => {
    const validate = validator(operationId, status);
    for (const maximal of [true, false]) {
      fc.assert(
        fc.property(generator.arbitrary(schema, { maximal }), (body) => {
          const answer = asA120Key(version, operationId, shaper.shapeAnswer(version, operationId, Number(status), body));
          if (!validate(answer)) {
            throw new Error(`${JSON.stringify(validate.errors)}\n  answer: ${JSON.stringify(answer)}`);
          }
        }),
        { seed: SEED, numRuns: RUNS },
      );
    }
  });
});

describe('a strict client of an older version', () => {
  it("refuses an answer of a later version's shape: GET /me with authentication, unshaped, against 1.4.0", () => {
    const validate = strictValidator(bundleOf('1.4.0'))('getMe', '200');
    const me = answersOf(current).find(({ operationId, status }) => operationId === 'getMe' && status === '200')!;
    const [body] = fc.sample(generator.arbitrary(me.schema, { maximal: true }), { seed: SEED, numRuns: 1 }) as Record<string, unknown>[];
    const { authentication, ...without } = body;
    expect(authentication).toBeDefined();
    expect(validate({ ...without, key: { ...(without.key as object), apiVersion: '1.4.0' } })).toBe(true);
    expect(validate({ ...without, key: { ...(without.key as object), apiVersion: '1.4.0' }, authentication })).toBe(false);
  });
});
