import { jest } from '@jest/globals';
import fc from 'fast-check';
import { generateApiKey } from '#core/api-keys/api-key-format.js';
import { SCOPES } from '#core/scopes/scope.js';
import { HOST_LOOKUP } from '#core/notices/endpoints/webhook-resolver.js';
import { E2eApi, type ApiResponse } from '../utils/e2e-api.js';
import { KeyPool } from '../utils/key-pool.js';
import { testConfig } from '../utils/test-config.js';
import { GeneratedRequests, type Expectation, type GeneratedRequest } from './support/generated-requests.js';
import { loadRobustSalon, SEEDED_YEAR, type RobustSalon } from './support/robust-salon.js';
import { salonHints, type CursorPool } from './support/salon-hints.js';

/**
 * Issue 8.1: requests generated from the contract's schemas (bodies, queries, path ids and
 * headers, Idempotency-Key included), valid and invalid, at least RUNS per operation, seeded and
 * reproducible. Every answer goes through E2eApi, so its status, headers and body are checked
 * against the document; on top of that each must be the answer the order of checks (D2) and the
 * input call for, never a 5xx, and a success must have done what was asked.
 *
 * Reproduce a failure with the seed and path fast-check prints:  ROBUSTNESS_SEED=<seed> npm test -- ...
 */
jest.setTimeout(120_000);

const RUNS = Number(process.env.ROBUSTNESS_RUNS ?? 220);
const SEED = Number(process.env.ROBUSTNESS_SEED ?? 80_808);
const requests = new GeneratedRequests();
const OPERATIONS = [...requests.operations.keys()];

let api: E2eApi;
let salon: RobustSalon;
let pool: KeyPool;
let hints: ReturnType<typeof salonHints>;
let sequence = 0;

/** Cursors the API issued, so generated list requests can follow (or misuse) real ones. */
async function collectCursors(): Promise<CursorPool> {
  const lists: Record<string, string> = {
    listAppointments: `/appointments?from=${SEEDED_YEAR}-01-01T00:00:00Z&to=${SEEDED_YEAR + 1}-01-01T00:00:00Z&limit=1`,
    listClients: '/clients?limit=1',
    listPayments: '/payments?limit=1',
    listSales: '/sales?limit=1',
    listStaff: '/staff?limit=1',
    listEvents: '/events?limit=1',
    listWebhookDeliveries: `/webhook-endpoints/${salon.endpoints.hook}/deliveries?limit=1`,
  };
  const pool: CursorPool = {};
  for (const [operationId, path] of Object.entries(lists)) {
    const res = await api.get(path, { key: salon.tenant.key });
    expect(res.status).toBe(200);
    pool[operationId] = res.body.nextCursor ? [res.body.nextCursor as string] : [];
  }
  return pool;
}

function pathOf(request: GeneratedRequest): string {
  const path = request.pathId === undefined ? request.template : request.template.replace('{id}', encodeURIComponent(request.pathId));
  return `${path}${GeneratedRequests.queryString(request.query)}`;
}

