import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { EXTENSIONS } from '#extensions/index.js';
import type { SchedulingExtension } from '#extensions-api/scheduling-extension.js';
import { OPERATIONS, type OperationFacts } from './generated/operations.js';
import { FROZEN_CONTRACT_FILE, findContractPath, loadContract, type OpenApiDocument } from './openapi-document.js';

/** The parts of an extension's document merged into the served one; a name may be defined once. */
const MERGED_COMPONENTS = ['schemas', 'parameters', 'responses', 'headers', 'requestBodies'] as const;

/**
 * The core document with every registered extension's paths, webhooks, components and tags added.
 * The extension documents refer to their own components only (local `#/components/...`), so after
 * the merge each reference still names the same thing; a name or path the core (or an earlier
 * extension) already defines is refused, and the process does not start.
 */
export function mergeDocuments(core: OpenApiDocument, extensions: readonly { name: string; document: OpenApiDocument }[]): OpenApiDocument {
  const merged = structuredClone(core);
  const components = (merged.components ??= {});
  const webhooks = ((merged as { webhooks?: Record<string, unknown> }).webhooks ??= {});
  const tags = ((merged as { tags?: { name: string }[] }).tags ??= []);
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
  return merged;
}

/** Every operation a route may serve: the core's and the registered extensions', by operationId. */
export function mergeOperations(extensions: readonly SchedulingExtension[]): ReadonlyMap<string, OperationFacts> {
  const table = new Map<string, OperationFacts>(Object.entries(OPERATIONS));
  for (const extension of extensions) {
    for (const [id, facts] of Object.entries(extension.contract.operations)) {
      if (table.has(id)) throw new Error(`Extension ${extension.name}: operationId ${id} is already served`);
      table.set(id, facts);
    }
  }
  return table;
}

let served: { yaml: string; document: OpenApiDocument } | undefined;

/**
 * The document the API serves, validates requests against and documents at /docs: the core's
 * (openapi/v1.3.0.yaml) merged with the registered extensions'. Read once per process.
 */
export function loadServedContract(): { yaml: string; document: OpenApiDocument } {
  if (!served) {
    const core = loadContract();
    if (EXTENSIONS.length === 0) {
      served = core;
    } else {
      const root = dirname(dirname(findContractPath()));
      const extensions = EXTENSIONS.map((extension) => ({
        name: extension.name,
        document: parse(readFileSync(join(root, extension.contract.document), 'utf8')) as OpenApiDocument,
      }));
      const document = mergeDocuments(core.document, extensions);
      served = { yaml: stringify(document), document };
    }
  }
  return served;
}

/** The core's and the registered extensions' operations (see @Operation). */
export const SERVED_OPERATIONS: ReadonlyMap<string, OperationFacts> = mergeOperations(EXTENSIONS);

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
    rendered = { yaml: stringify(document), document };
    if (byUrl.size >= WITH_SERVER_CACHE_MAX) byUrl.delete(byUrl.keys().next().value!);
    byUrl.set(baseUrl, rendered);
  }
  return rendered;
}
