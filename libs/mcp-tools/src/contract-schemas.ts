import type { OpenApiDocument, OpenApiOperation, OpenApiParameter } from '#contract/openapi-document.js';
import { operationsById } from '#contract/openapi-document.js';

/** A JSON Schema (2020-12, as OpenAPI 3.1 writes them). */
export type JsonSchema = Record<string, unknown>;

// Keys that document a schema for people reading the contract, not for a model filling a tool call.
const DROPPED = new Set(['example', 'examples', 'externalDocs', 'xml']);

/**
 * Tool input schemas read from the contract, never written by hand: a parameter's or a request
 * body's schema with every `$ref` replaced by what it points at, so that an MCP client gets one
 * self-contained JSON Schema per tool.
 */
export class ContractSchemas {
  private readonly operations;

  constructor(private readonly document: OpenApiDocument) {
    this.operations = operationsById(document);
  }

  /** The schema `$ref` points at, inlined all the way down. */
  resolve(schema: unknown): unknown {
    if (Array.isArray(schema)) return schema.map((item) => this.resolve(item));
    if (typeof schema !== 'object' || schema === null) return schema;
    const node = schema as JsonSchema;
    if (typeof node.$ref === 'string') {
      const { $ref, ...siblings } = node;
      return { ...(this.resolve(this.pointer($ref)) as JsonSchema), ...(this.resolve(siblings) as JsonSchema) };
    }
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => !DROPPED.has(key) && !key.startsWith('x-'))
        .map(([key, value]) => [key, this.resolve(value)]),
    );
  }

  /** An operation's parameters of `location` (query or path), by name, resolved. */
  parameters(operationId: string, location: 'query' | 'path' | 'header'): Map<string, { schema: JsonSchema; required: boolean }> {
    const found = new Map<string, { schema: JsonSchema; required: boolean }>();
    for (const entry of this.operation(operationId).parameters ?? []) {
      const parameter = ('$ref' in entry ? this.pointer(entry.$ref) : entry) as OpenApiParameter & { description?: string };
      if (parameter.in !== location) continue;
      const schema = this.resolve(parameter.schema) as JsonSchema;
      found.set(parameter.name, {
        schema: parameter.description ? { ...schema, description: parameter.description } : schema,
        required: parameter.required === true,
      });
    }
    return found;
  }

  /** An operation's JSON request body schema, resolved (an object schema in this contract). */
  body(operationId: string): JsonSchema {
    const content = this.operation(operationId).requestBody?.content['application/json'];
    if (!content) throw new Error(`${operationId} takes no JSON body`);
    return this.resolve(content.schema) as JsonSchema;
  }

  /**
   * A tool's input: the named query or path parameters of an operation, its header parameters
   * under the argument names `header` gives them (`{ 'Idempotency-Key': 'idempotencyKey' }`;
   * optional arguments, the tool fills in what is not given), and its body's properties when
   * `withBody`, as one object schema.
   */
  input(
    operationId: string,
    names: {
      query?: string[];
      path?: string[];
      header?: Record<string, string>;
      withBody?: boolean;
      description?: Record<string, string>;
    },
  ): JsonSchema {
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    for (const location of ['path', 'query'] as const) {
      const parameters = this.parameters(operationId, location);
      for (const name of names[location] ?? []) {
        const parameter = parameters.get(name);
        if (!parameter) throw new Error(`${operationId} has no ${location} parameter ${name}`);
        properties[name] = names.description?.[name] ? { ...parameter.schema, description: names.description[name] } : parameter.schema;
        if (parameter.required || location === 'path') required.push(name);
      }
    }
    const headers = this.parameters(operationId, 'header');
    for (const [header, argument] of Object.entries(names.header ?? {})) {
      const parameter = headers.get(header);
      if (!parameter) throw new Error(`${operationId} has no header parameter ${header}`);
      properties[argument] = names.description?.[argument]
        ? { ...parameter.schema, description: names.description[argument] }
        : parameter.schema;
    }
    let body: JsonSchema = {};
    if (names.withBody) {
      body = this.body(operationId);
      if (body.type !== 'object') throw new Error(`${operationId}'s body is not an object`);
      for (const name of Object.keys(body.properties as Record<string, unknown>)) {
        if (name in properties) throw new Error(`${operationId}'s body has a property ${name}, the name of another argument`);
      }
      Object.assign(properties, body.properties as Record<string, unknown>);
      required.push(...((body.required as string[] | undefined) ?? []));
    }
    const schema: JsonSchema = { type: 'object', properties, additionalProperties: false };
    if (required.length > 0) schema.required = required;
    // The body's own combinators (e.g. a client given by id or in full) stay in force.
    for (const keyword of ['oneOf', 'anyOf', 'allOf']) if (body[keyword] !== undefined) schema[keyword] = body[keyword];
    return schema;
  }

  /**
   * A tool's output: the JSON schema of the operation's success answer (its one 2xx), resolved, so
   * that a tool's structured content is declared as the API's own answer.
   */
  output(operationId: string): JsonSchema {
    const [status, response] = Object.entries(this.operation(operationId).responses).find(([code]) => /^2\d\d$/.test(code)) ?? [];
    if (!status || !response) throw new Error(`${operationId} has no success answer`);
    const answer = (response.$ref ? this.pointer(response.$ref) : response) as { content?: Record<string, { schema: unknown }> };
    const content = answer.content?.['application/json'];
    if (!content) throw new Error(`${operationId}'s ${status} answer has no JSON body`);
    const schema = this.resolve(content.schema) as JsonSchema;
    if (schema.type !== 'object') throw new Error(`${operationId}'s answer is not an object`);
    return schema;
  }

  private operation(operationId: string): OpenApiOperation {
    const entry = this.operations.get(operationId);
    if (!entry) throw new Error(`The contract has no operation ${operationId}`);
    return entry.operation;
  }

  private pointer(ref: string): unknown {
    if (!ref.startsWith('#/')) throw new Error(`Only local $refs are supported, not ${ref}`);
    let node: unknown = this.document;
    for (const part of ref.slice(2).split('/')) {
      node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
      if (node === undefined) throw new Error(`Unresolved $ref ${ref}`);
    }
    return node;
  }
}
