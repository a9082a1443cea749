import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { NOTICE_TYPES, OPERATIONS, type OperationFacts } from './generated/operations.js';
import { FROZEN_CONTRACT_FILE, findContractPath, loadContract, type OpenApiDocument } from './openapi-document.js';
import { CONTRACT_FILES, CURRENT_API_VERSION, type ApiVersion } from './versions/api-versions.js';

/** What an extension's contract adds: its own OpenAPI document and the facts generated from it. */
export interface ExtensionContract {
  /** The document, relative to the repository root: extensions/<name>/openapi.yaml. */
  readonly document: string;
  /** OPERATIONS of the extension's generated/operations.ts. */
  readonly operations: Readonly<Record<string, OperationFacts>>;
  /** NOTICE_TYPES of the extension's generated/operations.ts. */
  readonly noticeTypes: readonly string[];
}

/** An enabled extension as the served contract takes it: its name (for messages) and its contract. */
export interface ServedExtension {
  readonly name: string;
  readonly contract: ExtensionContract;
}

/**
 * A document as served YAML. Written for YAML 1.1 too: a 1.1 loader (PyYAML, SnakeYAML, js-yaml 3)
 * reads a bare `2030-01-01T00:00:00Z` as a date and `yes` as a boolean, so such strings stay quoted
 * as the published file quotes them; a 1.2 loader reads the same values.
 */
export function renderYaml(document: OpenApiDocument): string {
  return stringify(document, { version: '1.1' });
}

/** The parts of an extension's document merged into the served one; a name may be defined once. */
const MERGED_COMPONENTS = ['schemas', 'parameters', 'responses', 'headers', 'requestBodies'] as const;

/**
 * The core document with every enabled extension's paths, webhooks, components and tags added.
 * The extension documents refer to their own components only (local `#/components/...`), so after
 * the merge each reference still names the same thing; a name or path the core (or an earlier
 * extension) already defines is refused, and the process does not start.
 */
export function mergeDocuments(core: OpenApiDocument, extensions: readonly { name: string; document: OpenApiDocument }[]): OpenApiDocument {
  const merged = structuredClone(core);
  const components = (merged.components ??= {});
  const webhooks = ((merged as { webhooks?: Record<string, unknown> }).webhooks ??= {});
  const tags = ((merged as { tags?: { name: string }[] }).tags ??= []);
  const noticeTypes: string[] = [];
  for (const { name, document } of extensions) {
    const refuse = (what: string): never => {
      throw new Error(`Extension ${name}: its document defines ${what}, which the served contract already has`);
    };
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      if (path in merged.paths) refuse(`path ${path}`);
      merged.paths[path] = item;
    }
    for (const [type, entry] of Object.entries((document as { webhooks?: Record<string, unknown> }).webhooks ?? {})) {
      if (type in webhooks) refuse(`webhook ${type}`);
      webhooks[type] = entry;
      noticeTypes.push(type);
    }
    for (const kind of MERGED_COMPONENTS) {
      for (const [key, value] of Object.entries(document.components?.[kind] ?? {})) {
        const target = (components[kind] ??= {});
        if (key in target) refuse(`components.${kind}.${key}`);
        target[key] = value;
      }
    }
    for (const tag of (document as { tags?: { name: string }[] }).tags ?? []) {
      if (tags.some((t) => t.name === tag.name)) refuse(`tag ${tag.name}`);
      tags.push(tag);
    }
  }
  addNoticeTypes(merged, noticeTypes);
  return merged;
}

/**
 * An extension's notices are notice types of the served contract like the core's: the core's
 * NoticeType lists them, so that an endpoint subscribes to them through the API and its deliveries
 * name them, and an endpoint may subscribe to every type at once (WebhookEventTypes' maxItems).
 */
function addNoticeTypes(document: OpenApiDocument, types: readonly string[]): void {
  const schemas = (document.components.schemas ?? {}) as Record<string, { enum?: string[]; maxItems?: number } | undefined>;
  const noticeType = schemas.NoticeType;
  if (types.length === 0 || !noticeType?.enum) return;
  noticeType.enum = [...noticeType.enum, ...types];
  const subscribed = schemas.WebhookEventTypes;
  if (subscribed?.maxItems !== undefined) subscribed.maxItems = noticeType.enum.length;
}

/** Every operation a route may serve: the core's and the enabled extensions', by operationId. */
export function mergeOperations(extensions: readonly ServedExtension[]): ReadonlyMap<string, OperationFacts> {
  const table = new Map<string, OperationFacts>(Object.entries(OPERATIONS));
  for (const extension of extensions) {
    for (const [id, facts] of Object.entries(extension.contract.operations)) {
      if (table.has(id)) throw new Error(`Extension ${extension.name}: operationId ${id} is already served`);
      table.set(id, facts);
    }
  }
  return table;
}

