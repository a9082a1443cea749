import { parse as parseQueryString } from 'node:querystring';
import fc from 'fast-check';
import {
  loadContract,
  operationsById,
  resolveRef,
  type OpenApiDocument,
  type OpenApiParameter,
  type OperationEntry,
} from '#contract/openapi-document.js';
import { RequestValidator } from '#contract/request-validator.js';
import { anyString, SchemaArbitraries, type Hints, type Schema } from './schema-arbitraries.js';

/** How the Idempotency-Key header is sent: a new key, a given value, a new key in quotes, or none. */
export type IdempotencyHeader = { kind: 'fresh' } | { kind: 'quoted' } | { kind: 'value'; value: string } | { kind: 'missing' };

/** The API key sent: a valid one of the run, or one of the kinds that must all be 401. */
export type KeySpec =
  { kind: 'valid' } | { kind: 'missing' } | { kind: 'bad-checksum' } | { kind: 'unknown' } | { kind: 'malformed'; text: string };

/** One request, as generated: symbolic where the run supplies the value (a fresh key). */
export interface GeneratedRequest {
  operationId: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The path template of the document (`/appointments/{id}/reschedule`). */
  template: string;
  /** The path id, decoded (it is percent-encoded when sent). */
  pathId?: string;
  query: [string, string][];
  idempotency?: IdempotencyHeader;
  contentType?: string;
  /** Sent as JSON text; undefined sends no body. */
  body?: unknown;
  key: KeySpec;
  keyHeader: 'bearer' | 'x-api-key';
  requestId?: string;
}

/** What the answer must be: one of these statuses, with this code when one is named. */
export interface Expectation {
  statuses: number[];
  code?: string;
  /** For a refusal of valid-looking input: the only field paths a 400 may name. */
  semanticPaths?: string[];
  /** For a refusal of valid-looking input: codes other than VALIDATION_FAILED a 400 may carry (without field paths). */
  semanticCodes?: string[];
  /** The input passed every rule the contract states (the request may still be refused by a business rule). */
  valid: boolean;
}

export interface OperationHints {
  /** Pointers into the body. */
  body?: Hints;
  /** Query parameter names. */
  query?: Hints;
  /** Path ids that exist in the business. */
  ids?: fc.Arbitrary<string>;
}

/** Lone surrogates replaced, so that a string can be percent-encoded (they cannot be sent in a URL). */
export const wellFormed = (s: string): string =>
  s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PRINTABLE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** Reads whose query names ids that must exist (404 when unknown), where the lists treat an unknown id as a filter. */
const QUERY_IDS_MUST_EXIST = new Set(['getAvailability']);

/** 400s the contract's schemas cannot foresee: the business rules on a value the schema let through. */
const SEMANTIC_PATHS: Record<string, string[]> = {
  // Without updatedSince, from and to are both required (docs/design-record.md#d23).
  listAppointments: ['/query/from', '/query/to', '/query/updatedSince'],
  // to after from, at most 31 days after it (docs/design-record.md#d15).
  getAvailability: ['/query/from', '/query/to'],
  createAppointment: ['/startAt', '/client/name', '/client/phone'],
  rescheduleAppointment: ['/startAt'],
  cancelAppointment: ['/reason'],
  createClient: ['/name', '/phone', '/birthDate'],
  // Date-times outside the years 0001–9999, which PostgreSQL cannot read as written; a phone of the
  // right shape outside every real number range, and an e-mail the shape check refuses (D21).
  listClients: ['/query/updatedSince', '/query/phone', '/query/email'],
  listPayments: ['/query/updatedSince'],
  listSales: ['/query/updatedSince'],
  listEvents: ['/query/createdSince'],
  // An endpoint that is not active (docs/design-record.md#d18).
  redeliverEvent: ['/endpointId'],
};

/** 400 codes of business rules on a value the schema let through, that name no field. */
const SEMANTIC_CODES: Record<string, string[]> = {
  // The address rules (docs/design-record.md#d9): a string the schema admits that is no https URL of a public host.
  createWebhookEndpoint: ['WEBHOOK_URL_REFUSED'],
  updateWebhookEndpoint: ['WEBHOOK_URL_REFUSED'],
};

