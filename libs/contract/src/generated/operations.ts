// Generated from openapi/v1.3.0.yaml by scripts/generate-contract.mjs (npm run contract:generate); never edited.

/** The version of the document these facts were read from. */
export const CONTRACT_VERSION = '1.3.0';

/** Every scope a key can hold (the Scope schema). */
export const SCOPES = ['appointments.read', 'appointments.write', 'clients.read', 'clients.write', 'services.read', 'payments.read', 'sales.read'] as const;
export type Scope = (typeof SCOPES)[number];

/** Every change notice type (the Notice schema's type, one webhook each). */
export const NOTICE_TYPES = ['appointment.created', 'appointment.confirmed', 'appointment.cancelled', 'appointment.rescheduled', 'client.created', 'payment.received', 'sale.created'] as const;
export type NoticeType = (typeof NOTICE_TYPES)[number];

/** What the document says of an operation that a route serves. */
export interface OperationFacts {
  readonly operationId: string;
  readonly method: 'get' | 'put' | 'post' | 'delete' | 'patch';
  /** As the document writes it: /appointments/{id}. */
  readonly path: string;
  /** As a Nest route writes it (relative to the global prefix): appointments/:id. */
  readonly routePath: string;
  /** The one 2xx status of the operation. */
  readonly successStatus: number;
  /** The scope its security requires; null when any valid key may call it. */
  readonly scope: Scope | null;
  /** Whether it takes an Idempotency-Key header. */
  readonly idempotent: boolean;
  readonly pathParameters: readonly string[];
  /** The query parameters it declares; an operation without any does not read the query. */
  readonly queryParameters: readonly string[];
  /** Whether it takes a JSON request body. */
  readonly body: boolean;
}

export const OPERATIONS = {
  getMe: {
    operationId: 'getMe',
    method: 'get',
    path: '/me',
    routePath: 'me',
    successStatus: 200,
    scope: null,
    idempotent: false,
    pathParameters: [],
    queryParameters: [],
    body: false,
  },
  listAppointments: {
    operationId: 'listAppointments',
    method: 'get',
    path: '/appointments',
    routePath: 'appointments',
    successStatus: 200,
    scope: 'appointments.read',
    idempotent: false,
    pathParameters: [],
    queryParameters: ['from', 'to', 'status', 'staffId', 'cursor', 'limit'],
    body: false,
  },
  createAppointment: {
    operationId: 'createAppointment',
    method: 'post',
    path: '/appointments',
    routePath: 'appointments',
    successStatus: 201,
    scope: 'appointments.write',
    idempotent: true,
    pathParameters: [],
    queryParameters: [],
    body: true,
  },
  getAppointment: {
    operationId: 'getAppointment',
    method: 'get',
    path: '/appointments/{id}',
    routePath: 'appointments/:id',
    successStatus: 200,
    scope: 'appointments.read',
    idempotent: false,
    pathParameters: ['id'],
    queryParameters: [],
    body: false,
  },
  rescheduleAppointment: {
    operationId: 'rescheduleAppointment',
    method: 'post',
    path: '/appointments/{id}/reschedule',
    routePath: 'appointments/:id/reschedule',
    successStatus: 200,
    scope: 'appointments.write',
    idempotent: true,
    pathParameters: ['id'],
    queryParameters: [],
    body: true,
  },
  cancelAppointment: {
    operationId: 'cancelAppointment',
    method: 'post',
    path: '/appointments/{id}/cancel',
    routePath: 'appointments/:id/cancel',
    successStatus: 200,
    scope: 'appointments.write',
    idempotent: true,
    pathParameters: ['id'],
    queryParameters: [],
    body: true,
  },
  listClients: {
    operationId: 'listClients',
    method: 'get',
    path: '/clients',
    routePath: 'clients',
    successStatus: 200,
    scope: 'clients.read',
    idempotent: false,
    pathParameters: [],
    queryParameters: ['updatedSince', 'cursor', 'limit'],
    body: false,
  },
  createClient: {
    operationId: 'createClient',
    method: 'post',
    path: '/clients',
    routePath: 'clients',
    successStatus: 201,
    scope: 'clients.write',
    idempotent: true,
    pathParameters: [],
    queryParameters: [],
    body: true,
  },
  getClient: {
    operationId: 'getClient',
    method: 'get',
    path: '/clients/{id}',
    routePath: 'clients/:id',
    successStatus: 200,
    scope: 'clients.read',
    idempotent: false,
    pathParameters: ['id'],
    queryParameters: [],
    body: false,
  },
  listServices: {
    operationId: 'listServices',
    method: 'get',
    path: '/services',
    routePath: 'services',
    successStatus: 200,
    scope: 'services.read',
    idempotent: false,
    pathParameters: [],
    queryParameters: [],
    body: false,
  },
  listStaff: {
    operationId: 'listStaff',
    method: 'get',
    path: '/staff',
    routePath: 'staff',
    successStatus: 200,
    scope: 'services.read',
    idempotent: false,
    pathParameters: [],
    queryParameters: ['serviceId', 'active', 'cursor', 'limit'],
    body: false,
  },
  getStaffMember: {
    operationId: 'getStaffMember',
    method: 'get',
    path: '/staff/{id}',
    routePath: 'staff/:id',
    successStatus: 200,
    scope: 'services.read',
    idempotent: false,
    pathParameters: ['id'],
    queryParameters: [],
    body: false,
  },
  getAvailability: {
    operationId: 'getAvailability',
    method: 'get',
    path: '/availability',
    routePath: 'availability',
    successStatus: 200,
    scope: 'services.read',
    idempotent: false,
    pathParameters: [],
    queryParameters: ['serviceId', 'from', 'to', 'staffId'],
    body: false,
  },
  listPayments: {
    operationId: 'listPayments',
    method: 'get',
    path: '/payments',
    routePath: 'payments',
    successStatus: 200,
    scope: 'payments.read',
    idempotent: false,
    pathParameters: [],
    queryParameters: ['updatedSince', 'cursor', 'limit'],
    body: false,
  },
  getPayment: {
    operationId: 'getPayment',
    method: 'get',
    path: '/payments/{id}',
    routePath: 'payments/:id',
    successStatus: 200,
    scope: 'payments.read',
    idempotent: false,
    pathParameters: ['id'],
    queryParameters: [],
    body: false,
  },
  listSales: {
    operationId: 'listSales',
    method: 'get',
    path: '/sales',
    routePath: 'sales',
    successStatus: 200,
    scope: 'sales.read',
    idempotent: false,
    pathParameters: [],
    queryParameters: ['updatedSince', 'cursor', 'limit'],
    body: false,
  },
  getSale: {
    operationId: 'getSale',
    method: 'get',
    path: '/sales/{id}',
    routePath: 'sales/:id',
    successStatus: 200,
    scope: 'sales.read',
    idempotent: false,
    pathParameters: ['id'],
    queryParameters: [],
    body: false,
  },
} as const satisfies Record<string, OperationFacts>;

export type OperationId = keyof typeof OPERATIONS;
