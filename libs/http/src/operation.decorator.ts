import { applyDecorators, HttpCode, RequestMapping, RequestMethod, SetMetadata, UseGuards, UseInterceptors } from '@nestjs/common';
import type { OperationFacts } from '#contract/generated/operations.js';
import { servedOperation } from '#contract/served-contract.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { LocationInterceptor } from './location.interceptor.js';
import { OperationInputGuard, OperationInputInterceptor } from './operation-input.interceptor.js';
import { OPERATION_ID, takesInput, WAITS_ON_NETWORK } from './operation-metadata.js';

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
 * The id names an operation of the core contract or of an enabled extension's (their generated
 * facts: servedOperation); an unknown id stops the process at start. The core's controllers are
 * declared as their modules are imported; an extension's, once its app has enabled it (its module
 * is loaded only then). The schemas the input is checked against are compiled at the API's start
 * (ApiModule), over the whole served contract.
 *
 * `waitsOnNetwork`: the handler resolves names or sends requests to a stranger's address. Its
 * idempotent write then holds no transaction while it runs (docs/design-record.md#d24); the network
 * helpers refuse to run inside one, so a handler that needs this and does not say it fails.
 */
export function Operation(operationId: string, options: { waitsOnNetwork?: boolean } = {}): MethodDecorator {
  const facts: OperationFacts | undefined = servedOperation(operationId);
  if (!facts) throw new Error(`@Operation('${operationId}'): no such operation in the contract or an enabled extension's`);
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
    ...(options.waitsOnNetwork === true ? [SetMetadata(WAITS_ON_NETWORK, true)] : []),
    ...(interceptors.length > 0 ? [UseInterceptors(...interceptors)] : []),
    ...(checksInputAsGuard ? [UseGuards(OperationInputGuard)] : []),
  );
}
