import fc from 'fast-check';
import { operationsById, resolveRef, type OpenApiDocument } from '#contract/openapi-document.js';
import { ServedContract } from '#contract/served-contract.js';
import { AnswerShaper } from '#contract/versions/answer-shaper.js';
import {
  API_VERSIONS,
  compareApiVersions,
  CURRENT_API_VERSION,
  laterApiVersion,
  type ApiVersion,
} from '#contract/versions/api-versions.js';
import { VERSION_CHANGES } from '#contract/versions/version-changes.js';
import { JsonSchemaArbitraries, type JsonSchema } from '../../utils/json-schema-arbitrary.js';

/**
 * The proof docs/design-record.md#d22 asks for: for every operation of the current document, every
 * documented status with a JSON body and every published version, a generated answer valid against
 * the current document, shaped for that version (shapeAnswer), validates against the document of
 * the version the caller is answered in (answerVersionOf); the same for every notice type
 * (shapeNotice). A field or value added to an answer without its declared change in
 * VERSION_CHANGES fails here, whatever the documents and the changes hold: both are read, not
 * listed. Also: shaping for the answer's own version (or any with no later change) is the identity,
 * and shaping never changes its input.
 *
 * No database; it is here rather than beside answer-shaper.ts because it uses the tests' generator
 * (test/utils/json-schema-arbitrary.ts), which a lib's files may not import.
 */

/** Fixed, so that a failure is the same on every run; fast-check prints it (and the path) on failure. */
const SEED = 1_795_730_000;
/** Random answers per pair, plus maximal ones (every optional field, every list non-empty). */
const RANDOM_RUNS = 4;
const MAXIMAL_RUNS = 2;

// Outside Nest: the core contract alone, as the API serves it with no extension enabled.
const contract = new ServedContract();
const shaper = new AnswerShaper(contract);
const documents = new Map<ApiVersion, OpenApiDocument>(API_VERSIONS.map((version) => [version, contract.published(version).document]));
const arbitraries = new Map<ApiVersion, JsonSchemaArbitraries>(
  API_VERSIONS.map((version) => [version, new JsonSchemaArbitraries(documents.get(version)!)]),
);
const current = documents.get(CURRENT_API_VERSION)!;

interface MediaObject {
  content?: Record<string, { schema?: JsonSchema }>;
}
const JSON_MEDIA = ['application/json', 'application/problem+json'];

/** The JSON body schema of a response or request body object, if it has one. */
function jsonSchemaOf(document: OpenApiDocument, declared: unknown): JsonSchema | undefined {
  if (declared === undefined) return undefined;
  const content = resolveRef<MediaObject>(document, declared).content ?? {};
  const media = JSON_MEDIA.find((type) => content[type]?.schema !== undefined);
  return media === undefined ? undefined : content[media].schema;
}

/** The response object a document gives an operation for a status: the status, its class (`4XX`), or `default`. */
function declaredResponse(document: OpenApiDocument, operationId: string, status: string): unknown {
  const responses = operationsById(document).get(operationId)?.operation.responses ?? {};
  return responses[status] ?? responses[`${status[0]}XX`] ?? responses.default;
}

/** A notice type's body schema in a document (its webhook's request body), if the document has the type. */
function noticeSchemaOf(document: OpenApiDocument, type: string): JsonSchema | undefined {
  const webhooks = (document as { webhooks?: Record<string, { post?: { requestBody?: unknown } }> }).webhooks ?? {};
  return jsonSchemaOf(document, webhooks[type]?.post?.requestBody);
}

/** The first published version whose document has the notice type (a later pin is shaped for its own). */
const noticeIntroducedIn = (type: string): ApiVersion =>
  API_VERSIONS.find((version) => noticeSchemaOf(documents.get(version)!, type) !== undefined) ?? CURRENT_API_VERSION;

/**
 * The version a status of an operation is answered in, at the earliest: the first published
 * document that declares it. A 400 that only the Api-Version header (1.4.0) can cause, on an
 * operation that had no 400 before, is answered in the current version, as every refusal of that
 * header is (the version asked for is not one the service knows). 503 is the exception D22 makes
 * (UNAVAILABLE below): answered in the caller's version, which may not declare it.
 */
const statusIntroducedIn = (operationId: string, status: string): ApiVersion =>
  status === UNAVAILABLE.status
    ? API_VERSIONS[0]
    : (API_VERSIONS.find((version) => declaredResponse(documents.get(version)!, operationId, status) !== undefined) ?? CURRENT_API_VERSION);

/** Whether any declared change is later than `version`: if none, shaping for it must be the identity. */
const changesAfter = (version: ApiVersion) => VERSION_CHANGES.some((change) => compareApiVersions(change.version, version) > 0);

