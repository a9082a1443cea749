// Generated from extensions/waitlist/openapi.yaml by scripts/generate-contract.mjs (npm run contract:generate); never edited.

/** The version of the document these facts were read from. */
export const CONTRACT_VERSION = '1.0.0';

/** Every scope a key can hold (the Scope schema). */
export const SCOPES = ['appointments.read', 'appointments.write', 'clients.read', 'clients.write', 'services.read', 'payments.read', 'sales.read', 'webhooks.manage', 'events.read'] as const;
export type Scope = (typeof SCOPES)[number];

/** Every change notice type (the Notice schema's type, one webhook each). */
export const NOTICE_TYPES = ['waitlist.joined'] as const;
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
  /** Whether that header must be sent; without it an optional one's write runs with no record (D23). */
  readonly idempotencyKeyRequired: boolean;
  readonly pathParameters: readonly string[];
  /** The query parameters it declares; an operation without any does not read the query. */
  readonly queryParameters: readonly string[];
  /** Whether it takes a JSON request body. */
  readonly body: boolean;
  /** Whether that body must be sent; an optional one may be left out altogether (no Content-Type, no bytes). */
  readonly bodyRequired: boolean;
  /** The path its success answer's Location header names, `{id}` being the answer's id (D23); null: no Location. */
  readonly location: string | null;
}

export const OPERATIONS = {
  joinWaitlist: {
    operationId: 'joinWaitlist',
    method: 'post',
    path: '/waitlist',
    routePath: 'waitlist',
    successStatus: 201,
    scope: 'clients.write',
    idempotent: true,
    idempotencyKeyRequired: true,
    pathParameters: [],
    queryParameters: [],
    body: true,
    bodyRequired: true,
    location: '/waitlist/{id}',
  },
  getWaitlistEntry: {
    operationId: 'getWaitlistEntry',
    method: 'get',
    path: '/waitlist/{id}',
    routePath: 'waitlist/:id',
    successStatus: 200,
    scope: 'clients.read',
    idempotent: false,
    idempotencyKeyRequired: false,
    pathParameters: ['id'],
    queryParameters: [],
    body: false,
    bodyRequired: false,
    location: null,
  },
} as const satisfies Record<string, OperationFacts>;

export type OperationId = keyof typeof OPERATIONS;
