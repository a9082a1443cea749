/** The closed set of problem codes of decision D3; the HTTP layer maps each to a status. */
export const ERROR_CODES = [
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
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
