/**
 * The problem codes the contract publishes (its ProblemCode, WebhookProblemCode and ServiceUnavailableProblem schemas, docs/design-record.md#d3); the compiler
 * holds the two lists equal (contract-enums.contract-check.ts).
 */
export const PUBLISHED_ERROR_CODES = [
  'VALIDATION_FAILED',
  'IDEMPOTENCY_KEY_INVALID',
  'CURSOR_INVALID',
  'API_KEY_INVALID',
  'PLAN_INTEGRATIONS',
  'API_SCOPE_MISSING',
  'NOT_FOUND',
  'SLOT_TAKEN',
  'SLOT_UNAVAILABLE',
  'CLIENT_EXISTS',
  'APPOINTMENT_NOT_ACTIVE',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_IN_PROGRESS',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'API_RATE_LIMIT',
  'INTERNAL',
  // 1.3.0 (docs/design-record.md#d20): answered only by the webhook endpoint operations (WebhookProblemCode).
  'WEBHOOK_URL_REFUSED',
  'WEBHOOK_ENDPOINT_LIMIT',
  // 1.4.0 publishes it (docs/design-record.md#d24), as the code of its own 503 schema
  // (ServiceUnavailableProblem), not in ProblemCode: a value added to a published response enum
  // breaks the compatibility standard (npm run contract:compat). Callers pinned to 1.2.0 or 1.3.0
  // receive it too, as docs/error-codes.md documents it: no code of theirs says "retry later".
  'SERVICE_UNAVAILABLE',
] as const;
export type PublishedErrorCode = (typeof PUBLISHED_ERROR_CODES)[number];

/**
 * Codes the published document does not list: one per status that none of its codes names, and
 * the refusals of rules no operation of the API reaches (the console's and the admin command line's).
 * CONFLICT answers a 409 that is not one of the named conflicts: a Nest ConflictException (or any
 * 409 HttpException) a module throws. Answering it as 409 keeps the status the module meant; a
 * code of the contract's own (SLOT_TAKEN, CLIENT_EXISTS, …) would name a conflict that did not
 * happen. The 1.2.0 document is frozen, so a module that means to answer 409 on purpose throws a
 * DomainError with a published code, or its contract version publishes a new one.
 */
export const UNPUBLISHED_ERROR_CODES = [
  'CONFLICT',
  // A 403 that is not about the key: a module's own rule said no (the waitlist's client without
  // consent). API_SCOPE_MISSING would send the partner to fix a key that is fine.
  'OPERATION_REFUSED',
  // No operation of the API makes keys: the console and `admin key create` refuse the eleventh
  // active key of a mode with it (docs/design-record.md#d28).
  'KEY_LIMIT',
  // The console and the admin command line refuse to roll a revoked or expired key with it
  // (docs/design-record.md#d29): a roll would give back a key its owner ended.
  'KEY_NOT_ACTIVE',
] as const;

/** The closed set of problem codes; the HTTP layer maps each to its status (libs/http/src/problem.ts). */
export const ERROR_CODES = [...PUBLISHED_ERROR_CODES, ...UNPUBLISHED_ERROR_CODES] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
