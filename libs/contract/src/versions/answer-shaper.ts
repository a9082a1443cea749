import { resolveRef, operationsById, type OpenApiOperation } from '../openapi-document.js';
import type { ServedContract } from '../served-contract.js';
import { API_VERSIONS, compareApiVersions, laterApiVersion, type ApiVersion } from './api-versions.js';
import { VERSION_CHANGES, type VersionChange } from './version-changes.js';

/**
 * Shapes answers and notices for the version a caller is pinned to (docs/design-record.md#d22).
 * The service builds every answer in the current version's shape; here the declared changes of
 * every later version than the caller's are undone, newest first, on each instance of the schemas
 * they name, found by walking the answer beside its schema in the current document. A caller on
 * the current version costs nothing: no change applies, and the answer is returned as it is.
 */

type Schema = Record<string, unknown>;
const SCHEMA_REF = '#/components/schemas/';

/**
 * The shaping of one application's answers and notices, over its served contract (injected as
 * AnswerShaper: ServedContractModule makes it from the application's ServedContract; outside Nest,
 * `new AnswerShaper(contract)`).
 */
export class AnswerShaper {
  private readonly operationsCache = new Map<ApiVersion, ReadonlyMap<string, unknown>>();

  constructor(private readonly contract: ServedContract) {}

  /** The notice types of the contract it shapes for (ServedContract.noticeTypes). */
  get noticeTypes(): readonly string[] {
    return this.contract.noticeTypes;
  }

  /** The version whose document first has the operation; operations of no published file (an extension's) are the current version's. */
  versionIntroducing(operationId: string): ApiVersion {
    return API_VERSIONS.find((version) => this.operationsOf(version).has(operationId)) ?? API_VERSIONS[API_VERSIONS.length - 1];
  }

  /** An operation answers in the shape of the caller's version, or of the version that added it when that is later. */
  answerVersionOf(pinned: ApiVersion, operationId: string): ApiVersion {
    return laterApiVersion(pinned, this.versionIntroducing(operationId));
  }

  /** Whether an answer of this operation for this version differs from the current version's at all. */
  reshapesAnswer(version: ApiVersion, operationId: string): boolean {
    return changesAfter(this.answerVersionOf(version, operationId)).length > 0;
  }

  /** The answer of an operation with this status, as a caller pinned to `version` is given it. */
  shapeAnswer(version: ApiVersion, operationId: string, status: number, body: unknown): unknown {
    const changes = changesAfter(this.answerVersionOf(version, operationId));
    if (changes.length === 0) return body;
    const schema = this.responseSchema(operationId, status);
    return schema === undefined ? body : this.shape(schema, body, changes);
  }

  /** A notice's body (its whole envelope) as an endpoint pinned to `version` is sent it. */
  shapeNotice(version: ApiVersion, type: string, body: unknown): unknown {
    const changes = changesAfter(version);
    if (changes.length === 0) return body;
    const document = this.contract.document;
    const webhook = (document as { webhooks?: Record<string, { post?: { requestBody?: unknown } }> }).webhooks?.[type];
    const requestBody =
      webhook?.post?.requestBody === undefined
        ? undefined
        : resolveRef<{ content?: Record<string, { schema: unknown }> }>(document, webhook.post.requestBody);
    // A type the document has no webhook for (an extension's) has the core's shape: the Notice schema.
    const schema = (requestBody?.content?.['application/json']?.schema as Schema | undefined) ?? { $ref: `${SCHEMA_REF}Notice` };
    return this.shape(schema, body, changes);
  }

  /** An instance of a component schema (a problem body where no operation is known) for `version`. */
  shapeInstance(version: ApiVersion, schemaName: string, body: unknown): unknown {
    const changes = changesAfter(version);
    if (changes.length === 0) return body;
    return this.shape({ $ref: `${SCHEMA_REF}${schemaName}` }, body, changes);
  }

  /**
   * Reads every published document now, at start: left to the first request that needs an older
   * version's operations, parsing it (some 170 ms of YAML on a busy core) held the event loop, and
   * every other business's requests with it, at the moment a business pinned to that version began
   * (issue 38, docs/performance.md "S9").
   */
  loadVersions(): void {
    for (const version of API_VERSIONS) this.operationsOf(version);
    void this.contract.document;
  }

  /** The versions whose documents are read (for the test that they all are at start). */
  versionsLoaded(): ApiVersion[] {
    return API_VERSIONS.filter((version) => this.operationsCache.has(version));
  }

  private operationsOf(version: ApiVersion): ReadonlyMap<string, unknown> {
    let operations = this.operationsCache.get(version);
    if (!operations) this.operationsCache.set(version, (operations = operationsById(this.contract.published(version).document)));
    return operations;
  }

  private responseSchema(operationId: string, status: number): Schema | undefined {
    const document = this.contract.document;
    const entry = operationsById(document).get(operationId);
    const operation: OpenApiOperation | undefined = entry?.operation;
    const declared = operation?.responses[String(status)] ?? operation?.responses.default;
    if (!declared) return undefined;
    const response = resolveRef<{ content?: Record<string, { schema: unknown }> }>(document, declared);
    const media = response.content?.['application/json'] ?? response.content?.['application/problem+json'];
    return media?.schema as Schema | undefined;
  }

  /** The value walked beside its schema, each declared change applied to the instances of its schemas. */
  private shape(schema: Schema, value: unknown, changes: readonly VersionChange[]): unknown {
    if (value === null || typeof value !== 'object') return value;
    const document = this.contract.document;
    if (typeof schema.$ref === 'string') {
      const target = resolveRef<Schema>(document, schema);
      let shaped = this.shape(target, value, changes);
      if (schema.$ref.startsWith(SCHEMA_REF) && shaped !== null && typeof shaped === 'object' && !Array.isArray(shaped)) {
        const name = schema.$ref.slice(SCHEMA_REF.length);
        for (const change of changes) {
          if (shaped === undefined) break;
          if (change.schemas.includes(name)) shaped = change.down(shaped as Record<string, unknown>);
        }
      }
      return shaped;
    }
    let shaped: unknown = value;
    if (Array.isArray(value)) {
      const items = schema.items as Schema | undefined;
      if (items) shaped = value.map((item) => this.shape(items, item, changes)).filter((item) => item !== undefined);
    } else {
      const properties = schema.properties as Record<string, Schema> | undefined;
      const additional = typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as Schema) : undefined;
      if (properties || additional) {
        const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
        for (const [key, item] of Object.entries(copy)) {
          const itemSchema = properties?.[key] ?? additional;
          if (itemSchema) copy[key] = this.shape(itemSchema, item, changes);
        }
        shaped = copy;
      }
    }
    for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
      for (const branch of (schema[keyword] as Schema[] | undefined) ?? []) {
        if (shaped === undefined) break;
        shaped = this.shape(branch, shaped, changes);
      }
    }
    return shaped;
  }
}

/** The changes a caller of `version` must have undone, newest first. */
function changesAfter(version: ApiVersion): readonly VersionChange[] {
  let changes = changesCache.get(version);
  if (!changes) {
    changes = VERSION_CHANGES.filter((change) => compareApiVersions(change.version, version) > 0).reverse();
    changesCache.set(version, changes);
  }
  return changes;
}
const changesCache = new Map<ApiVersion, readonly VersionChange[]>();
