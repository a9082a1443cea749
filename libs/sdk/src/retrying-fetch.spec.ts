import { jest } from '@jest/globals';
import { SchedulingApiError } from './errors.js';
import { SchedulingClient } from './scheduling-client.js';

/**
 * The SDK's transport against a scripted fetch: which requests it sends again, with what, and what
 * it waits (the injected sleep records the waits instead of waiting).
 */
type Script = (request: Request, index: number) => Response | Error;

function harness(script: Script, options: { maxRetries?: number } = {}) {
  const requests: { method: string; url: string; headers: Headers; body: string }[] = [];
  const waits: number[] = [];
  const client = new SchedulingClient({
    baseUrl: 'http://api.test',
    apiKey: 'rk_test_AbCdEfGhIjKlMnOpQrStUvWxYz012345abcdef',
    maxRetries: options.maxRetries,
    random: () => 0.5,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    fetch: async (request) => {
      requests.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() });
      const result = script(request, requests.length - 1);
      if (result instanceof Error) throw result;
      return result;
    },
  });
  return { client, requests, waits };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ type: 'about:blank', title: code, status, code, detail: `${code} happened`, requestId: 'req-1' }), {
    status,
    headers: { 'Content-Type': 'application/problem+json', ...headers },
  });

const appointment = { id: 'a1' };
const booking = { serviceId: 's', startAt: '2030-01-01T10:00:00Z', client: { id: 'c' } };

describe('SchedulingClient transport', () => {
  it('sends the key as Bearer, the user agent, the API version it was generated for and the API base path; test and live keys alike', async () => {
    const { client, requests } = harness(() => json(200, { key: {}, business: {} }));
    await client.me();
    expect(requests[0].url).toBe('http://api.test/v1/api/me');
    expect(requests[0].headers.get('authorization')).toBe('Bearer rk_test_AbCdEfGhIjKlMnOpQrStUvWxYz012345abcdef');
    expect(requests[0].headers.get('user-agent')).toMatch(/^scheduling-sdk\/1\.5\.0$/);
    expect(requests[0].headers.get('api-version')).toBe('1.5.0');
  });

  it('generates one Idempotency-Key per write and sends it again on that write’s retries', async () => {
    const { client, requests, waits } = harness((_, index) => (index === 0 ? new TypeError('socket hang up') : json(201, appointment)));
    await expect(client.appointments.create(booking)).resolves.toEqual(appointment);
    expect(requests).toHaveLength(2);
    const [first, second] = requests.map((request) => request.headers.get('idempotency-key'));
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe(first);
    expect(requests[1].body).toBe(requests[0].body);
    expect(waits).toEqual([375]);

    await client.appointments.create(booking);
    expect(requests[2].headers.get('idempotency-key')).not.toBe(first);
  });

  it('uses the caller’s Idempotency-Key when given', async () => {
    const { client, requests } = harness(() => json(201, appointment));
    await client.appointments.create(booking, { idempotencyKey: 'my-key-0001' });
    expect(requests[0].headers.get('idempotency-key')).toBe('my-key-0001');
  });

  it('waits Retry-After on 429 and then succeeds', async () => {
    const { client, requests, waits } = harness((_, index) =>
      index === 0 ? problem(429, 'API_RATE_LIMIT', { 'Retry-After': '17' }) : json(200, {}),
    );
    await client.me();
    expect(requests).toHaveLength(2);
    expect(waits).toEqual([17_000]);
  });

  it('retries reads on 5xx with growing backoff, at most maxRetries times, then throws the last problem', async () => {
    const { client, requests, waits } = harness(() => problem(500, 'INTERNAL'), { maxRetries: 2 });
    const error = await client.me().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SchedulingApiError);
    expect((error as SchedulingApiError).code).toBe('INTERNAL');
    expect(requests).toHaveLength(3);
    expect(waits).toEqual([375, 750]);
  });

  it('does not retry a write without an Idempotency-Key (PATCH) after a lost answer', async () => {
    const lost = new TypeError('fetch failed');
    const { client, requests } = harness(() => lost);
    await expect(client.webhookEndpoints.update('e1', { active: true })).rejects.toBe(lost);
    expect(requests).toHaveLength(1);
  });

  it('does not retry a refusal: 409 SLOT_TAKEN is thrown at once, narrowable by code', async () => {
    const { client, requests } = harness(() => problem(409, 'SLOT_TAKEN'));
    const error = await client.appointments.create(booking).catch((caught: unknown) => caught);
    expect(requests).toHaveLength(1);
    expect(error).toBeInstanceOf(SchedulingApiError);
    const apiError = error as SchedulingApiError;
    expect(apiError.is('SLOT_TAKEN')).toBe(true);
    expect(apiError.is('SLOT_UNAVAILABLE', 'CLIENT_EXISTS')).toBe(false);
    expect({ status: apiError.status, requestId: apiError.requestId, detail: apiError.detail }).toEqual({
      status: 409,
      requestId: 'req-1',
      detail: 'SLOT_TAKEN happened',
    });
  });

  it('stops waiting when the caller aborts', async () => {
    const controller = new AbortController();
    const waits: number[] = [];
    let calls = 0;
    const client = new SchedulingClient({
      baseUrl: 'http://api.test/v1/api',
      apiKey: 'rk_live_x',
      fetch: () => {
        calls += 1;
        return Promise.resolve(problem(429, 'API_RATE_LIMIT', { 'Retry-After': '60' }));
      },
      // Aborted during the wait, as a caller giving up would.
      sleep: jest.fn((ms: number, signal?: AbortSignal) => {
        waits.push(ms);
        controller.abort(new Error('gave up'));
        return Promise.reject(signal!.reason as Error);
      }),
    });
    await expect(client.me({ signal: controller.signal })).rejects.toThrow('gave up');
    expect(calls).toBe(1);
    expect(waits).toEqual([60_000]);
  });

  it('walks every page of a list following nextCursor with the same filters', async () => {
    const pages: Record<string, { data: { id: string }[]; nextCursor: string | null }> = {
      '': { data: [{ id: '1' }, { id: '2' }], nextCursor: 'c1' },
      c1: { data: [{ id: '3' }], nextCursor: 'c2' },
      c2: { data: [{ id: '4' }], nextCursor: null },
    };
    const { client, requests } = harness((request) => json(200, pages[new URL(request.url).searchParams.get('cursor') ?? '']));
    const ids: string[] = [];
    for await (const item of client.appointments.list({ from: '2030-01-01T00:00:00Z', to: '2030-02-01T00:00:00Z', limit: 2 }))
      ids.push(item.id);
    expect(ids).toEqual(['1', '2', '3', '4']);
    expect(requests.map((request) => new URL(request.url).searchParams.get('from'))).toEqual(Array(3).fill('2030-01-01T00:00:00Z'));
  });

  it('turns an answer without problem details into UNEXPECTED_RESPONSE with its status', async () => {
    const { client } = harness(() => new Response('<html>bad gateway</html>', { status: 418 }));
    await expect(client.me()).rejects.toMatchObject({ status: 418, code: 'UNEXPECTED_RESPONSE' });
  });
});
