import createClient, { type Client } from 'openapi-fetch';
import { ApiPromise } from './api-promise.js';
import { SchedulingApiError } from './errors.js';
import { CONTRACT_VERSION } from './generated/contract.js';
import type { components, operations, paths } from './generated/openapi.js';
import { walkPages, type ListPage } from './pages.js';
import type { AccessTokenSource } from './oauth-token-source.js';
import { readResponseHeaders } from './response-headers.js';
import { retryingFetch, type BearerCredential } from './retrying-fetch.js';
import { DEFAULT_RETRY_POLICY, type AttemptOutcome, type RetryPolicy } from './retry-policy.js';
import { sleep as realSleep, type Sleep } from './sleep.js';
import { syncChanges, type SyncOptions, type SyncResult } from './sync.js';

export type Schemas = components['schemas'];
/** The query of an operation, as the contract declares it. */
export type QueryOf<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;
/** The JSON body of an operation. */
export type BodyOf<Op extends keyof operations> =
  NonNullable<operations[Op]['requestBody']> extends { content: { 'application/json': infer B } } ? B : never;
/** A list query without its cursor: the walk sets it. */
export type WalkQuery<Op extends keyof operations> = Omit<QueryOf<Op>, 'cursor'>;

/** The options of every SchedulingClient, whatever its credential. */
interface SchedulingClientSettings {
  /** The service's address, e.g. `https://api.example`; `/v1/api` is added unless the address ends with it. */
  baseUrl: string;
  /** The fetch to send requests with (default: the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** Retries after the first attempt (default 3; 0 never retries). */
  maxRetries?: number;
  /** Sent as User-Agent, before the SDK's own name. */
  userAgent?: string;
  /** Backoff bounds (default: 500 ms doubling up to 20 s, with jitter). */
  retryDelays?: { baseMs?: number; maxMs?: number };
  /** How to wait before a retry (tests inject one that does not wait). */
  sleep?: Sleep;
  /** The jitter's random source, in [0, 1) (default Math.random). */
  random?: () => number;
  /** Told of every wait before a retry (its `request` carries no Authorization header). */
  onRetry?: (wait: { attempt: number; delayMs: number; outcome: AttemptOutcome; request: Request }) => void;
}

/** A SchedulingClient's options: its address and settings, and exactly one credential, `apiKey` or `auth`. */
export type SchedulingClientOptions = SchedulingClientSettings &
  (
    | {
        /** A live (`rk_live_…`) or test (`rk_test_…`) key; sent as `Authorization: Bearer`. */
        apiKey: string;
        auth?: undefined;
      }
    | {
        /**
         * An OAuth grant (an OAuthTokenSource): each attempt sends its current access token as
         * `Authorization: Bearer`; a 401 refreshes it once and sends the request once more.
         */
        auth: AccessTokenSource;
        apiKey?: undefined;
      }
  );

/** Options of one call. */
export interface CallOptions {
  /** Aborts the request and any wait before a retry. */
  signal?: AbortSignal;
}

/** Options of one write. */
export interface WriteOptions extends CallOptions {
  /** The Idempotency-Key (D4); default a fresh UUID per call, the same on each of its retries. */
  idempotencyKey?: string;
}

const SDK_AGENT = `scheduling-sdk/${CONTRACT_VERSION}`;

/** `https://api.example` → `https://api.example/v1/api`; an address already ending in /v1/api is kept. */
export function apiBaseUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/v1/api') ? path : `${path}/v1/api`;
  return url.href.replace(/\/+$/, '');
}

/** What `clients.find` looks a client up by: a phone, an e-mail, or both (D21); `{}` is not one. */
export type ClientContact = { phone: string; email?: string } | { phone?: string; email: string };

/**
 * The query of a lookup: the phone and the e-mail that are given, without an empty one. A contact
 * with neither is refused here, before anything is sent: without `phone` and `email`, GET /clients
 * is the plain list, and its first client is not the one a partner was looking for
 * (docs/design-record.md#d21). A caller without types (or with `as`) can still pass `{}`, undefined
 * or an empty string from a form.
 */
