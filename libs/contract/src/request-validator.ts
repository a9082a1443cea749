import type { Ajv2020 } from 'ajv/dist/2020.js';
import {
  loadContract,
  operationsById,
  resolveRef,
  type OpenApiDocument,
  type OpenApiParameter,
  type OperationEntry,
} from './openapi-document.js';
import { createAjv, DOCUMENT_ID, type ValidateFunction } from './schema-compiler.js';
import { unstorableText } from './text-rules.js';
import { anchorRefs, pointerToken, ValidationErrorFormatter, type FieldProblem } from './validation-errors.js';

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

interface CompiledOperation {
  body?: ValidateFunction;
  validateQuery?: ValidateFunction;
  queryNames: Set<string>;
}

/**
 * Validates request bodies and queries against the operation's schemas in the contract, so
 * every input rule has one copy: the document. Query strings are coerced to the declared types
 * and defaults applied (limit = 50).
 */
export class RequestValidator {
  private readonly bodyAjv: Ajv2020;
  private readonly queryAjv: Ajv2020;
  private readonly bodyErrors: ValidationErrorFormatter;
  private readonly queryErrors: ValidationErrorFormatter;
  private readonly operations: Map<string, OperationEntry>;
  private readonly compiled = new Map<string, CompiledOperation>();

  constructor(private readonly document: OpenApiDocument = loadContract().document) {
    this.bodyAjv = createAjv(document, { coerceTypes: false });
    this.queryAjv = createAjv(document, { coerceTypes: true });
    this.bodyErrors = new ValidationErrorFormatter(this.bodyAjv, DOCUMENT_ID);
    this.queryErrors = new ValidationErrorFormatter(this.queryAjv, DOCUMENT_ID);
    this.operations = operationsById(document);
  }

  /** Compiles every operation's schemas now (the API's start) rather than on a first request, and throws on one that does not compile. */
  compileAll(): void {
    for (const operationId of this.operations.keys()) this.compile(operationId);
  }

  /** The body against the operation's schema, and its text against what can be stored (text-rules.ts). */
  validateBody<T>(operationId: string, body: unknown): ValidationResult<T> {
    const validate = this.compile(operationId).body;
    if (!validate) throw new Error(`${operationId} declares no JSON request body`);
    const schemaProblems = validate(body) ? [] : this.bodyErrors.format(validate.errors, body);
    const textProblems = unstorableText(body).filter((t) => !schemaProblems.some((p) => p.path === t.path));
    if (schemaProblems.length === 0 && textProblems.length === 0) return { ok: true, value: body as T };
    return { ok: false, problems: [...schemaProblems, ...textProblems] };
  }

  validateQuery<T>(operationId: string, rawQuery: Record<string, unknown>): ValidationResult<T> {
    const compiled = this.compile(operationId);
    const query = { ...rawQuery };
    const problems: FieldProblem[] = Object.keys(query)
      .filter((name) => !compiled.queryNames.has(name))
      .map((name) => ({ path: `/query/${pointerToken(name)}`, message: 'is not a parameter of this operation' }));
    if (compiled.validateQuery && !compiled.validateQuery(query)) {
      problems.push(...this.queryErrors.format(compiled.validateQuery.errors, query, '/query'));
    }
    return problems.length > 0 ? { ok: false, problems } : { ok: true, value: query as T };
  }

  private compile(operationId: string): CompiledOperation {
    const existing = this.compiled.get(operationId);
    if (existing) return existing;
    const entry = this.operations.get(operationId);
    if (!entry) throw new Error(`The contract has no operation ${operationId}`);

    const pathItem = this.document.paths[entry.path] as { parameters?: unknown[] };
    const parameters = [...(pathItem.parameters ?? []), ...(entry.operation.parameters ?? [])].map((p) =>
      resolveRef<OpenApiParameter>(this.document, p as OpenApiParameter),
    );
    const queryParams = parameters.filter((p) => p.in === 'query');
    const compiled: CompiledOperation = { queryNames: new Set(queryParams.map((p) => p.name)) };
    if (queryParams.length > 0) {
      compiled.validateQuery = this.queryAjv.compile(
        anchorRefs(
          {
            type: 'object',
            properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema])),
            required: queryParams.filter((p) => p.required).map((p) => p.name),
          },
          DOCUMENT_ID,
        ) as Record<string, unknown>,
      );
    }
    const bodySchema = entry.operation.requestBody?.content['application/json']?.schema;
    if (bodySchema) {
      compiled.body = this.bodyAjv.compile(anchorRefs(bodySchema, DOCUMENT_ID) as Record<string, unknown>);
    }
    this.compiled.set(operationId, compiled);
    return compiled;
  }
}