/**
 * The change notices the service sends: the core contract's notice types, then the enabled
 * extensions', each `<subject>.<event>` as the core's are; a type declared twice is refused.
 */
export function mergeNoticeTypes(extensions: readonly ServedExtension[]): readonly string[] {
  const types: string[] = [...NOTICE_TYPES];
  for (const extension of extensions) {
    for (const type of extension.contract.noticeTypes) {
      if (types.includes(type)) throw new Error(`Extension ${extension.name}: notice type ${type} already exists`);
      types.push(type);
    }
  }
  return types;
}

/**
 * What an application serves: the core contract and the enabled extensions' (docs/extending.md),
 * made once by each application from the extensions its configuration enables (ApiModule,
 * WorkerModule, AdminModule: ServedContractModule.forRoot) and injected where it is read; a script
 * or a test outside Nest makes its own (`new ServedContract()` serves the core's alone). Nothing
 * here is set at start for the process, so the order in which modules load does not matter.
 */
export class ServedContract {
  /** Every operation a route may serve, by operationId (mergeOperations). */
  readonly operations: ReadonlyMap<string, OperationFacts>;
  /** The notice types the application sends and accepts (mergeNoticeTypes). */
  readonly noticeTypes: readonly string[];
  /** The merged document, read when first asked for (only the API serves and validates it). */
  private read?: { yaml: string; document: OpenApiDocument };

  constructor(readonly extensions: readonly ServedExtension[] = []) {
    this.operations = mergeOperations(extensions);
    this.noticeTypes = mergeNoticeTypes(extensions);
  }

  /** The facts of an operation served: the core's or an enabled extension's. */
  operation(operationId: string): OperationFacts | undefined {
    return this.operations.get(operationId);
  }

  /**
   * The document the API serves, validates requests against and documents at /docs: the core's
   * (openapi/v1.5.0.yaml), merged with the enabled extensions'. With no extension enabled, the
   * published file as it is.
   */
  get document(): OpenApiDocument {
    return this.contract().document;
  }

  /** The served document as YAML (renderYaml). */
  get yaml(): string {
    return this.contract().yaml;
  }

  /**
   * The document of a published version (docs/design-record.md#d22): the current one as served
   * (with the enabled extensions'), an earlier one frozen as published, without them.
   */
  published(version: ApiVersion): { yaml: string; document: OpenApiDocument } {
    return version === CURRENT_API_VERSION ? this.contract() : loadContract(CONTRACT_FILES[version]);
  }

  private contract(): { yaml: string; document: OpenApiDocument } {
    if (!this.read) {
      const core = loadContract();
      if (this.extensions.length === 0) {
        this.read = core;
      } else {
        const root = dirname(dirname(findContractPath()));
        const extensions = this.extensions.map((extension) => ({
          name: extension.name,
          document: parse(readFileSync(join(root, extension.contract.document), 'utf8')) as OpenApiDocument,
        }));
        const document = mergeDocuments(core.document, extensions);
        this.read = { yaml: renderYaml(document), document };
      }
    }
    return this.read;
  }
}

/** The frozen 1.2.0 document, as published: without the extensions, which it never described. */
export function loadFrozenContract(): { yaml: string; document: OpenApiDocument } {
  return loadContract(FROZEN_CONTRACT_FILE);
}

const SERVER_DESCRIPTION = 'This service, at the address this document was requested from.';
const withServerCache = new WeakMap<OpenApiDocument, Map<string, { yaml: string; document: OpenApiDocument }>>();
/** Distinct base addresses remembered per document: a handful in practice (one per way in). */
const WITH_SERVER_CACHE_MAX = 32;

/**
 * A served document whose `servers` entry is the base address it was requested at
 * (docs/design-record.md#d13), so that the reference page's "try it" and generated clients call
 * this service. Rendered once per document and address.
 */
export function withServer(contract: { document: OpenApiDocument }, baseUrl: string): { yaml: string; document: OpenApiDocument } {
  let byUrl = withServerCache.get(contract.document);
  if (!byUrl) withServerCache.set(contract.document, (byUrl = new Map<string, { yaml: string; document: OpenApiDocument }>()));
  let rendered = byUrl.get(baseUrl);
  if (!rendered) {
    const document = { ...contract.document, servers: [{ url: baseUrl, description: SERVER_DESCRIPTION }] };
    rendered = { yaml: renderYaml(document), document };
    if (byUrl.size >= WITH_SERVER_CACHE_MAX) byUrl.delete(byUrl.keys().next().value!);
    byUrl.set(baseUrl, rendered);
  }
  return rendered;
}