function lookupQuery(contact: ClientContact): { phone?: string; email?: string } {
  const query: { phone?: string; email?: string } = {};
  for (const name of ['phone', 'email'] as const) {
    const value: unknown = (contact as Partial<Record<'phone' | 'email', unknown>> | null | undefined)?.[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw new TypeError(`clients.find: ${name} must be a string, not ${typeof value}`);
    if (value.trim() !== '') query[name] = value;
  }
  if (query.phone === undefined && query.email === undefined) {
    throw new TypeError(
      "clients.find needs a phone or an e-mail to look a client up, e.g. find({ phone: '+351912345678' }) or " +
        "find({ email: 'ana@example.com' }); neither was given (or both were empty). clients.list() lists every client.",
    );
  }
  return query;
}

/**
 * The client's one credential. Both or neither is a mistake said at once, in words, including for
 * callers without types; the API key is then a source that never changes.
 */
function credentialOf(options: SchedulingClientOptions): BearerCredential {
  const given = options as { apiKey?: unknown; auth?: unknown };
  const hasKey = given.apiKey !== undefined && given.apiKey !== null && given.apiKey !== '';
  const hasAuth = given.auth !== undefined && given.auth !== null;
  if (hasKey && hasAuth) throw new Error('SchedulingClient takes one credential: an apiKey or auth (an OAuthTokenSource), not both');
  if (hasAuth) {
    const auth = given.auth as Partial<AccessTokenSource>;
    if (typeof auth.getAccessToken !== 'function' || typeof auth.invalidate !== 'function') {
      throw new TypeError('SchedulingClient: auth must be an OAuthTokenSource (with getAccessToken and invalidate)');
    }
    return auth as AccessTokenSource;
  }
  if (typeof given.apiKey !== 'string' || given.apiKey === '') {
    throw new Error('SchedulingClient needs a credential: an apiKey, or auth (an OAuthTokenSource)');
  }
  const apiKey = given.apiKey;
  return { getAccessToken: () => Promise.resolve(apiKey) };
}

type ApiResult<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

/**
 * The Business Scheduling API (the contract version CONTRACT_VERSION), one typed method per operation, grouped by
 * resource (the table OPERATION_METHODS in operation-methods.ts names the method of each
 * operationId). Problems are thrown as SchedulingApiError; writes carry an Idempotency-Key; reads and
 * keyed writes are retried on 429, 5xx and lost answers (retry-policy.ts). A method that sends one
 * request returns an ApiPromise: `await` it for the data, or `.withResponse()` for the data with the
 * answer's status and headers.
 */
export class SchedulingClient {
  private readonly http: Client<paths>;

  constructor(options: SchedulingClientOptions) {
    const credential = credentialOf(options);
    const policy: RetryPolicy = {
      maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
      baseDelayMs: options.retryDelays?.baseMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
      maxDelayMs: options.retryDelays?.maxMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
    };
    if (!Number.isInteger(policy.maxRetries) || policy.maxRetries < 0) throw new RangeError('maxRetries must be a whole number ≥ 0');
    const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    this.http = createClient<paths>({
      baseUrl: apiBaseUrl(options.baseUrl),
      headers: {
        'User-Agent': options.userAgent ? `${options.userAgent} ${SDK_AGENT}` : SDK_AGENT,
        // The SDK's types are the shapes of the version it was generated from: it asks for that
        // version whatever its key is pinned to (docs/design-record.md#d22).
        'Api-Version': CONTRACT_VERSION,
      },
      fetch: retryingFetch({
        fetch: baseFetch,
        credential,
        policy,
        sleep: options.sleep ?? realSleep,
        random: options.random ?? Math.random,
        now: Date.now,
        onRetry: options.onRetry,
      }),
    });
  }

  /** GET /me: the key, its scopes and its business. */
  me(options: CallOptions = {}): ApiPromise<Schemas['Me']> {
    return this.run(this.http.GET('/me', { signal: options.signal }));
  }

  readonly appointments = {
    /** Every appointment of the range (all pages). */
    list: (query: WalkQuery<'listAppointments'>, options: CallOptions = {}) =>
      walkPages((cursor) => this.appointments.listPage({ ...query, cursor }, options)),
    /** One page of GET /appointments. */
    /**
     * The incremental sync (docs/partners.md, "Incremental sync"): every appointment changed since the last
     * sync's `since` to onChange, in order of update; answers the `since` to keep for the next one.
     */
    sync: (options: SyncOptions<Schemas['Appointment']>): Promise<SyncResult> =>
      syncChanges((query, signal) => this.appointments.listPage(query, { signal }), options),
    listPage: (query: QueryOf<'listAppointments'>, options: CallOptions = {}): ApiPromise<Schemas['AppointmentList']> =>
      this.run(this.http.GET('/appointments', { params: { query }, signal: options.signal })),
    get: (id: string, options: CallOptions = {}): ApiPromise<Schemas['Appointment']> =>
      this.run(this.http.GET('/appointments/{id}', { params: { path: { id } }, signal: options.signal })),
    /** Books (POST /appointments): an existing client (`client: { id }`) or a new one; without `staffId`, any staff member (D16). */
    create: (body: BodyOf<'createAppointment'>, options: WriteOptions = {}): ApiPromise<Schemas['Appointment']> =>
      this.run(this.http.POST('/appointments', { params: { header: this.idempotency(options) }, body, signal: options.signal })),
    /**
     * Replaces the appointment's metadata (PATCH /appointments/{id}, since 1.4.0): `{ metadata }` as a
     * whole, `{}` clears it. The server makes the Idempotency-Key optional here; the SDK sends one
     * (yours, or a fresh one) so that a retried call is replayed, as every write of the SDK.
     */
    update: (id: string, body: BodyOf<'updateAppointment'>, options: WriteOptions = {}): ApiPromise<Schemas['Appointment']> =>
      this.run(
        this.http.PATCH('/appointments/{id}', {
          params: { path: { id }, header: this.idempotency(options) },
          body,
          signal: options.signal,
        }),
      ),
    reschedule: (id: string, body: BodyOf<'rescheduleAppointment'>, options: WriteOptions = {}): ApiPromise<Schemas['Appointment']> =>
      this.run(
        this.http.POST('/appointments/{id}/reschedule', {
          params: { path: { id }, header: this.idempotency(options) },
          body,
          signal: options.signal,
        }),
      ),
    cancel: (id: string, body: BodyOf<'cancelAppointment'>, options: WriteOptions = {}): ApiPromise<Schemas['Appointment']> =>
      this.run(
        this.http.POST('/appointments/{id}/cancel', {
          params: { path: { id }, header: this.idempotency(options) },
          body,
          signal: options.signal,
        }),
      ),
  };

  readonly clients = {
    /** Every client in update order (all pages); with `phone` or `email`, the client that has it (D21). */
    list: (query: WalkQuery<'listClients'> = {}, options: CallOptions = {}) =>
      walkPages((cursor) => this.clients.listPage({ ...query, cursor }, options)),
    /**
     * The incremental sync (docs/partners.md, "Incremental sync"): every client changed since the last
     * sync's `since` to onChange, in order of update; answers the `since` to keep for the next one.
     */
    sync: (options: SyncOptions<Schemas['Client']>): Promise<SyncResult> =>
      syncChanges((query, signal) => this.clients.listPage(query, { signal }), options),
    listPage: (query: QueryOf<'listClients'> = {}, options: CallOptions = {}): ApiPromise<Schemas['ClientList']> =>
      this.run(this.http.GET('/clients', { params: { query }, signal: options.signal })),
    /**
     * The client with this phone (any format) or e-mail (any case), or with both when both are
     * given, or null: what to do after CLIENT_EXISTS. Throws a TypeError, sending nothing, when
     * neither is given (see lookupQuery).
     */
    find: async (contact: ClientContact, options: CallOptions = {}): Promise<Schemas['Client'] | null> => {
      const page = await this.clients.listPage({ ...lookupQuery(contact), limit: 1 }, options);
      return page.data[0] ?? null;
    },
    get: (id: string, options: CallOptions = {}): ApiPromise<Schemas['Client']> =>
      this.run(this.http.GET('/clients/{id}', { params: { path: { id } }, signal: options.signal })),
    create: (body: BodyOf<'createClient'>, options: WriteOptions = {}): ApiPromise<Schemas['Client']> =>
      this.run(this.http.POST('/clients', { params: { header: this.idempotency(options) }, body, signal: options.signal })),
  };

  readonly services = {
    /** Every service (the list is one page). */
    list: (options: CallOptions = {}) => walkPages(() => this.services.listPage(options)),
    listPage: (options: CallOptions = {}): ApiPromise<Schemas['ServiceList']> =>
      this.run(this.http.GET('/services', { signal: options.signal })),
  };

  readonly staff = {
    list: (query: WalkQuery<'listStaff'> = {}, options: CallOptions = {}) =>
      walkPages((cursor) => this.staff.listPage({ ...query, cursor }, options)),
    listPage: (query: QueryOf<'listStaff'> = {}, options: CallOptions = {}): ApiPromise<Schemas['StaffList']> =>
      this.run(this.http.GET('/staff', { params: { query }, signal: options.signal })),
    get: (id: string, options: CallOptions = {}): ApiPromise<Schemas['StaffMember']> =>
      this.run(this.http.GET('/staff/{id}', { params: { path: { id } }, signal: options.signal })),
  };

  readonly availability = {
    /** The free starts of a service in [from, to) (D15), for one member or any. */
    get: (query: QueryOf<'getAvailability'>, options: CallOptions = {}): ApiPromise<Schemas['Availability']> =>
      this.run(this.http.GET('/availability', { params: { query }, signal: options.signal })),
  };

  readonly payments = {
    list: (query: WalkQuery<'listPayments'> = {}, options: CallOptions = {}) =>
      walkPages((cursor) => this.payments.listPage({ ...query, cursor }, options)),
    /**
     * The incremental sync (docs/partners.md, "Incremental sync"): every payment changed since the last
     * sync's `since` to onChange, in order of update; answers the `since` to keep for the next one.
     */
    sync: (options: SyncOptions<Schemas['Payment']>): Promise<SyncResult> =>
      syncChanges((query, signal) => this.payments.listPage(query, { signal }), options),
    listPage: (query: QueryOf<'listPayments'> = {}, options: CallOptions = {}): ApiPromise<Schemas['PaymentList']> =>
      this.run(this.http.GET('/payments', { params: { query }, signal: options.signal })),
    get: (id: string, options: CallOptions = {}): ApiPromise<Schemas['Payment']> =>
      this.run(this.http.GET('/payments/{id}', { params: { path: { id } }, signal: options.signal })),
  };

  readonly sales = {
    list: (query: WalkQuery<'listSales'> = {}, options: CallOptions = {}) =>
      walkPages((cursor) => this.sales.listPage({ ...query, cursor }, options)),
    /**
     * The incremental sync (docs/partners.md, "Incremental sync"): every sale changed since the last
     * sync's `since` to onChange, in order of update; answers the `since` to keep for the next one.
     */
    sync: (options: SyncOptions<Schemas['Sale']>): Promise<SyncResult> =>
      syncChanges((query, signal) => this.sales.listPage(query, { signal }), options),
    listPage: (query: QueryOf<'listSales'> = {}, options: CallOptions = {}): ApiPromise<Schemas['SaleList']> =>
      this.run(this.http.GET('/sales', { params: { query }, signal: options.signal })),
    get: (id: string, options: CallOptions = {}): ApiPromise<Schemas['Sale']> =>
      this.run(this.http.GET('/sales/{id}', { params: { path: { id } }, signal: options.signal })),
  };

  readonly webhookEndpoints = {
    /** Every endpoint (the list is one page). */
    list: (options: CallOptions = {}) => walkPages(() => this.webhookEndpoints.listPage(options)),
    listPage: (options: CallOptions = {}): ApiPromise<Schemas['WebhookEndpointList']> =>
      this.run(this.http.GET('/webhook-endpoints', { signal: options.signal })),
    /** Registers an endpoint; the answer carries its secret, the only time but for rotations. */
    create: (body: BodyOf<'createWebhookEndpoint'>, options: WriteOptions = {}): ApiPromise<Schemas['CreatedWebhookEndpoint']> =>
      this.run(this.http.POST('/webhook-endpoints', { params: { header: this.idempotency(options) }, body, signal: options.signal })),
    get: (id: string, options: CallOptions = {}): ApiPromise<Schemas['WebhookEndpoint']> =>
      this.run(this.http.GET('/webhook-endpoints/{id}', { params: { path: { id } }, signal: options.signal })),
    update: (id: string, body: BodyOf<'updateWebhookEndpoint'>, options: CallOptions = {}): ApiPromise<Schemas['WebhookEndpoint']> =>
      this.run(this.http.PATCH('/webhook-endpoints/{id}', { params: { path: { id } }, body, signal: options.signal })),
    delete: (id: string, options: CallOptions = {}): ApiPromise<void> =>
      this.run<void>(this.http.DELETE('/webhook-endpoints/{id}', { params: { path: { id } }, signal: options.signal })),
    rotateSecret: (id: string, options: WriteOptions = {}): ApiPromise<Schemas['CreatedWebhookEndpoint']> =>
      this.run(
        this.http.POST('/webhook-endpoints/{id}/rotate-secret', {
          params: { path: { id }, header: this.idempotency(options) },
          signal: options.signal,
        }),
      ),
    test: (id: string, options: WriteOptions = {}): ApiPromise<Schemas['WebhookTestResult']> =>
      this.run(
        this.http.POST('/webhook-endpoints/{id}/test', {
          params: { path: { id }, header: this.idempotency(options) },
          signal: options.signal,
        }),
      ),
    /** Every delivery attempt of the endpoint, newest first (all pages). */
    deliveries: (id: string, query: WalkQuery<'listWebhookDeliveries'> = {}, options: CallOptions = {}) =>
      walkPages((cursor) => this.webhookEndpoints.deliveriesPage(id, { ...query, cursor }, options)),
    deliveriesPage: (
      id: string,
      query: QueryOf<'listWebhookDeliveries'> = {},
      options: CallOptions = {},
    ): ApiPromise<Schemas['WebhookDeliveryList']> =>
      this.run(this.http.GET('/webhook-endpoints/{id}/deliveries', { params: { path: { id }, query }, signal: options.signal })),
  };

  readonly events = {
    /** Every event of the last 30 days, newest first (all pages). */
    list: (query: WalkQuery<'listEvents'> = {}, options: CallOptions = {}) =>
      walkPages((cursor) => this.events.listPage({ ...query, cursor }, options)),
    listPage: (query: QueryOf<'listEvents'> = {}, options: CallOptions = {}): ApiPromise<Schemas['EventList']> =>
      this.run(this.http.GET('/events', { params: { query }, signal: options.signal })),
    get: (id: string, options: CallOptions = {}): ApiPromise<Schemas['Event']> =>
      this.run(this.http.GET('/events/{id}', { params: { path: { id } }, signal: options.signal })),
    /** Sends the event again, with the same webhook-id, to one endpoint or to every subscribed one. */
    redeliver: (id: string, body: BodyOf<'redeliverEvent'> = {}, options: WriteOptions = {}): ApiPromise<Schemas['Redelivery']> =>
      this.run(
        this.http.POST('/events/{id}/redeliver', {
          params: { path: { id }, header: this.idempotency(options) },
          body,
          signal: options.signal,
        }),
      ),
  };

  private idempotency(options: WriteOptions): { 'Idempotency-Key': string } {
    return { 'Idempotency-Key': options.idempotencyKey ?? globalThis.crypto.randomUUID() };
  }

  /** The data of a success (with its headers, through withResponse()), or the problem thrown as a SchedulingApiError. */
  private run<T>(call: ApiResult<T>): ApiPromise<T> {
    return new ApiPromise(
      call.then(({ data, error, response }) => {
        if (!response.ok) throw SchedulingApiError.fromResponse(response, error);
        return { data: data as T, status: response.status, headers: readResponseHeaders(response.headers) };
      }),
    );
  }
}

export type { ListPage };
