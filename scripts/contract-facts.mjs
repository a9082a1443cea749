// The facts the code takes from a contract document (operations, scopes, notice types), and the
// TypeScript module that carries them. Pure functions: generate-contract.mjs writes the module,
// contract-check.mjs compares it with the committed one.

const ROUTE_METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const IDEMPOTENCY_HEADER = 'idempotency-key';

/** Resolves a local `#/...` reference of the document. */
function resolve(document, value) {
  let current = value;
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`Only local references are supported, not ${ref}`);
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((node, key) => node?.[key], document);
    if (current === undefined) throw new Error(`${ref} does not resolve`);
  }
  return current;
}

function enumOf(document, schemaName) {
  const schema = resolve(document, document.components?.schemas?.[schemaName]);
  if (!Array.isArray(schema?.enum) || schema.enum.length === 0) {
    throw new Error(`components.schemas.${schemaName} must be an enum of strings`);
  }
  return schema.enum;
}

/**
 * The scope of an operation is the role its security requirements name: the same one on every
 * scheme, or none at all. x-required-scope repeats it for readers and must agree.
 */
function scopeOf(where, operation, scopes) {
  const roles = new Set((operation.security ?? []).flatMap((requirement) => Object.values(requirement).flat()));
  if (roles.size > 1) throw new Error(`${where}: its security names several scopes (${[...roles].join(', ')})`);
  const perScheme = (operation.security ?? []).map((requirement) => Object.values(requirement).flat().length);
  if (roles.size === 1 && perScheme.some((count) => count !== 1)) {
    throw new Error(`${where}: every security requirement must name its scope`);
  }
  const scope = roles.size === 1 ? [...roles][0] : null;
  if (scope !== null && !scopes.includes(scope)) throw new Error(`${where}: scope ${scope} is not in the Scope schema`);
  if ((operation['x-required-scope'] ?? null) !== scope) {
    throw new Error(`${where}: x-required-scope (${operation['x-required-scope']}) differs from its security (${scope})`);
  }
  return scope;
}

function successStatusOf(where, operation) {
  const statuses = Object.keys(operation.responses ?? {}).filter((status) => /^2\d\d$/.test(status));
  if (statuses.length !== 1) throw new Error(`${where}: expected exactly one 2xx response, found ${statuses.join(', ') || 'none'}`);
  return Number(statuses[0]);
}

/**
 * The path of the resource whose address the success answer's `Location` header gives (docs/design-record.md#d23),
 * when that response declares the header: the operation's own path followed by `/{id}`, or for an
 * action on a resource (`/appointments/{id}/reschedule`) the resource's path; the answer's `id`
 * fills `{id}`. A GET must serve that path, or the header would name an address nobody answers.
 */
function locationOf(document, where, path, operation) {
  const success = Object.entries(operation.responses ?? {}).find(([status]) => /^2\d\d$/.test(status));
  const headers = resolve(document, success?.[1])?.headers ?? {};
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'location')) return null;
  const location = /\/\{id\}\/[^/{}]+$/.test(path) ? path.replace(/\/[^/]+$/, '') : `${path}/{id}`;
  if (!resolve(document, document.paths?.[location] ?? {})?.get)
    throw new Error(`${where}: its Location names ${location}, which no GET serves`);
  return location;
}

/** The test notice (docs/design-record.md#d17): a webhook of its own, never a type an endpoint subscribes to. */
const TEST_NOTICE_TYPE = 'webhook.test';

/**
 * The notice types of a document: the core's lists them in its Notice schema (and one webhook
 * each, in the same order, then the test notice's); an extension's document, which has no Notice
 * schema, by its webhooks.
 */
function noticeTypesOf(document) {
  const webhooks = Object.keys(document.webhooks ?? {}).filter((type) => type !== TEST_NOTICE_TYPE);
  if (!document.components?.schemas?.Notice) return webhooks;
  const noticeTypeSchema = resolve(document, document.components.schemas.Notice)?.properties?.type;
  const noticeTypes = resolve(document, noticeTypeSchema)?.enum;
  if (!Array.isArray(noticeTypes)) throw new Error('components.schemas.Notice.properties.type must be an enum');
  if (webhooks.join() !== noticeTypes.join()) {
    throw new Error(`The webhooks (${webhooks.join(', ')}) must be the notice types in the same order (${noticeTypes.join(', ')})`);
  }
  return noticeTypes;
}

/**
 * What the code needs of a document; throws on anything it cannot serve as written. A document
 * without a Scope schema (an extension's, docs/extending.md) uses `coreScopes`: an extension's
 * operations require scopes keys can already hold.
 */
