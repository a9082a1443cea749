import { SchedulingApiError } from './errors.js';
import { SchedulingClient } from './scheduling-client.js';

/**
 * A call's data and headers, against a scripted fetch: awaited, the data; withResponse(), the data
 * with what the headers say; either way one request, and a failure rejects both the same way.
 */
const APPOINTMENT_ID = '01944b8f-7e6d-7c5b-9a49-38271605f4e3';
const STAFF = { id: '01944b8f-0000-7000-8000-000000000002', name: 'Ana Costa', serviceIds: [], active: true };

function scripted(answer: () => Response) {
  const requests: Request[] = [];
  const sdk = new SchedulingClient({
    baseUrl: 'http://api.test',
    apiKey: 'rk_test_AbCdEfGhIjKlMnOpQrStUvWxYz012345abcdef',
    maxRetries: 0,
    fetch: (request) => {
      requests.push(request);
      return Promise.resolve(answer());
    },
  });
  return { sdk, requests };
}

const json = (body: unknown, status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

describe('ApiPromise', () => {
  it('is awaited for the data, and withResponse() adds the status and the contract’s headers', async () => {
    const { sdk, requests } = scripted(() =>
      json(STAFF, 201, {
        Location: `/v1/api/appointments/${APPOINTMENT_ID}`,
        'Idempotent-Replayed': 'true',
        'Api-Version': '1.4.0',
        'X-Request-Id': 'req-1',
        'RateLimit-Limit': '120',
        'RateLimit-Remaining': '117',
        'RateLimit-Reset': '0',
        'RateLimit-Policy': '120;w=60',
        'X-Other': 'kept',
      }),
    );
    expect(await sdk.staff.get(STAFF.id)).toEqual(STAFF);

    const { data, status, headers } = await sdk.staff.get(STAFF.id).withResponse();
    expect(data).toEqual(STAFF);
    expect(status).toBe(201);
    expect(headers).toMatchObject({
      location: `/v1/api/appointments/${APPOINTMENT_ID}`,
      idempotentReplayed: true,
      apiVersion: '1.4.0',
      requestId: 'req-1',
      rateLimit: { limit: 120, remaining: 117, resetSeconds: 0, policy: '120;w=60' },
    });
    expect(headers.all.get('x-other')).toBe('kept');
    expect(requests).toHaveLength(2);
  });

  it('reads absent headers as null and a first answer as not replayed', async () => {
    const { sdk } = scripted(() => json(STAFF, 200, { 'RateLimit-Limit': '120' }));
    const { headers } = await sdk.staff.get(STAFF.id).withResponse();
    expect(headers).toMatchObject({ location: null, idempotentReplayed: false, apiVersion: null, requestId: null, rateLimit: null });
  });

  it('sends one request when both the data and the answer are read', async () => {
    const { sdk, requests } = scripted(() => json(STAFF, 200));
    const call = sdk.staff.get(STAFF.id);
    const [data, answer] = await Promise.all([call, call.withResponse()]);
    expect(answer.data).toBe(data);
    expect(requests).toHaveLength(1);
  });

  it('rejects with the problem whichever way it is read, and then/catch/finally chain as a promise’s', async () => {
    const problem = { title: 'Not Found', status: 404, code: 'NOT_FOUND', detail: 'Staff member not found.', requestId: 'req-2' };
    const { sdk } = scripted(() => json(problem, 404, { 'Content-Type': 'application/problem+json' }));
    await expect(sdk.staff.get(STAFF.id).withResponse()).rejects.toBeInstanceOf(SchedulingApiError);
    await expect(sdk.staff.get(STAFF.id)).rejects.toMatchObject({ code: 'NOT_FOUND', requestId: 'req-2' });
    const caught = await sdk.staff.get(STAFF.id).catch((error: unknown) => (error as SchedulingApiError).code);
    expect(caught).toBe('NOT_FOUND');
    let settled = false;
    await expect(
      sdk.staff.get(STAFF.id).finally(() => {
        settled = true;
      }),
    ).rejects.toBeInstanceOf(SchedulingApiError);
    expect(settled).toBe(true);
  });

  it('answers a 204 with undefined data and its headers', async () => {
    const { sdk } = scripted(() => new Response(null, { status: 204, headers: { 'Api-Version': '1.4.0' } }));
    const answer = await sdk.webhookEndpoints.delete(STAFF.id).withResponse();
    expect(answer).toMatchObject({ data: undefined, status: 204, headers: { apiVersion: '1.4.0' } });
  });
});
