import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { EXTENSIONS } from '#extensions/index.js';
import type { SchedulingExtension } from '#extensions-api/scheduling-extension.js';
import { OPERATIONS, type OperationFacts } from './generated/operations.js';
import { findContractPath, loadContract, type OpenApiDocument } from './openapi-document.js';

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
