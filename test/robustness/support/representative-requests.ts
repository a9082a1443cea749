import { randomUUID } from 'node:crypto';
import type { RequestBody } from '#contract/contract-types.js';
import { BOOKING_YEAR, type RobustSalon } from './robust-salon.js';

/** Which key a case sends. */
export type CaseKey = 'all-scopes' | 'free-plan' | 'wrong-scope' | 'exhausted' | 'none' | 'unknown';

/** One request of the representative set, and the one answer it must get. */
export interface RepresentativeCase {
  operationId: string;
  status: number;
  /** The problem code, for an error. */
  code?: string;
  label: string;
  /** The request itself breaks the document (bad input): a validating proxy would refuse it. */
  invalidRequest: boolean;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Relative to /v1/api, query string included. */
  path: string;
  key: CaseKey;
  headers: Record<string, string>;
  /** The body text; undefined sends none. */
  body?: string;
}

/** The operations whose scope is services.read: the 'wrong-scope' key holds it, so they get the other one. */
const SERVICES_READ_OPERATIONS = new Set(['listServices', 'listStaff', 'getStaffMember', 'getAvailability']);

/** The keys the cases name, made by the suite that runs them. */
export interface CaseKeys {
  'all-scopes': string;
  'free-plan': string;
  /** A key lacking the scope of every operation but the ones that need services.read. */
  'wrong-scope': string;
  /** A key lacking services.read, for GET /services, /staff and /availability. */
  'wrong-scope-services': string;
  /** A key that has used up its 120 requests of the minute. */
  exhausted: string;
  unknown: string;
}

const json = { 'Content-Type': 'application/json' };
const write = (headers: Record<string, string> = {}) => ({ ...json, 'Idempotency-Key': randomUUID(), ...headers });
/** Over 64 KiB, otherwise a valid cancel/reschedule/booking/client body. */
const oversized = (body: object) => JSON.stringify({ ...body, padding: 'x'.repeat(70 * 1024) });

/**
 * A small set of requests that together produce every operation × status the contract documents,
 * apart from 500 (produced by stopping the database, outages.robust-spec.ts) and the excluded
 * pairs (contract-coverage-exclusions.json). `slotDay` keeps the bookings of two runs apart.
 * The cases of one operation run in the order listed (the 409 of a booking repeats its 201).
 */