async function keyFor(request: GeneratedRequest): Promise<string | undefined> {
  switch (request.key.kind) {
    case 'valid':
      return pool.key();
    case 'missing':
      return undefined;
    case 'bad-checksum': {
      const key = salon.tenant.key;
      return `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    }
    case 'unknown':
      return generateApiKey();
    case 'malformed':
      return request.key.text;
  }
}

/** (API key, Idempotency-Key) pairs already sent: a generated key may repeat one. */
const usedIdempotencyKeys = new Set<string>();

/** Sends the request; `reused` when its Idempotency-Key was sent before with the same API key. */
async function send(request: GeneratedRequest): Promise<{ res: ApiResponse; reused: boolean }> {
  const headers: Record<string, string> = {};
  if (request.requestId !== undefined) headers['X-Request-Id'] = request.requestId;
  if (request.contentType !== undefined) headers['Content-Type'] = request.contentType;
  const key = await keyFor(request);
  let reused = false;
  const idempotency = request.idempotency;
  if (idempotency && idempotency.kind !== 'missing') {
    sequence += 1;
    const fresh = `robust-${request.operationId}-${sequence}-${Date.now().toString(36)}`;
    const value = idempotency.kind === 'fresh' ? fresh : idempotency.kind === 'quoted' ? `"${fresh}"` : idempotency.value;
    headers['Idempotency-Key'] = value;
    // One pair of quotes is not part of the key (D4).
    const used = `${key} ${value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value}`;
    reused = usedIdempotencyKeys.has(used);
    usedIdempotencyKeys.add(used);
  }
  const res = await api.call(request.method, pathOf(request), {
    key,
    keyHeader: request.keyHeader,
    headers,
    rawBody: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  return { res, reused };
}

function fail(message: string, res: ApiResponse): never {
  throw new Error(`${message}\n  answer: ${res.status} ${res.text.slice(0, 600)}`);
}

/** The answer is the one the request calls for. */
function checkAnswer(expected: Expectation, res: ApiResponse): void {
  if (res.status >= 500) fail('a 5xx', res);
  if (!expected.statuses.includes(res.status)) fail(`expected one of ${expected.statuses.join(', ')}`, res);
  if (res.status < 400) return;
  if (!String(res.headers['content-type']).startsWith('application/problem+json')) fail('an error that is not problem+json', res);
  if (res.body.status !== res.status || res.body.requestId !== res.headers['x-request-id'])
    fail('a problem whose status or requestId differ from the response', res);
  if (expected.code && res.body.code !== expected.code) fail(`expected code ${expected.code}`, res);
  if (res.status === 400 && expected.valid && (expected.semanticCodes ?? []).includes(res.body.code as string)) return;
  if (res.status === 400 && expected.valid) {
    // Input every stated rule accepts may only be refused by a business rule on a known field.
    const paths = ((res.body.errors ?? []) as { path: string }[]).map((e) => e.path);
    const unexpected = paths.filter((p) => !(expected.semanticPaths ?? []).includes(p));
    if (!['VALIDATION_FAILED', 'CURSOR_INVALID'].includes(res.body.code as string) || paths.length === 0 || unexpected.length > 0) {
      fail(`valid input refused on ${unexpected.join(', ') || 'no field'} (allowed: ${(expected.semanticPaths ?? []).join(', ')})`, res);
    }
  }
}

/** A success did what was asked, and what it stored reads back the same. */
async function checkSuccess(request: GeneratedRequest, res: ApiResponse): Promise<void> {
  const body = request.body as Record<string, unknown>;
  const id = request.pathId?.toLowerCase();
  switch (request.operationId) {
    case 'createClient': {
      const name = (body.name as string).trim();
      if (res.body.name !== name || [...name].length < 2)
        fail(`client name ${JSON.stringify(body.name)} stored as ${JSON.stringify(res.body.name)}`, res);
      const read = await api.get(`/clients/${res.body.id as string}`, { key: await pool.key() });
      if (read.status !== 200 || JSON.stringify(read.body) !== JSON.stringify(res.body))
        fail(`GET /clients/{id} differs from the 201: ${read.text}`, res);
      return;
    }
    case 'createAppointment': {
      const client = body.client as Record<string, unknown>;
      const expectedStart = new Date(body.startAt as string).toISOString();
      // Without staffId ("any staff") the service picks the member.
      const staffAsked = body.staffId === undefined || res.body.staff.id === body.staffId;
      if (!staffAsked || res.body.service.id !== body.serviceId || res.body.scheduledAt !== expectedStart) {
        fail(`booking of ${JSON.stringify(body)} answered with other terms`, res);
      }
      if ('id' in client && res.body.client.id !== client.id) fail('booked for another client', res);
      if ('name' in client && res.body.client.name !== (client.name as string).trim()) fail("the new client's name changed", res);
      return;
    }
    case 'rescheduleAppointment':
      if (res.body.rescheduledFromId !== id || res.body.scheduledAt !== new Date(body.startAt as string).toISOString())
        fail('reschedule answered with other terms', res);
      return;
    case 'updateAppointment': {
      // jsonb keeps its own key order: the same keys and values, in any order (docs/design-record.md#d23).
      const sorted = (value: unknown) => JSON.stringify(Object.entries(value as Record<string, string>).sort());
      if (res.body.id !== id || sorted(res.body.metadata) !== sorted(body.metadata)) fail('metadata answered other than given', res);
      return;
    }
    case 'cancelAppointment':
      if (res.body.id !== id || res.body.status !== 'CANCELLED') fail('cancel answered with another appointment or status', res);
      return;
    case 'getAppointment':
    case 'getClient':
    case 'getPayment':
    case 'getSale':
    case 'getStaffMember':
    case 'getWebhookEndpoint':
    case 'getEvent':
      if (res.body.id !== id) fail('answered with another record', res);
      return;
    case 'createWebhookEndpoint': {
      const read = await api.get(`/webhook-endpoints/${res.body.id as string}`, { key: await pool.key() });
      const { secret, ...endpoint } = res.body as Record<string, unknown>;
      if (read.status !== 200 || JSON.stringify(read.body) !== JSON.stringify(endpoint) || endpoint.url !== body.url || !secret)
        fail(`GET /webhook-endpoints/{id} differs from the 201: ${read.text}`, res);
      return;
    }
    case 'updateWebhookEndpoint':
      if (res.body.id !== id || Object.entries(body).some(([field, value]) => JSON.stringify(res.body[field]) !== JSON.stringify(value)))
        fail(`the change ${JSON.stringify(body)} was not made`, res);
      return;
    default:
  }
}

beforeAll(async () => {
  // No name is looked up in DNS: every generated host fails to resolve at once (sends fail, registration accepts it).
  api = await E2eApi.start(testConfig(), [
    [HOST_LOOKUP, () => Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }))],
  ]);
  salon = await loadRobustSalon({ activeAppointments: 120 });
  pool = new KeyPool(api.app, salon.tenant, SCOPES, 110);
  hints = salonHints(salon, await collectCursors());
});
afterAll(() => api.close());

describe(`generated requests (${RUNS} per operation, seed ${SEED})`, () => {
  it('covers every operation of the contract', () => {
    expect(OPERATIONS).toHaveLength(29);
  });

  it.each(OPERATIONS.map((operationId, index) => [operationId, index] as const))(
    '%s: no 5xx, every answer the one the request calls for',
    async (operationId, index) => {
      const statuses = new Map<number, number>();
      let validCount = 0;
      await fc.assert(
        fc.asyncProperty(requests.arbitrary(operationId, hints[operationId]), async (request) => {
          const expected = requests.expectation(request);
          const { res, reused } = await send(request);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (expected.valid) validCount += 1;
          if (reused && [200, 201, 404, 409].includes(res.status) && !expected.statuses.includes(401)) {
            // A repeated Idempotency-Key: the stored answer of its first request comes back, or
            // 409 IDEMPOTENCY_KEY_REUSED (checked before the body, D4); either is right here.
            if (
              res.status === 409 &&
              !['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_IN_PROGRESS'].includes(res.body.code as string) &&
              !expected.statuses.includes(409)
            ) {
              fail('a 409 other than for the repeated key', res);
            }
            return;
          }
          checkAnswer(expected, res);
          if (res.status < 300) await checkSuccess(request, res);
        }),
        { seed: SEED + index, numRuns: RUNS },
      );
      const report = Object.fromEntries(statuses);
      if (process.env.ROBUSTNESS_REPORT)
        process.stderr.write(`${operationId}: ${validCount} valid of ${RUNS}; statuses ${JSON.stringify(report)}\n`);
      const successes = [...statuses].filter(([s]) => s < 300).reduce((n, [, c]) => n + c, 0);
      const refusals = [...statuses].filter(([s]) => s >= 400).reduce((n, [, c]) => n + c, 0);
      expect({ operationId, successes: successes > 0, refusals: refusals > 0, valid: validCount > RUNS / 5, report }).toEqual({
        operationId,
        successes: true,
        refusals: true,
        valid: true,
        report,
      });
    },
  );
});