/**
 * The one answer D22 leaves as it is on purpose (libs/contract/src/versions/version-changes.ts):
 * 503 SERVICE_UNAVAILABLE, which documents before 1.4.0 cannot name. As the e2e harness does
 * (test/utils/contract-response-validator.ts), a document that does not declare the status checks
 * it as its Problem, and one whose ProblemCode lacks the code checks the answer with a code it
 * publishes instead, everything else as answered.
 */
const UNAVAILABLE = { status: '503', code: 'SERVICE_UNAVAILABLE', publishedInstead: 'INTERNAL' } as const;

/**
 * The answers D13 lets differ from 1.2.0 (docs/design-record.md#d13, and the e2e harness's
 * showsLaterScopes in test/utils/e2e-api.ts): GET /me shows the key as it is, a test key's
 * rk_test_ prefix and scopes added after 1.2.0 included. Checked with those two left out; all the
 * rest as shaped.
 */
function withoutKeyAsItIs(document: OpenApiDocument, operationId: string, status: string, body: unknown): unknown {
  if (operationId !== 'getMe' || status !== '200' || body === null || typeof body !== 'object') return body;
  const { key } = body as { key?: { prefix?: string; scopes?: { scope: string }[] } };
  if (key === undefined) return body;
  const scopes = (document.components.schemas as Record<string, { enum?: string[] }>).Scope?.enum;
  return {
    ...body,
    key: {
      ...key,
      prefix: key.prefix?.replace(/^rk_test_/, 'rk_live_'),
      scopes: scopes === undefined ? key.scopes : key.scopes?.filter(({ scope }) => scopes.includes(scope)),
    },
  };
}

/** Why an answer shaped for a caller answered in `version` breaks that version's document, or undefined. */
function breaks(version: ApiVersion, operationId: string, status: string, shaped: unknown): string | undefined {
  const document = documents.get(version)!;
  const check = arbitraries.get(version)!;
  const declared = declaredResponse(document, operationId, status);
  let schema: JsonSchema | undefined;
  if (declared !== undefined) {
    schema = jsonSchemaOf(document, declared);
    if (schema === undefined) return `${version}'s document has no JSON body for ${operationId} ${status}`;
  } else if (status === UNAVAILABLE.status) {
    schema = { $ref: '#/components/schemas/Problem' };
  } else {
    return `${version}'s document declares no status ${status} for ${operationId}`;
  }
  const problem = check.check(schema, shaped);
  if (problem === undefined) return undefined;
  const codes = (document.components.schemas as Record<string, { enum?: string[] }>).ProblemCode?.enum ?? [];
  const code = shaped !== null && typeof shaped === 'object' ? (shaped as { code?: unknown }).code : undefined;
  if (code === UNAVAILABLE.code && !codes.includes(UNAVAILABLE.code)) {
    return check.check(schema, { ...(shaped as object), code: UNAVAILABLE.publishedInstead });
  }
  const asItIs = withoutKeyAsItIs(document, operationId, status, shaped);
  return asItIs === shaped ? problem : check.check(schema, asItIs);
}

/** Every (operation, status) of the current document whose answer has a JSON body. */
const ANSWERS = [...operationsById(current)].flatMap(([operationId, { operation }]) =>
  Object.entries(operation.responses)
    .map(([status, declared]) => ({ operationId, status, schema: jsonSchemaOf(current, declared) }))
    .filter((answer): answer is { operationId: string; status: string; schema: JsonSchema } => answer.schema !== undefined),
);

/** Every notice type of the current document's `webhooks:`. */
const NOTICES = Object.keys((current as { webhooks?: Record<string, unknown> }).webhooks ?? {}).map((type) => ({
  type,
  schema: noticeSchemaOf(current, type)!,
}));

/** Generated bodies of a schema of the current document, maximal and random; each first proved valid against it. */
function bodies(schema: JsonSchema): fc.Arbitrary<unknown> {
  const own = arbitraries.get(CURRENT_API_VERSION)!;
  const generated = fc.oneof(own.arbitrary(schema, { maximal: true }), own.arbitrary(schema));
  return generated.map((body) => {
    const problem = own.check(schema, body);
    if (problem !== undefined) throw new Error(`The generator made an invalid value (${problem}): ${JSON.stringify(body)}`);
    return body;
  });
}