export function representativeCases(salon: RobustSalon, slotDay: number): RepresentativeCase[] {
  const slot = (hour: number) => new Date(Date.UTC(BOOKING_YEAR + 10, 0, 1 + slotDay, hour)).toISOString();
  const unknownId = randomUUID();
  const [rescheduleMe, cancelMe] = salon.activeAppointments;
  const inactive = salon.inactiveAppointments[0];
  const range = `from=${BOOKING_YEAR}-01-01T00:00:00Z&to=${BOOKING_YEAR + 40}-01-01T00:00:00Z`;
  const availabilityRange = `serviceId=${salon.services.cut}&from=${slot(0)}&to=${new Date(Date.parse(slot(0)) + 86_400_000).toISOString()}`;
  const booking = {
    staffId: salon.staff.ana,
    serviceId: salon.services.cut,
    startAt: slot(10),
    client: { id: salon.clients[0] },
  } satisfies RequestBody<'createAppointment'>;
  const phone = `+35196${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
  const newClient = {
    name: 'Marta Sousa',
    phone,
    email: `marta.${randomUUID().slice(0, 8)}@example.com`,
    consent: true,
  } satisfies RequestBody<'createClient'>;
  const reschedule = { startAt: slot(12) } satisfies RequestBody<'rescheduleAppointment'>;
  const cancel = { reason: 'Client asked to cancel by phone.' } satisfies RequestBody<'cancelAppointment'>;
  const metadataChange = { metadata: { crmId: 'A-1042' } } satisfies RequestBody<'updateAppointment'>;

  type Draft = Omit<RepresentativeCase, 'key' | 'headers' | 'invalidRequest'> &
    Partial<Pick<RepresentativeCase, 'key' | 'headers' | 'invalidRequest'>>;
  const cases: Draft[] = [];
  const add = (c: Draft) => cases.push(c);

  // What every operation shares: the key, rate, plan and scope gates (D2).
  const hook = `/webhook-endpoints/${salon.endpoints.hook}`;
  const event = salon.events[0] ?? unknownId;
  const newEndpoint = {
    url: 'http://127.0.0.1:9/representative',
    events: ['client.created'],
  } satisfies RequestBody<'createWebhookEndpoint'>;
  const endpointChange = { description: 'Representative' } satisfies RequestBody<'updateWebhookEndpoint'>;
  const redeliver = { endpointId: salon.endpoints.hook } satisfies RequestBody<'redeliverEvent'>;
  const everyOperation: [string, RepresentativeCase['method'], string, string | undefined][] = [
    ['getMe', 'GET', '/me', undefined],
    ['listAppointments', 'GET', `/appointments?${range}`, undefined],
    ['createAppointment', 'POST', '/appointments', JSON.stringify(booking)],
    ['getAppointment', 'GET', `/appointments/${rescheduleMe}`, undefined],
    ['updateAppointment', 'PATCH', `/appointments/${rescheduleMe}`, JSON.stringify(metadataChange)],
    ['rescheduleAppointment', 'POST', `/appointments/${unknownId}/reschedule`, JSON.stringify(reschedule)],
    ['cancelAppointment', 'POST', `/appointments/${unknownId}/cancel`, JSON.stringify(cancel)],
    ['listClients', 'GET', '/clients', undefined],
    ['createClient', 'POST', '/clients', JSON.stringify(newClient)],
    ['getClient', 'GET', `/clients/${salon.clients[0]}`, undefined],
    ['listServices', 'GET', '/services', undefined],
    ['listPayments', 'GET', '/payments', undefined],
    ['getPayment', 'GET', `/payments/${salon.payments[0]}`, undefined],
    ['listSales', 'GET', '/sales', undefined],
    ['getSale', 'GET', `/sales/${salon.sales[0]}`, undefined],
    ['listStaff', 'GET', '/staff', undefined],
    ['getStaffMember', 'GET', `/staff/${salon.staff.ana}`, undefined],
    ['getAvailability', 'GET', `/availability?${availabilityRange}`, undefined],
    ['listWebhookEndpoints', 'GET', '/webhook-endpoints', undefined],
    ['createWebhookEndpoint', 'POST', '/webhook-endpoints', JSON.stringify(newEndpoint)],
    ['getWebhookEndpoint', 'GET', hook, undefined],
    ['updateWebhookEndpoint', 'PATCH', hook, JSON.stringify(endpointChange)],
    ['deleteWebhookEndpoint', 'DELETE', `/webhook-endpoints/${salon.endpoints.doomed}`, undefined],
    ['rotateWebhookEndpointSecret', 'POST', `${hook}/rotate-secret`, undefined],
    ['testWebhookEndpoint', 'POST', `${hook}/test`, undefined],
    ['listWebhookDeliveries', 'GET', `${hook}/deliveries`, undefined],
    ['listEvents', 'GET', '/events', undefined],
    ['getEvent', 'GET', `/events/${event}`, undefined],
    ['redeliverEvent', 'POST', `/events/${event}/redeliver`, JSON.stringify(redeliver)],
  ];
  for (const [operationId, method, path, body] of everyOperation) {
    const idempotent: Record<string, string> = body === undefined ? { 'Idempotency-Key': randomUUID() } : write();
    const headers: Record<string, string> = method === 'POST' ? idempotent : body === undefined ? {} : json;
    add({
      operationId,
      status: 401,
      code: 'API_KEY_INVALID',
      label: 'an unknown key',
      method,
      path,
      key: 'unknown',
      headers: { ...headers },
      body,
    });
    add({
      operationId,
      status: 429,
      code: 'API_RATE_LIMIT',
      label: 'a key past 120 requests a minute',
      method,
      path,
      key: 'exhausted',
      headers: { ...headers },
      body,
    });
    add({
      operationId,
      status: 402,
      code: 'PLAN_INTEGRATIONS',
      label: 'a FREE business',
      method,
      path,
      key: 'free-plan',
      headers: { ...headers },
      body,
    });
    if (operationId !== 'getMe') {
      add({
        operationId,
        status: 403,
        code: 'API_SCOPE_MISSING',
        label: 'a key without the scope',
        method,
        path,
        key: 'wrong-scope',
        headers: { ...headers },
        body,
      });
    }
  }

  add({ operationId: 'getMe', status: 200, label: 'the business and the key', method: 'GET', path: '/me' });

  add({ operationId: 'listAppointments', status: 200, label: 'a page', method: 'GET', path: `/appointments?${range}&limit=2` });
  add({
    operationId: 'listAppointments',
    status: 400,
    code: 'VALIDATION_FAILED',
    label: 'from after to',
    method: 'GET',
    path: `/appointments?from=2031-01-02T00:00:00Z&to=2031-01-01T00:00:00Z`,
  });

  add({
    operationId: 'createAppointment',
    status: 201,
    label: 'a free slot (Form A)',
    method: 'POST',
    path: '/appointments',
    headers: write(),
    body: JSON.stringify(booking),
  });
  add({
    operationId: 'createAppointment',
    status: 409,
    code: 'SLOT_TAKEN',
    label: 'the same slot again',
    method: 'POST',
    path: '/appointments',
    headers: write(),
    body: JSON.stringify(booking),
  });
  add({
    operationId: 'createAppointment',
    status: 400,
    code: 'VALIDATION_FAILED',
    label: 'no client',
    method: 'POST',
    path: '/appointments',
    headers: write(),
    body: JSON.stringify({ ...booking, client: undefined }),
  });
  add({
    operationId: 'createAppointment',
    status: 404,
    code: 'NOT_FOUND',
    label: 'an unknown staff member',
    method: 'POST',
    path: '/appointments',
    headers: write(),
    body: JSON.stringify({ ...booking, staffId: unknownId, startAt: slot(14) }),
  });
  add({
    operationId: 'createAppointment',
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    label: 'a body over 64 KiB',
    method: 'POST',
    path: '/appointments',
    headers: write(),
    body: oversized(booking),
  });
  add({
    operationId: 'createAppointment',
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    label: 'text/plain',
    method: 'POST',
    path: '/appointments',
    headers: write({ 'Content-Type': 'text/plain' }),
    body: JSON.stringify(booking),
  });

  add({ operationId: 'getAppointment', status: 200, label: 'an appointment', method: 'GET', path: `/appointments/${rescheduleMe}` });
  add({
    operationId: 'getAppointment',
    status: 404,
    code: 'NOT_FOUND',
    label: 'an unknown id',
    method: 'GET',
    path: `/appointments/${unknownId}`,
  });

  add({
    operationId: 'updateAppointment',
    status: 200,
    label: 'new metadata',
    method: 'PATCH',
    path: `/appointments/${rescheduleMe}`,
    headers: { ...json },
    body: JSON.stringify(metadataChange),
  });
  add({
    operationId: 'updateAppointment',
    status: 400,
    code: 'VALIDATION_FAILED',
    label: 'a metadata key with a space',
    method: 'PATCH',
    path: `/appointments/${rescheduleMe}`,
    headers: { ...json },
    body: JSON.stringify({ metadata: { 'crm id': 'A-1042' } }),
    invalidRequest: true,
  });
  add({
    operationId: 'updateAppointment',
    status: 404,
    code: 'NOT_FOUND',
    label: 'an unknown appointment',
    method: 'PATCH',
    path: `/appointments/${unknownId}`,
    headers: { ...json },
    body: JSON.stringify(metadataChange),
  });
  add({
    operationId: 'updateAppointment',
    status: 200,
    label: 'new metadata, under an Idempotency-Key the next case repeats',
    method: 'PATCH',
    path: `/appointments/${rescheduleMe}`,
    headers: write({ 'Idempotency-Key': `metadata-${unknownId}` }),
    body: JSON.stringify(metadataChange),
  });
  add({
    operationId: 'updateAppointment',
    status: 409,
    code: 'IDEMPOTENCY_KEY_REUSED',
    label: 'that Idempotency-Key with other metadata',
    method: 'PATCH',
    path: `/appointments/${rescheduleMe}`,
    headers: write({ 'Idempotency-Key': `metadata-${unknownId}` }),
    body: JSON.stringify({ metadata: { crmId: 'B-2' } }),
  });
  add({
    operationId: 'updateAppointment',
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    label: 'a body over 64 KiB',
    method: 'PATCH',
    path: `/appointments/${rescheduleMe}`,
    headers: { ...json },
    body: oversized(metadataChange),
  });
  add({
    operationId: 'updateAppointment',
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    label: 'a form body',
    method: 'PATCH',
    path: `/appointments/${rescheduleMe}`,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'metadata=x',
  });

  const rescheduleOf = (id: string) => `/appointments/${id}/reschedule`;
  add({
    operationId: 'rescheduleAppointment',
    status: 200,
    label: 'to a free slot',
    method: 'POST',
    path: rescheduleOf(rescheduleMe),
    headers: write(),
    body: JSON.stringify(reschedule),
  });
  add({
    operationId: 'rescheduleAppointment',
    status: 400,
    code: 'VALIDATION_FAILED',
    label: 'a start without offset',
    method: 'POST',
    path: rescheduleOf(rescheduleMe),
    headers: write(),
    body: JSON.stringify({ startAt: '2031-01-01T10:00:00' }),
  });
  add({
    operationId: 'rescheduleAppointment',
    status: 404,
    code: 'NOT_FOUND',
    label: 'an unknown appointment',
    method: 'POST',
    path: rescheduleOf(unknownId),
    headers: write(),
    body: JSON.stringify(reschedule),
  });
  add({
    operationId: 'rescheduleAppointment',
    status: 409,
    code: 'APPOINTMENT_NOT_ACTIVE',
    label: 'an appointment already completed',
    method: 'POST',
    path: rescheduleOf(inactive),
    headers: write(),
    body: JSON.stringify(reschedule),
  });
  add({
    operationId: 'rescheduleAppointment',
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    label: 'a body over 64 KiB',
    method: 'POST',
    path: rescheduleOf(rescheduleMe),
    headers: write(),
    body: oversized(reschedule),
  });
  add({
    operationId: 'rescheduleAppointment',
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    label: 'a form body',
    method: 'POST',
    path: rescheduleOf(rescheduleMe),
    headers: write({ 'Content-Type': 'application/x-www-form-urlencoded' }),
    body: 'startAt=2031-01-01T10%3A00%3A00Z',
  });

  const cancelOf = (id: string) => `/appointments/${id}/cancel`;
  add({
    operationId: 'cancelAppointment',
    status: 200,
    label: 'an active appointment',
    method: 'POST',
    path: cancelOf(cancelMe),
    headers: write(),
    body: JSON.stringify(cancel),
  });
  add({
    operationId: 'cancelAppointment',
    status: 400,
    code: 'VALIDATION_FAILED',
    label: 'a reason of 2 characters',
    method: 'POST',
    path: cancelOf(cancelMe),
    headers: write(),
    body: JSON.stringify({ reason: 'no' }),
  });
  add({
    operationId: 'cancelAppointment',
    status: 404,
    code: 'NOT_FOUND',
    label: 'an unknown appointment',
    method: 'POST',
    path: cancelOf(unknownId),
    headers: write(),
    body: JSON.stringify(cancel),
  });
  add({
    operationId: 'cancelAppointment',
    status: 409,
    code: 'APPOINTMENT_NOT_ACTIVE',
    label: 'the appointment just cancelled',
    method: 'POST',
    path: cancelOf(cancelMe),
    headers: write(),
    body: JSON.stringify(cancel),
  });
  add({
    operationId: 'cancelAppointment',
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    label: 'a body over 64 KiB',
    method: 'POST',
    path: cancelOf(cancelMe),
    headers: write(),
    body: oversized(cancel),
  });
  add({
    operationId: 'cancelAppointment',
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    label: 'application/xml',
    method: 'POST',
    path: cancelOf(cancelMe),
    headers: write({ 'Content-Type': 'application/xml' }),
    body: '<reason>no</reason>',
  });

  add({ operationId: 'listClients', status: 200, label: 'a page', method: 'GET', path: '/clients?limit=2' });
  add({ operationId: 'listClients', status: 400, code: 'VALIDATION_FAILED', label: 'limit 0', method: 'GET', path: '/clients?limit=0' });

  add({
    operationId: 'createClient',
    status: 201,
    label: 'a new client',
    method: 'POST',
    path: '/clients',
    headers: write(),
    body: JSON.stringify(newClient),
  });
  add({
    operationId: 'createClient',
    status: 409,
    code: 'CLIENT_EXISTS',
    label: 'the same phone again',
    method: 'POST',
    path: '/clients',
    headers: write(),
    body: JSON.stringify({ ...newClient, email: '' }),
  });
  add({
    operationId: 'createClient',
    status: 400,
    code: 'IDEMPOTENCY_KEY_INVALID',
    label: 'no Idempotency-Key',
    method: 'POST',
    path: '/clients',
    headers: json,
    body: JSON.stringify(newClient),
  });
  add({
    operationId: 'createClient',
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    label: 'a body over 64 KiB',
    method: 'POST',
    path: '/clients',
    headers: write(),
    body: oversized(newClient),
  });
  add({
    operationId: 'createClient',
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    label: 'text/plain',
    method: 'POST',
    path: '/clients',
    headers: write({ 'Content-Type': 'text/plain' }),
    body: JSON.stringify(newClient),
  });

  add({ operationId: 'getClient', status: 200, label: 'a client', method: 'GET', path: `/clients/${salon.clients[0]}` });
  add({
    operationId: 'getClient',
    status: 404,
    code: 'NOT_FOUND',
    label: 'an id that is not a UUID',
    invalidRequest: true,
    method: 'GET',
    path: '/clients/not-a-uuid',
  });

  add({ operationId: 'listServices', status: 200, label: 'the services', method: 'GET', path: '/services' });

  add({ operationId: 'listPayments', status: 200, label: 'a page', method: 'GET', path: '/payments?limit=1' });
  add({
    operationId: 'listPayments',
    status: 400,
    code: 'CURSOR_INVALID',
    label: 'a forged cursor',
    method: 'GET',
    path: '/payments?cursor=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  });
  add({ operationId: 'getPayment', status: 200, label: 'a payment', method: 'GET', path: `/payments/${salon.payments[0]}` });
  add({ operationId: 'getPayment', status: 404, code: 'NOT_FOUND', label: 'an unknown id', method: 'GET', path: `/payments/${unknownId}` });

  add({ operationId: 'listSales', status: 200, label: 'a page', method: 'GET', path: '/sales?limit=1' });
  add({
    operationId: 'listSales',
    status: 400,
    code: 'VALIDATION_FAILED',
    label: 'an unknown parameter',
    method: 'GET',
    path: '/sales?page=2',
  });
  add({ operationId: 'getSale', status: 200, label: 'a sale', method: 'GET', path: `/sales/${salon.sales[0]}` });
  add({ operationId: 'getSale', status: 404, code: 'NOT_FOUND', label: 'an unknown id', method: 'GET', path: `/sales/${unknownId}` });

  add({ operationId: 'listStaff', status: 200, label: 'a page', method: 'GET', path: '/staff?limit=1' });
  add({
    operationId: 'listStaff',
    status: 400,
    code: 'VALIDATION_FAILED',
    label: 'active that is not a boolean',
    method: 'GET',
    path: '/staff?active=maybe',
  });
  add({ operationId: 'getStaffMember', status: 200, label: 'a member', method: 'GET', path: `/staff/${salon.staff.rui}` });
  add({
    operationId: 'getStaffMember',
    status: 404,
    code: 'NOT_FOUND',
    label: 'an unknown id',
    method: 'GET',
    path: `/staff/${unknownId}`,
  });
  add({
    operationId: 'getAvailability',
    status: 200,
    label: 'a day of free times',
    method: 'GET',
    path: `/availability?${availabilityRange}`,
  });
  add({
    operationId: 'getAvailability',
    status: 400,
    code: 'VALIDATION_FAILED',
    label: 'a range of more than 31 days',
    method: 'GET',
    path: `/availability?serviceId=${salon.services.cut}&from=2031-01-01T00:00:00Z&to=2031-03-01T00:00:00Z`,
  });
  add({
    operationId: 'getAvailability',
    status: 404,
    code: 'NOT_FOUND',
    label: 'an unknown service',
    method: 'GET',
    path: `/availability?serviceId=${unknownId}&from=2031-01-01T00:00:00Z&to=2031-01-02T00:00:00Z`,
  });

  // Webhook endpoints and the event log (1.3.0).
  add({ operationId: 'listWebhookEndpoints', status: 200, label: 'the endpoints', method: 'GET', path: '/webhook-endpoints' });
  add({
    operationId: 'createWebhookEndpoint',
    status: 201,
    label: 'a new endpoint',
    method: 'POST',
    path: '/webhook-endpoints',
    headers: write(),
    body: JSON.stringify(newEndpoint),
  });
  add({
    operationId: 'createWebhookEndpoint',
    status: 400,
    code: 'WEBHOOK_URL_REFUSED',
    // An absolute URI as the schema asks (format: uri since 1.4.0): only the address rules refuse it.
    invalidRequest: false,
    label: 'an address with credentials in it',
    method: 'POST',
    path: '/webhook-endpoints',
    headers: write(),
    body: JSON.stringify({ ...newEndpoint, url: 'https://user:secret@hooks.example.com/in' }),
  });
  add({
    operationId: 'createWebhookEndpoint',
    status: 201,
    label: 'an endpoint, under an Idempotency-Key the next case repeats',
    method: 'POST',
    path: '/webhook-endpoints',
    headers: write({ 'Idempotency-Key': `reused-${unknownId}` }),
    body: JSON.stringify({ ...newEndpoint, url: 'http://127.0.0.1:9/first' }),
  });
  add({
    operationId: 'createWebhookEndpoint',
    status: 409,
    code: 'IDEMPOTENCY_KEY_REUSED',
    label: 'that Idempotency-Key with another body',
    method: 'POST',
    path: '/webhook-endpoints',
    headers: write({ 'Idempotency-Key': `reused-${unknownId}` }),
    body: JSON.stringify({ ...newEndpoint, url: 'http://127.0.0.1:9/second' }),
  });
  add({
    operationId: 'createWebhookEndpoint',
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    label: 'a body over 64 KiB',
    method: 'POST',
    path: '/webhook-endpoints',
    headers: write(),
    body: oversized(newEndpoint),
  });
  add({
    operationId: 'createWebhookEndpoint',
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    label: 'text/plain',
    method: 'POST',
    path: '/webhook-endpoints',
    headers: write({ 'Content-Type': 'text/plain' }),
    body: JSON.stringify(newEndpoint),
  });
  add({ operationId: 'getWebhookEndpoint', status: 200, label: 'an endpoint', method: 'GET', path: hook });
  add({
    operationId: 'getWebhookEndpoint',
    status: 404,
    code: 'NOT_FOUND',
    label: 'an unknown id',
    method: 'GET',
    path: `/webhook-endpoints/${unknownId}`,
  });
  add({
    operationId: 'updateWebhookEndpoint',
    status: 200,
    label: 'a new description',
    method: 'PATCH',
    path: hook,
    headers: json,
    body: JSON.stringify(endpointChange),
  });
  add({
    operationId: 'updateWebhookEndpoint',
    status: 400,
    code: 'VALIDATION_FAILED',
    label: 'no field',
    method: 'PATCH',
    path: hook,
    headers: json,
    body: '{}',
  });
  add({
    operationId: 'updateWebhookEndpoint',
    status: 404,
    code: 'NOT_FOUND',
    label: 'an unknown id',
    method: 'PATCH',
    path: `/webhook-endpoints/${unknownId}`,
    headers: json,
    body: JSON.stringify(endpointChange),
  });
  add({
    operationId: 'updateWebhookEndpoint',
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    label: 'a body over 64 KiB',
    method: 'PATCH',
    path: hook,
    headers: json,
    body: oversized(endpointChange),
  });
  add({
    operationId: 'updateWebhookEndpoint',
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    label: 'text/plain',
    method: 'PATCH',
    path: hook,
    headers: { 'Content-Type': 'text/plain' },
    body: JSON.stringify(endpointChange),
  });
  add({
    operationId: 'deleteWebhookEndpoint',
    status: 204,
    label: 'an endpoint',
    method: 'DELETE',
    path: `/webhook-endpoints/${salon.endpoints.doomed}`,
  });
  add({
    operationId: 'deleteWebhookEndpoint',
    status: 404,
    code: 'NOT_FOUND',
    label: 'the endpoint just deleted',
    method: 'DELETE',
    path: `/webhook-endpoints/${salon.endpoints.doomed}`,
  });
  for (const [operationId, path] of [
    ['rotateWebhookEndpointSecret', `${hook}/rotate-secret`],
    ['testWebhookEndpoint', `${hook}/test`],
  ] as const) {
    // Its Idempotency-Key is repeated on another endpoint below.
    add({
      operationId,
      status: 200,
      label: 'the endpoint',
      method: 'POST',
      path,
      headers: { 'Idempotency-Key': `${operationId}-${unknownId}` },
    });
    add({ operationId, status: 400, code: 'IDEMPOTENCY_KEY_INVALID', label: 'no Idempotency-Key', method: 'POST', path });
    add({
      operationId,
      status: 404,
      code: 'NOT_FOUND',
      label: 'an unknown endpoint',
      method: 'POST',
      path: path.replace(salon.endpoints.hook, unknownId),
      headers: { 'Idempotency-Key': randomUUID() },
    });
    add({
      operationId,
      status: 409,
      code: 'IDEMPOTENCY_KEY_REUSED',
      label: 'an Idempotency-Key used on another endpoint',
      method: 'POST',
      path: path.replace(salon.endpoints.hook, salon.endpoints.spare),
      headers: { 'Idempotency-Key': `${operationId}-${unknownId}` },
    });
  }
  add({ operationId: 'listWebhookDeliveries', status: 200, label: 'a page', method: 'GET', path: `${hook}/deliveries?limit=5` });
  add({
    operationId: 'listWebhookDeliveries',
    status: 400,
    code: 'VALIDATION_FAILED',
    label: 'limit 101',
    method: 'GET',
    path: `${hook}/deliveries?limit=101`,
  });
  add({
    operationId: 'listWebhookDeliveries',
    status: 404,
    code: 'NOT_FOUND',
    label: 'an unknown endpoint',
    method: 'GET',
    path: `/webhook-endpoints/${unknownId}/deliveries`,
  });
  add({ operationId: 'listEvents', status: 200, label: 'a page', method: 'GET', path: '/events?limit=1' });
  add({
    operationId: 'listEvents',
    status: 400,
    code: 'VALIDATION_FAILED',
    label: 'an unknown type',
    method: 'GET',
    path: '/events?type=client.deleted',
  });
  add({ operationId: 'getEvent', status: 200, label: 'an event', method: 'GET', path: `/events/${event}` });
  add({ operationId: 'getEvent', status: 404, code: 'NOT_FOUND', label: 'an unknown id', method: 'GET', path: `/events/${unknownId}` });
  const redeliverOf = (id: string) => `/events/${id}/redeliver`;
  add({
    operationId: 'redeliverEvent',
    status: 202,
    label: 'to one endpoint',
    method: 'POST',
    path: redeliverOf(event),
    headers: write(),
    body: JSON.stringify(redeliver),
  });
  add({
    operationId: 'redeliverEvent',
    status: 400,
    code: 'VALIDATION_FAILED',
    label: 'an endpointId that is not a UUID',
    method: 'POST',
    path: redeliverOf(event),
    headers: write(),
    body: JSON.stringify({ endpointId: 'hook' }),
  });
  add({
    operationId: 'redeliverEvent',
    status: 404,
    code: 'NOT_FOUND',
    label: 'an unknown event',
    method: 'POST',
    path: redeliverOf(unknownId),
    headers: write(),
    body: '{}',
  });
  add({
    operationId: 'redeliverEvent',
    status: 202,
    label: 'to another endpoint, under an Idempotency-Key the next case repeats',
    method: 'POST',
    path: redeliverOf(event),
    headers: write({ 'Idempotency-Key': `redeliver-${unknownId}` }),
    body: JSON.stringify({ endpointId: salon.endpoints.spare }),
  });
  add({
    operationId: 'redeliverEvent',
    status: 409,
    code: 'IDEMPOTENCY_KEY_REUSED',
    label: 'that Idempotency-Key with another body',
    method: 'POST',
    path: redeliverOf(event),
    headers: write({ 'Idempotency-Key': `redeliver-${unknownId}` }),
    body: JSON.stringify(redeliver),
  });
  add({
    operationId: 'redeliverEvent',
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    label: 'a body over 64 KiB',
    method: 'POST',
    path: redeliverOf(event),
    headers: write(),
    body: oversized(redeliver),
  });
  add({
    operationId: 'redeliverEvent',
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    label: 'application/xml',
    method: 'POST',
    path: redeliverOf(event),
    headers: write({ 'Content-Type': 'application/xml' }),
    body: '<endpointId/>',
  });

  // Api-Version is checked alike on every operation, once the key is known; the operations with no
  // other way to answer 400 show it.
  const answeringBadRequest = new Set(cases.filter((c) => c.status === 400).map((c) => c.operationId));
  for (const success of cases.filter((c) => c.status < 300)) {
    if (answeringBadRequest.has(success.operationId)) continue;
    answeringBadRequest.add(success.operationId);
    add({
      ...success,
      status: 400,
      code: 'VALIDATION_FAILED',
      label: 'an Api-Version naming no published version',
      headers: { ...success.headers, 'Api-Version': '1.1.0' },
    });
  }

  return cases.map((c): RepresentativeCase => ({
    key: 'all-scopes',
    headers: {},
    invalidRequest: [400, 413, 415].includes(c.status),
    ...c,
  }));
}

/** The key a case sends, from the ones the suite made. */
export function keyOf(c: RepresentativeCase, keys: CaseKeys): string | undefined {
  switch (c.key) {
    case 'none':
      return undefined;
    case 'wrong-scope':
      return SERVICES_READ_OPERATIONS.has(c.operationId) ? keys['wrong-scope-services'] : keys['wrong-scope'];
    case 'all-scopes':
    case 'free-plan':
    case 'exhausted':
    case 'unknown':
      return keys[c.key];
  }
}