export function contractFacts(document, coreScopes) {
  const scopes = document.components?.schemas?.Scope || !coreScopes ? enumOf(document, 'Scope') : coreScopes;
  const noticeTypes = noticeTypesOf(document);

  const operations = {};
  for (const [path, rawItem] of Object.entries(document.paths ?? {})) {
    const item = resolve(document, rawItem);
    for (const method of ROUTE_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const id = operation.operationId;
      if (typeof id !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(id)) throw new Error(`${where}: operationId must be an identifier`);
      if (operations[id]) throw new Error(`${where}: operationId ${id} is used twice`);
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) => resolve(document, p));
      const named = (place) => parameters.filter((p) => p.in === place).map((p) => p.name);
      const idempotencyKey = parameters.find((p) => p.in === 'header' && p.name.toLowerCase() === IDEMPOTENCY_HEADER);
      const pathParameters = named('path');
      const placeholders = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      if (placeholders.join() !== pathParameters.join()) throw new Error(`${where}: path parameters do not match the path`);
      operations[id] = {
        operationId: id,
        method,
        path,
        routePath: path.replace(/^\//, '').replace(/\{([^}]+)\}/g, ':$1'),
        successStatus: successStatusOf(where, operation),
        scope: scopeOf(where, operation, scopes),
        idempotent: idempotencyKey !== undefined,
        idempotencyKeyRequired: idempotencyKey?.required === true,
        pathParameters,
        queryParameters: named('query'),
        body: Boolean(resolve(document, operation.requestBody)?.content?.['application/json']),
        bodyRequired: resolve(document, operation.requestBody)?.required === true,
        location: locationOf(document, where, path, operation),
      };
    }
  }
  return { version: document.info?.version, scopes, noticeTypes, operations };
}

const literal = (value) => JSON.stringify(value).replace(/"/g, "'");
const list = (values) => `[${values.map(literal).join(', ')}]`;

/** The TypeScript module of the facts; `source` names the document in its header. */
export function renderFacts(facts, source) {
  const operations = Object.entries(facts.operations).map(([id, o]) =>
    [
      `  ${id}: {`,
      `    operationId: ${literal(o.operationId)},`,
      `    method: ${literal(o.method)},`,
      `    path: ${literal(o.path)},`,
      `    routePath: ${literal(o.routePath)},`,
      `    successStatus: ${o.successStatus},`,
      `    scope: ${o.scope === null ? 'null' : literal(o.scope)},`,
      `    idempotent: ${o.idempotent},`,
      `    idempotencyKeyRequired: ${o.idempotencyKeyRequired},`,
      `    pathParameters: ${list(o.pathParameters)},`,
      `    queryParameters: ${list(o.queryParameters)},`,
      `    body: ${o.body},`,
      `    bodyRequired: ${o.bodyRequired},`,
      `    location: ${o.location === null ? 'null' : literal(o.location)},`,
      `  },`,
    ].join('\n'),
  );
  return `// Generated from ${source} by scripts/generate-contract.mjs (npm run contract:generate); never edited.

/** The version of the document these facts were read from. */
export const CONTRACT_VERSION = ${literal(facts.version)};

/** Every scope a key can hold (the Scope schema). */
export const SCOPES = ${list(facts.scopes)} as const;
export type Scope = (typeof SCOPES)[number];

/** Every change notice type (the Notice schema's type, one webhook each). */
export const NOTICE_TYPES = ${list(facts.noticeTypes)} as const;
export type NoticeType = (typeof NOTICE_TYPES)[number];

/** What the document says of an operation that a route serves. */
export interface OperationFacts {
  readonly operationId: string;
  readonly method: ${ROUTE_METHODS.map(literal).join(' | ')};
  /** As the document writes it: /appointments/{id}. */
  readonly path: string;
  /** As a Nest route writes it (relative to the global prefix): appointments/:id. */
  readonly routePath: string;
  /** The one 2xx status of the operation. */
  readonly successStatus: number;
  /** The scope its security requires; null when any valid key may call it. */
  readonly scope: Scope | null;
  /** Whether it takes an Idempotency-Key header. */
  readonly idempotent: boolean;
  /** Whether that header must be sent; without it an optional one's write runs with no record (D23). */
  readonly idempotencyKeyRequired: boolean;
  readonly pathParameters: readonly string[];
  /** The query parameters it declares; an operation without any does not read the query. */
  readonly queryParameters: readonly string[];
  /** Whether it takes a JSON request body. */
  readonly body: boolean;
  /** Whether that body must be sent; an optional one may be left out altogether (no Content-Type, no bytes). */
  readonly bodyRequired: boolean;
  /** The path its success answer's Location header names, \`{id}\` being the answer's id (D23); null: no Location. */
  readonly location: string | null;
}

export const OPERATIONS = {
${operations.join('\n')}
} as const satisfies Record<string, OperationFacts>;

export type OperationId = keyof typeof OPERATIONS;
`;
}
