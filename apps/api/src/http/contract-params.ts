import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { DomainError } from '#core/errors/domain-error.js';
import type { ApiRequest } from './api-request.js';
import { ContractValidationPipe } from './contract-validation.pipe.js';
import { MAX_BODY_DEPTH } from './json-body.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The JSON body, refused first when it could not be read or is not JSON at all, then checked
 * against the operation's request schema.
 */
const RawJsonBody = createParamDecorator((_: unknown, context: ExecutionContext): unknown => {
  const req = context.switchToHttp().getRequest<ApiRequest>();
  if (req.bodyError === 'PAYLOAD_TOO_LARGE') {
    throw new DomainError('PAYLOAD_TOO_LARGE', 'The request body is larger than 64 KiB.');
  }
  if (!req.is('application/json') && !req.is('application/*+json')) {
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json.');
  }
  if (req.bodyError === 'MALFORMED_JSON') {
    throw new DomainError('VALIDATION_FAILED', 'The request body is not valid JSON.', [
      { path: '/', message: 'is not valid JSON' },
    ]);
  }
  if (req.bodyError === 'TOO_DEEP') {
    throw new DomainError('VALIDATION_FAILED', `The request body nests more than ${MAX_BODY_DEPTH} levels deep.`, [
      { path: '/', message: `nests more than ${MAX_BODY_DEPTH} levels deep` },
    ]);
  }
  return req.body;
});

export const ContractBody = (operationId: string): ParameterDecorator =>
  RawJsonBody(undefined, new ContractValidationPipe(operationId, 'body'));

const RawQuery = createParamDecorator(
  (_: unknown, context: ExecutionContext): unknown => context.switchToHttp().getRequest<ApiRequest>().query,
);

export const ContractQuery = (operationId: string): ParameterDecorator =>
  RawQuery(undefined, new ContractValidationPipe(operationId, 'query'));

/** A path id; one that is not a UUID cannot name anything here, so it is 404 (D3). */
export const IdParam = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const id = context.switchToHttp().getRequest<ApiRequest>().params.id;
  if (typeof id !== 'string' || !UUID.test(id)) throw new DomainError('NOT_FOUND', 'Nothing with this id exists in this business.');
  return id.toLowerCase();
});

/** The authenticated key of the request (set by ApiKeyGuard). */
export const CurrentKey = createParamDecorator(
  (_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<ApiRequest>().apiKey!,
);