/** Runs `check` on maximal and random bodies of `schema`, with the fixed seed. */
function forBodies(schema: JsonSchema, check: (body: unknown) => void): void {
  const own = arbitraries.get(CURRENT_API_VERSION)!;
  for (const [maximal, numRuns] of [
    [true, MAXIMAL_RUNS],
    [false, RANDOM_RUNS],
  ] as const) {
    fc.assert(
      fc.property(own.arbitrary(schema, { maximal }), (body) => {
        const problem = own.check(schema, body);
        if (problem !== undefined) throw new Error(`The generator made an invalid value (${problem}): ${JSON.stringify(body)}`);
        check(body);
      }),
      { seed: SEED, numRuns },
    );
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

describe('answers shaped for every published version (docs/design-record.md#d22)', () => {
  it('covers every operation of the current document and the statuses with a JSON body', () => {
    expect(new Set(ANSWERS.map(({ operationId }) => operationId)).size).toBe(operationsById(current).size);
    expect(NOTICES.length).toBeGreaterThan(0);
    for (const { type, schema } of NOTICES) expect({ type, schema: schema === undefined }).toEqual({ type, schema: false });
  });

  it("declares changes of the current document's schemas only", () => {
    const schemas = Object.keys(current.components.schemas ?? {});
    for (const change of VERSION_CHANGES) {
      expect({ change: change.name, unknown: change.schemas.filter((name) => !schemas.includes(name)) }).toEqual({
        change: change.name,
        unknown: [],
      });
      expect(compareApiVersions(change.version, API_VERSIONS[0])).toBeGreaterThan(0);
    }
    expect(new Set(VERSION_CHANGES.map((change) => change.name)).size).toBe(VERSION_CHANGES.length);
  });

  describe.each(ANSWERS)('$operationId $status', ({ operationId, status, schema }) => {
    it.each(API_VERSIONS)('shaped for %s, validates against the document it is answered in', (pinned) => {
      const version = laterApiVersion(shaper.answerVersionOf(pinned, operationId), statusIntroducedIn(operationId, status));
      forBodies(schema, (body) => {
        const shaped = shaper.shapeAnswer(version, operationId, Number(status), body);
        const problem = breaks(version, operationId, status, shaped);
        if (problem !== undefined) {
          throw new Error(
            `${operationId} ${status} for a caller pinned to ${pinned}, answered in ${version}: ${problem}\n` +
              `  shaped: ${JSON.stringify(shaped)}\n  from:   ${JSON.stringify(body)}`,
          );
        }
      });
    });
  });
});

describe('notices shaped for every published version (docs/design-record.md#d22)', () => {
  describe.each(NOTICES)('$type', ({ type, schema }) => {
    it.each(API_VERSIONS)("for an endpoint pinned to %s, validates against that version's document", (pinned) => {
      const version = laterApiVersion(pinned, noticeIntroducedIn(type));
      const target = noticeSchemaOf(documents.get(version)!, type)!;
      forBodies(schema, (body) => {
        const shaped = shaper.shapeNotice(pinned, type, body);
        const problem = arbitraries.get(version)!.check(target, shaped);
        if (problem !== undefined) {
          throw new Error(
            `${type} for an endpoint pinned to ${pinned}, checked against ${version}: ${problem}\n` +
              `  shaped: ${JSON.stringify(shaped)}\n  from:   ${JSON.stringify(body)}`,
          );
        }
      });
    });
  });
});

describe('what shaping leaves alone', () => {
  it("is the identity for the answer's own version, and any other after which nothing changed", () => {
    const own: string[] = [];
    for (const { operationId, status, schema } of ANSWERS) {
      for (const body of fc.sample(bodies(schema), { seed: SEED, numRuns: 3 })) {
        for (const pinned of API_VERSIONS) {
          if (changesAfter(shaper.answerVersionOf(pinned, operationId))) continue;
          if (shaper.shapeAnswer(pinned, operationId, Number(status), body) !== body) own.push(`${operationId} ${status} for ${pinned}`);
        }
      }
    }
    for (const { type, schema } of NOTICES) {
      for (const body of fc.sample(bodies(schema), { seed: SEED, numRuns: 3 })) {
        for (const pinned of API_VERSIONS) {
          if (!changesAfter(pinned) && shaper.shapeNotice(pinned, type, body) !== body) own.push(`notice ${type} for ${pinned}`);
        }
      }
    }
    expect(own).toEqual([]);
  });

  it('never changes its input, for any version', () => {
    const changed: string[] = [];
    const attempt = (what: string, body: unknown, shape: (frozen: unknown) => unknown) => {
      const before = JSON.stringify(body);
      try {
        // A frozen input: a write to it throws (ES modules are strict), wherever it happens.
        shape(deepFreeze(body));
      } catch (error) {
        changed.push(`${what}: ${(error as Error).message}`);
      }
      if (JSON.stringify(body) !== before) changed.push(what);
    };
    for (const { operationId, status, schema } of ANSWERS) {
      for (const pinned of API_VERSIONS) {
        for (const body of fc.sample(bodies(schema), { seed: SEED, numRuns: 3 })) {
          attempt(`${operationId} ${status} for ${pinned}`, body, (frozen) =>
            shaper.shapeAnswer(pinned, operationId, Number(status), frozen),
          );
        }
      }
    }
    for (const { type, schema } of NOTICES) {
      for (const pinned of API_VERSIONS) {
        for (const body of fc.sample(bodies(schema), { seed: SEED, numRuns: 3 })) {
          attempt(`notice ${type} for ${pinned}`, body, (frozen) => shaper.shapeNotice(pinned, type, frozen));
        }
      }
    }
    expect(changed).toEqual([]);
  });
});
