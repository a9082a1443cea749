import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { HTTP_METHODS, resolveRef, type OpenApiDocument, type OpenApiOperation } from '#contract/openapi-document.js';
import { ServedContract } from '#contract/served-contract.js';
import { createAjv, DOCUMENT_ID, type ValidateFunction } from '#contract/schema-compiler.js';
import { anchorRefs } from '#contract/validation-errors.js';

export interface ObservedResponse {
  method: string;
  /** The path after the /v1/api prefix, with its query string removed. */
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body text. */
  text: string;
}

interface OperationRoute {
  method: string;
  pattern: RegExp;
  operation: OpenApiOperation;
}

interface ResponseObject {
  content?: Record<string, { schema: unknown }>;
  headers?: Record<string, { required?: boolean; schema?: unknown } | { $ref: string }>;
}

/**
 * Checks a response against the served contract (openapi/v1.5.0.yaml and the enabled extensions'): the status is declared for the operation, the
 * media type and body match its schema, and the required headers are present and valid.
 */
export class ContractResponseValidator {
  private readonly ajv: Ajv2020;
  private readonly routes: OperationRoute[] = [];
  private readonly compiled = new Map<object, ValidateFunction>();
  /** operationId → statuses seen, for coverage reports. */
  readonly seen = new Map<string, Set<number>>();
  /** Pairs already written to CONTRACT_COVERAGE_DIR by this validator. */
  private readonly recorded = new Set<string>();

