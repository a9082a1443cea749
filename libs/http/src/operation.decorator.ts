import { applyDecorators, HttpCode, RequestMapping, RequestMethod, SetMetadata, UseGuards, UseInterceptors } from '@nestjs/common';
import { OPERATIONS, type OperationFacts, type OperationId } from '#contract/generated/operations.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { LocationInterceptor } from './location.interceptor.js';
import { OperationInputGuard, OperationInputInterceptor } from './operation-input.interceptor.js';
import { OPERATION_FACTS, OPERATION_ID, takesInput, WAITS_ON_NETWORK } from './operation-metadata.js';

const METHODS: Record<OperationFacts['method'], RequestMethod> = {
  get: RequestMethod.GET,
  put: RequestMethod.PUT,
  post: RequestMethod.POST,
  delete: RequestMethod.DELETE,
  patch: RequestMethod.PATCH,
};

/**
 * Serves a route as the contract's operation says, and nothing else says it: the method and path,
 * the success status, the scope (ScopeGuard reads it from the operation), the Idempotency-Key
 * when the operation takes one, and the check of the path id, body and query against the
 * document. The handler takes what was checked through ValidBody, ValidQuery and PathId.
 * The operation is named by its operationId for the core contract's (its generated facts), and
 * given by its generated facts for an extension's (`OPERATIONS.joinWaitlist` of the extension's
 * generated/operations.ts, docs/extending.md): the decorator reads no state set at start, so a
 * controller may be declared before or after its application says what it serves. An unknown id
 * stops the process at start. The schemas the input is checked against are compiled at the API's
 * start (RouteLayerModule), over the application's whole served contract.
 *
 * `waitsOnNetwork`: the handler resolves names or sends requests to a stranger's address. Its
 * idempotent write then holds no transaction while it runs (docs/design-record.md#d24); the network
 * helpers refuse to run inside one, so a handler that needs this and does not say it fails.
 */
export function Operation(operation: OperationId | OperationFacts, options: { waitsOnNetwork?: boolean } = {}): MethodDecorator {
  const facts: OperationFacts | undefined = typeof operation === 'string' ? coreOperation(operation) : operation;
  // Only an id can name nothing: facts given are an operation by construction.
  if (!facts) throw new Error(`@Operation('${operation as string}'): no such operation in the core contract`);
  const { operationId } = facts;
  const unsupported = facts.pathParameters.filter((name) => name !== 'id');
  if (unsupported.length > 0) {
    throw new Error(`${operationId}: OperationInputInterceptor checks only the path parameter id, not ${unsupported.join(', ')}`);
  }
  // The idempotency record is opened first, so an invalid input is checked inside it (and not
  // stored). Without a record the input is checked by a route guard, after the global ones.
  // The Location of a created resource is outermost, so that it is set on a replay too (docs/design-record.md#d23).
  const interceptors = [
    ...(facts.location !== null ? [LocationInterceptor] : []),
    ...(facts.idempotent ? [IdempotencyInterceptor, ...(takesInput(facts) ? [OperationInputInterceptor] : [])] : []),
  ];
  const checksInputAsGuard = !facts.idempotent && takesInput(facts);
  return applyDecorators(
    RequestMapping({ path: facts.routePath, method: METHODS[facts.method] }),
    HttpCode(facts.successStatus),
    SetMetadata(OPERATION_ID, operationId),
    SetMetadata(OPERATION_FACTS, facts),
    ...(options.waitsOnNetwork === true ? [SetMetadata(WAITS_ON_NETWORK, true)] : []),
    ...(interceptors.length > 0 ? [UseInterceptors(...interceptors)] : []),
    ...(checksInputAsGuard ? [UseGuards(OperationInputGuard)] : []),
  );
}

function coreOperation(operationId: string): OperationFacts | undefined {
  return Object.hasOwn(OPERATIONS, operationId) ? OPERATIONS[operationId as OperationId] : undefined;
}
