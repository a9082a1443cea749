import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { CONTRACT_FILES, CURRENT_API_VERSION } from './versions/api-versions.js';

/** The contract: validation, generated types and tests follow it (docs/design-record.md#d13, #d22). */
export const CONTRACT_FILE = CONTRACT_FILES[CURRENT_API_VERSION];

/** The first published version, frozen as published; every later one is proven a compatible superset of it. */
export const FROZEN_CONTRACT_FILE = CONTRACT_FILES['1.2.0'];

export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema: Record<string, unknown>;
}

export interface OpenApiOperation {
  operationId: string;
  parameters?: (OpenApiParameter | { $ref: string })[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }>; headers?: Record<string, unknown> }>;
  'x-required-scope'?: string;
}

export interface OpenApiDocument {
  openapi: string;
  info: { version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/** Walks up from this module (sources or compiled tree) to the repository's contract file. */
export function findContractPath(start = dirname(fileURLToPath(import.meta.url)), file = CONTRACT_FILE): string {
  let dir = start;
  for (;;) {
    const candidate = join(dir, file);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${file} not found above ${start}`);
    dir = parent;
  }
}

const cached = new Map<string, { yaml: string; document: OpenApiDocument }>();

/** A contract document (by default the current one), read and parsed once per process. */
export function loadContract(file = CONTRACT_FILE): { yaml: string; document: OpenApiDocument } {
  let contract = cached.get(file);
  if (!contract) {
    const yaml = readFileSync(findContractPath(undefined, file), 'utf8');
    contract = { yaml, document: parse(yaml) as OpenApiDocument };
    cached.set(file, contract);
  }
  return contract;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

export interface OperationEntry {
  method: string;
  path: string;
  operation: OpenApiOperation;
}

/** Every operation of the document, keyed by operationId. */
export function operationsById(document: OpenApiDocument): Map<string, OperationEntry> {
  const map = new Map<string, OperationEntry>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) map.set(operation.operationId, { method, path, operation });
    }
  }
  return map;
}

/** Resolves a local `#/...` reference inside the document. */
export function resolveRef<T>(document: OpenApiDocument, value: unknown): T {
  let current: unknown = value;
  while (current && typeof current === 'object' && '$ref' in current) {
    const ref = (current as { $ref: string }).$ref;
    current = ref
      .replace(/^#\//, '')
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], document);
  }
  return current as T;
}
