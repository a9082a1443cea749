// Generated from openapi/v1.5.0.yaml by scripts/sdk-contract.mjs (npm run contract:generate); never edited.

/** The version of the contract this SDK was made from. */
export const CONTRACT_VERSION = '1.5.0';

/** Every operation of the contract (its paths; the webhooks are notices, see verifyNotice). */
export const OPERATION_IDS = [
  'getMe',
  'listAppointments',
  'createAppointment',
  'getAppointment',
  'updateAppointment',
  'rescheduleAppointment',
  'cancelAppointment',
  'listClients',
  'createClient',
  'getClient',
  'listServices',
  'listStaff',
  'getStaffMember',
  'getAvailability',
  'listPayments',
  'getPayment',
  'listSales',
  'getSale',
  'listWebhookEndpoints',
  'createWebhookEndpoint',
  'getWebhookEndpoint',
  'deleteWebhookEndpoint',
  'updateWebhookEndpoint',
  'rotateWebhookEndpointSecret',
  'testWebhookEndpoint',
  'listWebhookDeliveries',
  'listEvents',
  'getEvent',
  'redeliverEvent',
] as const;
export type OperationId = (typeof OPERATION_IDS)[number];

/** Every problem code an answer can carry: ProblemCode and WebhookProblemCode. */
export const PROBLEM_CODES = [
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
  'WEBHOOK_URL_REFUSED',
  'WEBHOOK_ENDPOINT_LIMIT',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];
