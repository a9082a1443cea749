import { Injectable, type CallHandler, type CanActivate, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Observable } from 'rxjs';
import { DomainError, validationFailed } from '#core/errors/domain-error.js';
import { cursorInvalid } from '#core/pagination/cursor-codec.js';
import { RequestValidator } from '#contract/request-validator.js';
import type { OperationFacts } from '#contract/generated/operations.js';
import type { ApiRequest, OperationInput } from './api-request.js';
import { MAX_BODY_DEPTH } from './body-limits.js';
import { operationOf } from './operation-metadata.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks a request's input against its operation in the contract, in this order: a body that
 * cannot be read as JSON, the path id, the body's content, the query; the first fault answers. It runs after the guards, so a caller without
 * rights learns nothing about the input rules, and inside the idempotency record, so an invalid
 * request stores nothing. What passed is left on the request for ValidBody, ValidQuery and PathId.
 */
@Injectable()
export class OperationInputInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly validator: RequestValidator,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    checkInput(this.reflector, this.validator, context);
    return next.handle();
  }
}

/**
 * The same check for an operation without an idempotency record to run inside: a route guard,
 * which Nest runs after the global guards (so still after the scope), and which spares the
 * route the Observable chain that any interceptor puts around every request (docs/design-record.md#d2).
 */
@Injectable()
export class OperationInputGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly validator: RequestValidator,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    checkInput(this.reflector, this.validator, context);
    return true;
  }
}

function checkInput(reflector: Reflector, validator: RequestValidator, context: ExecutionContext): void {
  const operation = operationOf(reflector, context);
  if (!operation) throw new Error('The input check serves only routes declared with @Operation');
  const req = context.switchToHttp().getRequest<ApiRequest>();
  req.operationInput = inputOf(validator, operation, req);
}

function inputOf(validator: RequestValidator, operation: OperationFacts, req: ApiRequest): OperationInput {
  const body = operation.body && (operation.bodyRequired || carriesBody(req));
  if (body) assertReadableJson(req);
  const input: OperationInput = {};
  if (operation.pathParameters.includes('id')) input.id = pathId(req);
  if (operation.body) input.body = body ? validBody(validator, operation, req) : undefined;
  if (operation.queryParameters.length > 0) input.query = query(validator, operation, req);
  return input;
}

/** Whether the request has a body at all (an optional body may be left out: no bytes, no Content-Type). */
function carriesBody(req: ApiRequest): boolean {
  return (
    req.headers['transfer-encoding'] !== undefined ||
    Number(req.headers['content-length'] ?? 0) > 0 ||
    req.headers['content-type'] !== undefined
  );
}

/** A path id that is not a UUID cannot name anything here, so it is 404 (docs/design-record.md#d3). */
function pathId(req: ApiRequest): string {
  const id = req.params.id;
  if (typeof id !== 'string' || !UUID.test(id)) throw new DomainError('NOT_FOUND', 'Nothing with this id exists in this business.');
  return id.toLowerCase();
}

/** A body that could not be read, or is not JSON at all, is refused before anything else is looked at. */
function assertReadableJson(req: ApiRequest): void {
  if (req.bodyError === 'PAYLOAD_TOO_LARGE') {
    throw new DomainError('PAYLOAD_TOO_LARGE', 'The request body is larger than 64 KiB.');
  }
  if (!req.is('application/json') && !req.is('application/*+json')) {
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json.');
  }
  if (req.bodyError === 'MALFORMED_JSON') {
    throw new DomainError('VALIDATION_FAILED', 'The request body is not valid JSON.', [{ path: '', message: 'is not valid JSON' }]);
  }
  if (req.bodyError === 'TOO_DEEP') {
    throw new DomainError('VALIDATION_FAILED', `The request body nests more than ${MAX_BODY_DEPTH} levels deep.`, [
      { path: '', message: `nests more than ${MAX_BODY_DEPTH} levels deep` },
    ]);
  }
}

function validBody(validator: RequestValidator, operation: OperationFacts, req: ApiRequest): unknown {
  const result = validator.validateBody(operation.operationId, req.body);
  if (!result.ok) throw validationFailed(result.problems);
  return result.value;
}

/**
 * The query against the operation's parameters. A cursor is opaque, so any fault of it (too long,
 * repeated, altered) is the codec's CURSOR_INVALID rather than a VALIDATION_FAILED on the
 * contract's maxLength; the other parameters are checked first, so a request with several faults
 * hears about those first.
 */
function query(validator: RequestValidator, operation: OperationFacts, req: ApiRequest): Record<string, unknown> {
  const raw = (req.query ?? {}) as Record<string, unknown>;
  const paginated = operation.queryParameters.includes('cursor');
  const { cursor, ...rest } = raw;
  const result = validator.validateQuery<Record<string, unknown>>(operation.operationId, paginated ? rest : raw);
  if (!result.ok) throw validationFailed(result.problems);
  if (!paginated || cursor === undefined) return result.value;
  if (typeof cursor !== 'string') throw cursorInvalid();
  return { ...result.value, cursor };
}