/** The one 2xx status the document gives the operation. */
function successStatus(entry: OperationEntry): number {
  return Number(Object.keys(entry.operation.responses ?? {}).find((status) => /^2\d\d$/.test(status)));
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' || value === null ? String(value) : JSON.stringify(value);
}

/** A printable header value (what an HTTP client can send at all). */
const headerText = (arbitrary: fc.Arbitrary<string>) => arbitrary.filter((s) => PRINTABLE.test(s));

/**
 * Requests for every operation of the contract, valid and invalid, generated from the document's
 * parameter and body schemas, and the answer each must get.
 */
export class GeneratedRequests {
  readonly operations: Map<string, OperationEntry>;
  private readonly schemas: SchemaArbitraries;
  private readonly validator: RequestValidator;

  constructor(private readonly document: OpenApiDocument = loadContract().document) {
    this.operations = operationsById(document);
    this.schemas = new SchemaArbitraries(document);
    this.validator = new RequestValidator(document);
  }

  private parameters(entry: OperationEntry): OpenApiParameter[] {
    return (entry.operation.parameters ?? []).map((p) => resolveRef<OpenApiParameter>(this.document, p));
  }

  private bodySchema(entry: OperationEntry): Schema | undefined {
    return entry.operation.requestBody?.content['application/json']?.schema as Schema | undefined;
  }