  constructor(
    private readonly document: OpenApiDocument = new ServedContract().document,
    /** Whether conforming pairs count for the coverage gate (they count once: for the served document). */
    private readonly recordsCoverage = true,
  ) {
    this.ajv = createAjv(document, { coerceTypes: false });
    for (const [path, item] of Object.entries(document.paths)) {
      const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (operation) this.routes.push({ method, pattern, operation });
      }
    }
  }

  /** Problems found; empty when the response conforms. */
  check(response: ObservedResponse): string[] {
    if (response.status === 503 && !this.publishesUnavailable()) return this.problemsOfUnavailable(response);
    const problems = this.problemsOf(response);
    if (problems.length === 0) this.record(response);
    return problems;
  }

  /**
   * Whether the answered document publishes 503 SERVICE_UNAVAILABLE (1.4.0 on: its reusable
   * ServiceUnavailable response, declared by every operation): its 503s are then checked like any
   * other answer.
   */
  private publishesUnavailable(): boolean {
    const components = (this.document as { components?: { responses?: Record<string, unknown> } }).components;
    return components?.responses?.ServiceUnavailable !== undefined;
  }

  /**
   * 503 SERVICE_UNAVAILABLE (no database connection in time, docs/design-record.md#d24) may answer
   * any operation, and the frozen 1.2.0 and 1.3.0 documents do not list it: docs/error-codes.md
   * documents it for callers pinned to them (1.4.0 publishes it). Its answer is the contract's
   * Problem in every other respect, with Retry-After; it counts for no operation's coverage.
   */
  private problemsOfUnavailable(response: ObservedResponse): string[] {
    const problems: string[] = [];
    if (!response.headers['x-request-id']) problems.push('X-Request-Id header is missing');
    if (!/^[1-9]\d*$/.test(String(response.headers['retry-after'] ?? ''))) problems.push('503: Retry-After is not a number of seconds');
    const contentType = String(response.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    let body: { code?: unknown; status?: unknown } | undefined;
    try {
      body = JSON.parse(response.text) as typeof body;
    } catch {
      return [...problems, '503: body is not JSON'];
    }
    if (body?.code !== 'SERVICE_UNAVAILABLE' || body.status !== 503)
      return [...problems, `503: not SERVICE_UNAVAILABLE: ${response.text.slice(0, 500)}`];
    // Checked as a Problem under a published code: the one thing the contract does not know yet is the code itself.
    const asPublished = JSON.stringify({ ...body, code: 'INTERNAL' });
    problems.push(
      ...this.checkBody({ $ref: '#/components/schemas/Problem' }, asPublished, 'application/problem+json', contentType).map(
        (p) => `503: ${p}`,
      ),
    );
    return problems;
  }

  /**
   * Persists each conforming (operation, status) pair once per validator, as a JSON line in
   * CONTRACT_COVERAGE_DIR (set by global-setup.mjs): Jest gives every test file its own module
   * registry, so the coverage gate (test/robustness/contract-coverage-gate.mjs) reads the union
   * of what all files saw from there.
   */
  private record(response: ObservedResponse): void {
    const dir = process.env.CONTRACT_COVERAGE_DIR;
    const route = this.routeOf(response);
    if (!dir || !route || !this.recordsCoverage) return;
    const pair = `${route.operation.operationId} ${response.status}`;
    if (this.recorded.has(pair)) return;
    this.recorded.add(pair);
    appendFileSync(
      join(dir, `seen-${process.pid}.jsonl`),
      `${JSON.stringify({ operationId: route.operation.operationId, status: response.status })}\n`,
    );
  }

  /** The operationId the document gives this method and path, if any. */
  operationIdOf(response: Pick<ObservedResponse, 'method' | 'path'>): string | undefined {
    return this.routeOf(response as ObservedResponse)?.operation.operationId;
  }

  /** Whether the document has an operation for this method and path. */
  describes(response: Pick<ObservedResponse, 'method' | 'path'>): boolean {
    return this.routeOf(response as ObservedResponse) !== undefined;
  }

  private routeOf(response: ObservedResponse): OperationRoute | undefined {
    return this.routes.find((r) => r.method === response.method.toLowerCase() && r.pattern.test(response.path));
  }

  private problemsOf(response: ObservedResponse): string[] {
    const problems: string[] = [];
    if (!response.headers['x-request-id']) problems.push('X-Request-Id header is missing');
    const route = this.routeOf(response);
    const contentType = String(response.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();

    if (!route) {
      // Outside the operations only errors are expected: they must still be problem details.
      if (response.status >= 400)
        problems.push(...this.checkBody({ $ref: '#/components/schemas/Problem' }, response.text, 'application/problem+json', contentType));
      return problems;
    }
    const { operation } = route;
    const statuses = this.seen.get(operation.operationId) ?? new Set<number>();
    statuses.add(response.status);
    this.seen.set(operation.operationId, statuses);

    const declared =
      operation.responses[String(response.status)] ?? operation.responses[`${String(response.status)[0]}XX`] ?? operation.responses.default;
    if (!declared) {
      problems.push(`${operation.operationId}: status ${response.status} is not declared`);
      return problems;
    }
    const responseObject = resolveRef<ResponseObject>(this.document, declared);
    for (const [name, header] of Object.entries(responseObject.headers ?? {})) {
      const resolved = resolveRef<{ required?: boolean; schema?: unknown }>(this.document, header);
      const value = response.headers[name.toLowerCase()];
      if (value === undefined) {
        if (resolved.required) problems.push(`${operation.operationId} ${response.status}: header ${name} is missing`);
        continue;
      }
      if (resolved.schema) {
        const validate = this.validator(resolved.schema);
        const text = Array.isArray(value) ? value.join(', ') : value;
        const typed = /^-?\d+$/.test(text) && (resolved.schema as { type?: string }).type === 'integer' ? Number(text) : text;
        if (!validate(typed))
          problems.push(`${operation.operationId} ${response.status}: header ${name}=${text} ${this.ajv.errorsText(validate.errors)}`);
      }
    }
    const media = Object.entries(responseObject.content ?? {});
    if (media.length === 0) return problems;
    const match = media.find(([type]) => type === contentType);
    if (!match) {
      problems.push(
        `${operation.operationId} ${response.status}: content type ${contentType || '(none)'} is not one of ${media.map(([t]) => t).join(', ')}`,
      );
      return problems;
    }
    problems.push(
      ...this.checkBody(match[1].schema, response.text, match[0], contentType).map(
        (p) => `${operation.operationId} ${response.status}: ${p}`,
      ),
    );
    return problems;
  }

  private checkBody(schema: unknown, text: string, expectedType: string, contentType: string): string[] {
    if (contentType !== expectedType) return [`content type ${contentType || '(none)'} is not ${expectedType}`];
    if (expectedType.endsWith('yaml')) return [];
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return ['body is not JSON'];
    }
    const validate = this.validator(schema as object);
    return validate(body) ? [] : [`body does not match the schema: ${this.ajv.errorsText(validate.errors)} in ${text.slice(0, 500)}`];
  }

  private validator(schema: object): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(anchorRefs(schema, DOCUMENT_ID) as Record<string, unknown>);
      this.compiled.set(schema, validate);
    }
    return validate;
  }
}
