// @scheduling/sdk: the partner SDK of the Business Scheduling API (docs/partners.md, "The partner SDK").
export { SchedulingClient, apiBaseUrl } from './scheduling-client.js';
export type {
  SchedulingClientOptions,
  CallOptions,
  WriteOptions,
  Schemas,
  QueryOf,
  BodyOf,
  WalkQuery,
  ListPage,
  ClientContact,
} from './scheduling-client.js';
export type { SyncOptions, SyncResult } from './sync.js';
export { OAuthTokenSource, OAuthTokenError, OAuthGrantEndedError } from './oauth-token-source.js';
export type { OAuthTokenSourceOptions, OAuthTokens, AccessTokenSource } from './oauth-token-source.js';
export { ApiPromise } from './api-promise.js';
export type { WithResponse } from './api-promise.js';
export type { ResponseHeaders, RateLimit } from './response-headers.js';
export { SchedulingApiError, isSchedulingApiError, isProblemCode } from './errors.js';
export type { ProblemCode, ProblemFieldError } from './errors.js';
export { verifyNotice, NoticeVerificationError } from './notices.js';
export type { SchedulingNotice, NoticeHeaders } from './notices.js';
export { DEFAULT_RETRY_POLICY, backoffDelay, parseRetryAfter, retryDelay, isReplaySafe } from './retry-policy.js';
export type { RetryPolicy, AttemptOutcome } from './retry-policy.js';
export type { Sleep } from './sleep.js';
export { OPERATION_METHODS } from './operation-methods.js';
export { CONTRACT_VERSION, OPERATION_IDS, PROBLEM_CODES } from './generated/contract.js';
export type { OperationId } from './generated/contract.js';
export type { components, operations, paths, webhooks } from './generated/openapi.js';