  arbitrary(operationId: string, hints: OperationHints = {}): fc.Arbitrary<GeneratedRequest> {
    const entry = this.operations.get(operationId);
    if (!entry) throw new Error(`No operation ${operationId}`);
    const parameters = this.parameters(entry);
    const hasId = parameters.some((p) => p.in === 'path');
    const bodySchema = this.bodySchema(entry);
    // Only an operation that takes a body is sent one, with a media type.
    const isWrite = bodySchema !== undefined;

    const pathId = hasId
      ? fc.oneof(
          { weight: 6, arbitrary: hints.ids ?? fc.uuid() },
          { weight: 2, arbitrary: fc.uuid() },
          { weight: 1, arbitrary: fc.uuid().map((u) => u.toUpperCase()) },
          {
            weight: 2,
            arbitrary: fc
              .oneof(
                anyString({ minLength: 1, maxLength: 40 }),
                fc.constantFrom('null', 'undefined', '0', '-1', 'me', '%', '..%2F'),
                fc.uuid().map((u) => `${u} `),
              )
              // An id of "." or ".." would name another path; a lone surrogate cannot be percent-encoded.
              .filter((s) => s !== '.' && s !== '..' && wellFormed(s) === s),
          },
        )
      : fc.constant(undefined);

    const queryParams = parameters.filter((p) => p.in === 'query');
    const query = queryParams.length > 0 ? this.query(queryParams, hints.query ?? {}) : this.ignoredQuery();

    const idempotencyParam = parameters.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
    const idempotency: fc.Arbitrary<IdempotencyHeader | undefined> = idempotencyParam
      ? fc.oneof(
          { weight: 10, arbitrary: fc.constant<IdempotencyHeader>({ kind: 'fresh' }) },
          // Keys the document's pattern admits, of any length it allows.
          {
            weight: 2,
            arbitrary: this.schemas
              .valid(idempotencyParam.schema as Schema)
              .map((value): IdempotencyHeader => ({ kind: 'value', value: String(value) })),
          },
          { weight: 1, arbitrary: fc.constant<IdempotencyHeader>({ kind: 'quoted' }) },
          { weight: 1, arbitrary: fc.constant<IdempotencyHeader>({ kind: 'missing' }) },
          {
            weight: 2,
            arbitrary: headerText(
              fc.oneof(
                fc.string({ minLength: 1, maxLength: 7 }),
                fc.string({ minLength: 8, maxLength: 40 }),
                fc.integer({ min: 256, max: 300 }).map((n) => 'k'.repeat(n)),
                fc.constantFrom('abc def 12345', 'key/with/slash', '"unbalanced-quote', '""', "'single-quoted'", 'abc12345,abc12346'),
              ),
            ).map((value): IdempotencyHeader => ({ kind: 'value', value })),
          },
        )
      : fc.constant(undefined);

    const contentType = isWrite
      ? fc.oneof(
          { weight: 14, arbitrary: fc.constant('application/json') },
          { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'application/merge-patch+json', 'Application/JSON') },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              'text/plain',
              'application/x-www-form-urlencoded',
              'application/xml',
              'multipart/form-data; boundary=x',
            ),
          },
        )
      : fc.constant(undefined);

    const body: fc.Arbitrary<unknown> = bodySchema
      ? fc.oneof(
          { weight: 3, arbitrary: this.schemas.valid(bodySchema, hints.body ?? {}) },
          { weight: 2, arbitrary: this.schemas.invalid(bodySchema, hints.body ?? {}) },
          { weight: 1, arbitrary: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom(null, [], {}, '', 0, true)) },
        )
      : fc.constant(undefined);

    return fc
      .record({
        pathId,
        query,
        idempotency,
        contentType,
        body,
        key: fc.oneof(
          { weight: 30, arbitrary: fc.constant<KeySpec>({ kind: 'valid' }) },
          { weight: 1, arbitrary: fc.constantFrom<KeySpec>({ kind: 'missing' }, { kind: 'bad-checksum' }, { kind: 'unknown' }) },
          {
            weight: 1,
            arbitrary: headerText(fc.string({ minLength: 1, maxLength: 60 })).map((text): KeySpec => ({ kind: 'malformed', text })),
          },
        ),
        keyHeader: fc.constantFrom<'bearer' | 'x-api-key'>('bearer', 'bearer', 'x-api-key'),
        requestId: fc.option(
          headerText(fc.oneof(fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/), fc.string({ minLength: 1, maxLength: 150 }))),
          { nil: undefined },
        ),
      })
      .map((parts) => ({
        operationId,
        method: entry.method.toUpperCase() as GeneratedRequest['method'],
        template: entry.path,
        ...parts,
      }));
  }

  /** A list's query: its parameters with valid values, then maybe one fault. */
  private query(params: OpenApiParameter[], hints: Hints): fc.Arbitrary<[string, string][]> {
    const required = params.filter((p) => p.required).map((p) => p.name);
    // An optional parameter is left out half the time; a cursor three times in four (only one
    // issued for the same filters is valid, so most would be CURSOR_INVALID).
    const values = Object.fromEntries(
      params.map((p) => {
        const value = this.schemas.valid(p.schema as Schema, hints, p.name).map(text);
        const absent = p.name === 'cursor' ? 3 : 1;
        return [
          p.name,
          required.includes(p.name)
            ? value
            : fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value }),
        ];
      }),
    );
    const base = fc
      .record(values)
      .map((record) => Object.entries(record).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const names = params.map((p) => p.name);
    const fault = fc.oneof(
      fc.constant({ kind: 'none' as const }),
      fc.constant({ kind: 'none' as const }),
      fc.record({
        kind: fc.constant('unknown' as const),
        name: fc.oneof(
          fc.constantFrom('offset', 'page', 'sort', '__proto__', 'a~b', 'LIMIT', 'cursor[]'),
          fc.string({ minLength: 1, maxLength: 8 }),
        ),
        value: fc.string({ maxLength: 8 }),
      }),
      fc.constantFrom(...names).chain((name) =>
        fc.record({
          kind: fc.constant('wrong' as const),
          name: fc.constant(name),
          value: this.schemas.invalid(params.find((p) => p.name === name)!.schema as Schema).map(text),
        }),
      ),
      fc.record({ kind: fc.constant('twice' as const), name: fc.constantFrom(...names) }),
      ...(required.length > 0 ? [fc.record({ kind: fc.constant('drop' as const), name: fc.constantFrom(...required) })] : []),
    );
    return fc.tuple(base, fault).map(([pairs, f]) => {
      switch (f.kind) {
        case 'none':
          return pairs;
        case 'unknown':
          return [...pairs, [f.name, f.value]];
        case 'wrong':
          return [...pairs.filter(([n]) => n !== f.name), [f.name, f.value]];
        case 'twice': {
          const existing = pairs.find(([n]) => n === f.name);
          return existing ? [...pairs, existing] : pairs;
        }
        case 'drop':
          return pairs.filter(([n]) => n !== f.name);
      }
    });
  }

  /** Operations without query parameters ignore a query string (contract, "Base address"). */
  private ignoredQuery(): fc.Arbitrary<[string, string][]> {
    return fc.oneof(
      { weight: 3, arbitrary: fc.constant<[string, string][]>([]) },
      {
        weight: 1,
        arbitrary: fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 6 }), fc.string({ maxLength: 6 })), { maxLength: 2 }),
      },
    );
  }

  /** The query string exactly as sent. */
  static queryString(pairs: [string, string][]): string {
    const encode = (s: string) => encodeURIComponent(wellFormed(s));
    return pairs.length === 0 ? '' : `?${pairs.map(([n, v]) => `${encode(n)}=${encode(v)}`).join('&')}`;
  }

  /** What the API must answer, by the order of checks (D2): key, rate, plan, scope, then input. */
  expectation(request: GeneratedRequest): Expectation {
    const { operationId } = request;
    const ok = successStatus(this.operations.get(operationId)!);
    const semanticPaths = SEMANTIC_PATHS[operationId] ?? [];
    const semanticCodes = SEMANTIC_CODES[operationId] ?? [];
    if (request.key.kind !== 'valid') return { statuses: [401], code: 'API_KEY_INVALID', valid: false };
    if (request.idempotency) {
      const header = request.idempotency;
      // PATCH /appointments/{id} takes the key optionally (docs/design-record.md#d23): leaving it out is no error there.
      const keyRequired = this.parameters(this.operations.get(operationId)!).some(
        (p) => p.in === 'header' && p.name === 'Idempotency-Key' && p.required === true,
      );
      const badKey =
        (header.kind === 'missing' && keyRequired) ||
        (header.kind === 'value' &&
          !/^[A-Za-z0-9_\-:.]{8,255}$/.test(
            header.value.length >= 2 && header.value.startsWith('"') && header.value.endsWith('"')
              ? header.value.slice(1, -1)
              : header.value,
          ));
      if (badKey) return { statuses: [400], code: 'IDEMPOTENCY_KEY_INVALID', valid: false };
    }
    const badId = request.pathId !== undefined && !UUID.test(request.pathId);

    if (this.bodySchema(this.operations.get(operationId)!) !== undefined) {
      // The body is read before the path id is looked at (Nest resolves the last parameter
      // first): an unreadable body wins over a malformed id, ...
      const type = (request.contentType ?? '').split(';')[0].trim().toLowerCase();
      if (type !== 'application/json' && !/^application\/[^/]+\+json$/.test(type)) {
        return { statuses: [415], code: 'UNSUPPORTED_MEDIA_TYPE', valid: false };
      }
      // ... and a body the schema refuses is input (400, D2) as much as a malformed id is not found (404, D3).
      const result = this.validator.validateBody(operationId, request.body);
      if (!result.ok) return badId ? { statuses: [400, 404], valid: false } : { statuses: [400], code: 'VALIDATION_FAILED', valid: false };
      if (badId) return { statuses: [404], code: 'NOT_FOUND', valid: false };
      return { statuses: [ok, 400, 404, 409], semanticPaths, semanticCodes, valid: true };
    }
    // A write without a body (rotate-secret, test): after the Idempotency-Key, only the path id.
    if (request.method !== 'GET' && request.pathId !== undefined) {
      return badId ? { statuses: [404], code: 'NOT_FOUND', valid: false } : { statuses: [ok, 404, 409], valid: true };
    }
    if (badId) return { statuses: [404], code: 'NOT_FOUND', valid: false };

    const entry = this.operations.get(operationId)!;
    const queryNames = this.parameters(entry)
      .filter((p) => p.in === 'query')
      .map((p) => p.name);
    if (queryNames.length === 0) return { statuses: request.pathId === undefined ? [ok] : [ok, 404], valid: true };

    // Express reads the query with node:querystring; the API sees exactly this object.
    const { cursor, ...rest } = parseQueryString(GeneratedRequests.queryString(request.query).slice(1)) as Record<string, unknown>;
    const result = this.validator.validateQuery(operationId, rest);
    if (!result.ok) return { statuses: [400], code: 'VALIDATION_FAILED', valid: false };
    // A list under a path id (an endpoint's deliveries) is 404 when that id is not one of the business's.
    const notFound = QUERY_IDS_MUST_EXIST.has(operationId) || request.pathId !== undefined ? [404] : [];
    if (cursor !== undefined) return { statuses: [200, 400, ...notFound], semanticPaths: ['/query/cursor', ...semanticPaths], valid: true };
    return { statuses: [200, ...(semanticPaths.length > 0 ? [400] : []), ...notFound], semanticPaths, valid: true };
  }
}
