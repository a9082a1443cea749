import type { OpenApiDocument } from './openapi-document.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
/** Where a schema nests others. */
const SUBSCHEMAS = ['items', 'additionalProperties', 'not'] as const;
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a local reference (`#/components/schemas/X`) names in the document. */
function resolve(document: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const part of ref.slice(2).split('/')) {
    if (!isObject(node)) return undefined;
    node = node[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node;
}

/** Whether a schema has, at any depth, a property named `secret`. */
function holdsSecret(document: OpenApiDocument, schema: unknown, followed: Set<string>): boolean {
  if (!isObject(schema)) return false;
  if (typeof schema.$ref === 'string') {
    if (followed.has(schema.$ref)) return false;
    followed.add(schema.$ref);
    return holdsSecret(document, resolve(document, schema.$ref), followed);
  }
  const properties = isObject(schema.properties) ? schema.properties : {};
  if ('secret' in properties) return true;
  const nested = [
    ...Object.values(properties),
    ...SUBSCHEMAS.map((key) => schema[key]),
    ...SUBSCHEMA_LISTS.flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as unknown[]) : [])),
  ];
  return nested.some((child) => holdsSecret(document, child, followed));
}

/** Whether one of an operation's 2xx answers has a schema holding a `secret`. */
function answersSecret(document: OpenApiDocument, responses: Json): boolean {
  return Object.entries(responses).some(([status, response]) => {
    if (!/^2/.test(status)) return false;
    const resolved = isObject(response) && typeof response.$ref === 'string' ? resolve(document, response.$ref) : response;
    const content = isObject(resolved) && isObject(resolved.content) ? resolved.content : {};
    return Object.values(content).some((media) => isObject(media) && holdsSecret(document, media.schema, new Set()));
  });
}

/**
 * The operations whose answer can hold a secret: a 2xx answer whose schema has a property named
 * `secret` (docs/design-record.md#d25). Their stored idempotent answers are sealed at rest; read
 * from the document, so an operation added later that answers a secret is covered without a list
 * to keep up.
 */
export function operationsAnsweringSecrets(document: OpenApiDocument): ReadonlySet<string> {
  const found = new Set<string>();
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation && answersSecret(document, operation.responses)) found.add(operation.operationId);
    }
  }
  return found;
}

/**
 * Which operations of an application's served contract (the core's and the enabled extensions')
 * can answer a secret, read once from its document (made by RouteLayerModule from the injected
 * ServedContract; outside Nest, `new SecretAnswers(contract.document)`).
 */
export class SecretAnswers {
  private readonly operations: ReadonlySet<string>;

  constructor(document: OpenApiDocument) {
    this.operations = operationsAnsweringSecrets(document);
  }

  /** Whether an operation's answer can hold a secret. */
  holdsSecret(operationId: string): boolean {
    return this.operations.has(operationId);
  }
}
