import { inspect } from 'node:util';
import { jest } from '@jest/globals';
import { SchedulingApiError } from './errors.js';
import {
  OAuthGrantEndedError,
  OAuthTokenError,
  OAuthTokenSource,
  type OAuthTokens,
  type OAuthTokenSourceOptions,
} from './oauth-token-source.js';
import { SchedulingClient } from './scheduling-client.js';

/**
 * The OAuth token source against a fake authorization server (a fetch function of the test's own) that behaves as D30's:
 * opaque access tokens for an hour, refresh tokens that rotate on every use, the old one answering
 * the same pair again for a 30 s grace and ending the whole grant when sent after it
 * (docs/partners.md, "The SDK with an OAuth grant"). Time is a variable the tests move.
 */
const ORIGIN = 'https://api.test';
const TOKEN_ENDPOINT = `${ORIGIN}/console/auth/oauth2/token`;
const CLIENT_ID = 'app_7Hq2';
const CLIENT_SECRET = 'sec:ret/+&=';
const GRACE_MS = 30_000;
const LIFETIME_S = 3600;
const START = Date.parse('2030-01-01T10:00:00Z');

interface TokenRequest {
  form: Record<string, string>;
  authorization: string | null;
  contentType: string | null;
}

type TokenAnswer = { access_token: string; token_type: 'Bearer'; expires_in: number; refresh_token: string; scope: string };

function fakeAuthorizationServer() {
  let now = START;
  let issued = 0;
  let gate: Promise<void> | null = null;
  let override: (() => Response) | null = null;
  const rotations = new Map<string, { rotatedAt: number | null; answer: TokenAnswer | null }>([
    ['rt_0', { rotatedAt: null, answer: null }],
  ]);
  const validAccessTokens = new Set<string>();
  let grantEnded = false;
  const tokenRequests: TokenRequest[] = [];

  const tokenEndpoint = async (request: Request): Promise<Response> => {
    tokenRequests.push({
      form: Object.fromEntries(new URLSearchParams(await request.text())),
      authorization: request.headers.get('authorization'),
      contentType: request.headers.get('content-type'),
    });
    if (gate !== null) await gate;
    if (override !== null) return override();
    const sent = tokenRequests.at(-1)!.form.refresh_token;
    const state = rotations.get(sent);
    const refuse = () => json(400, { error: 'invalid_grant', error_description: 'invalid refresh token' });
    if (state === undefined || grantEnded) return refuse();
    if (state.rotatedAt !== null) {
      if (now - state.rotatedAt <= GRACE_MS) return json(200, state.answer);
      // Reuse after the grace: the grant is taken for stolen and ends.
      grantEnded = true;
      validAccessTokens.clear();
      return refuse();
    }
    issued += 1;
    const answer: TokenAnswer = {
      access_token: `at_${issued}`,
      token_type: 'Bearer',
      expires_in: LIFETIME_S,
      refresh_token: `rt_${issued}`,
      scope: 'appointments.read appointments.write',
    };
    state.rotatedAt = now;
    state.answer = answer;
    rotations.set(answer.refresh_token, { rotatedAt: null, answer: null });
    validAccessTokens.add(answer.access_token);
    return json(200, answer);
  };

  return {
    tokenEndpoint,
    tokenRequests,
    validAccessTokens,
    clock: () => now,
    advance: (ms: number) => {
      now += ms;
    },
    /** Holds every answer of the token endpoint until the returned function is called. */
    hold: (): (() => void) => {
      let release!: () => void;
      gate = new Promise((resolve) => (release = resolve));
      return () => {
        gate = null;
        release();
      };
    },
    answerWith: (answer: (() => Response) | null) => {
      override = answer;
    },
  };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

function sourceFor(server: ReturnType<typeof fakeAuthorizationServer>, options: Partial<OAuthTokenSourceOptions> = {}) {
  const persisted: OAuthTokens[] = [];
  const source = new OAuthTokenSource({
    baseUrl: ORIGIN,
    clientId: CLIENT_ID,
    refreshToken: 'rt_0',
    fetch: server.tokenEndpoint,
    clock: server.clock,
    onTokens: (tokens) => {
      persisted.push(tokens);
    },
    ...options,
  });
  return { source, persisted };
}

describe('OAuthTokenSource', () => {
  it('refreshes when it has no access token, sends RFC 6749 §6’s form, and hands the rotated pair to onTokens', async () => {
    const server = fakeAuthorizationServer();
    const { source, persisted } = sourceFor(server, { resource: `${ORIGIN}/v1/api` });
    await expect(source.getAccessToken()).resolves.toBe('at_1');
    expect(server.tokenRequests).toEqual([
      {
        form: { grant_type: 'refresh_token', refresh_token: 'rt_0', client_id: CLIENT_ID, resource: `${ORIGIN}/v1/api` },
        authorization: null,
        contentType: 'application/x-www-form-urlencoded',
      },
    ]);
    expect(persisted).toEqual([
      {
        accessToken: 'at_1',
        refreshToken: 'rt_1',
        expiresAt: new Date(START + LIFETIME_S * 1000),
        scope: 'appointments.read appointments.write',
      },
    ]);
    // Still valid: no second request.
    await expect(source.getAccessToken()).resolves.toBe('at_1');
    expect(server.tokenRequests).toHaveLength(1);
  });

  it('uses the access token it was given until a minute before it expires, then refreshes with the latest refresh token', async () => {
    const server = fakeAuthorizationServer();
    const { source, persisted } = sourceFor(server, { accessToken: 'at_0', expiresAt: new Date(START + LIFETIME_S * 1000) });
    await expect(source.getAccessToken()).resolves.toBe('at_0');
    server.advance(LIFETIME_S * 1000 - 61_000);
    await expect(source.getAccessToken()).resolves.toBe('at_0');
    expect(server.tokenRequests).toHaveLength(0);

    server.advance(2_000);
    await expect(source.getAccessToken()).resolves.toBe('at_1');
    server.advance(LIFETIME_S * 1000);
    await expect(source.getAccessToken()).resolves.toBe('at_2');
    expect(server.tokenRequests.map((request) => request.form.refresh_token)).toEqual(['rt_0', 'rt_1']);
    expect(persisted.map((tokens) => tokens.refreshToken)).toEqual(['rt_1', 'rt_2']);
  });

  it('takes expiresAt as milliseconds or null too, and leaves out resource when none is given (the grant keeps its own)', async () => {
    const server = fakeAuthorizationServer();
    const { source } = sourceFor(server, { accessToken: 'at_0', expiresAt: START + 30_000 });
    await expect(source.getAccessToken()).resolves.toBe('at_1');
    expect(server.tokenRequests[0].form).not.toHaveProperty('resource');

    // An expiry nobody knows (null, as OAuthTokens may carry it): used until the API refuses it.
    const unknown = sourceFor(server, { refreshToken: 'rt_1', accessToken: 'at_kept', expiresAt: null }).source;
    server.advance(10 * LIFETIME_S * 1000);
    await expect(unknown.getAccessToken()).resolves.toBe('at_kept');
    expect(server.tokenRequests).toHaveLength(1);
  });

  it('shares one refresh among 10 parallel callers: one request, one rotation, one onTokens', async () => {
    const server = fakeAuthorizationServer();
    const { source, persisted } = sourceFor(server);
    const release = server.hold();
    const tokens = Array.from({ length: 10 }, () => source.getAccessToken());
    release();
    await expect(Promise.all(tokens)).resolves.toEqual(Array(10).fill('at_1'));
    expect(server.tokenRequests).toHaveLength(1);
    expect(persisted).toHaveLength(1);

    // The next expiry: again one request, with the rotated token.
    server.advance(LIFETIME_S * 1000);
    await expect(Promise.all(Array.from({ length: 10 }, () => source.getAccessToken()))).resolves.toEqual(Array(10).fill('at_2'));
    expect(server.tokenRequests.map((request) => request.form.refresh_token)).toEqual(['rt_0', 'rt_1']);
  });

  it('lets an app that persisted onTokens restart on its grant; the refresh token it started with is refused after the grace', async () => {
    const server = fakeAuthorizationServer();
    const { source, persisted } = sourceFor(server);
    await source.getAccessToken();
    server.advance(GRACE_MS + 1_000);

    const saved = persisted.at(-1)!;
    const restarted = sourceFor(server, { refreshToken: saved.refreshToken }).source;
    await expect(restarted.getAccessToken()).resolves.toBe('at_2');

    const stale = sourceFor(server, { refreshToken: 'rt_0' }).source;
    await expect(stale.getAccessToken()).rejects.toBeInstanceOf(OAuthGrantEndedError);
  });

  it('authenticates a confidential client with client_secret_basic by default: id and secret form-encoded in Basic', async () => {
    const server = fakeAuthorizationServer();
    const { source } = sourceFor(server, { clientSecret: CLIENT_SECRET });
    await source.getAccessToken();
    const [request] = server.tokenRequests;
    expect(request.form).not.toHaveProperty('client_secret');
    expect(request.form.client_id).toBe(CLIENT_ID);
    const decoded = Buffer.from(request.authorization!.replace(/^Basic /, ''), 'base64').toString('utf8');
    expect(decoded).toBe(`${CLIENT_ID}:sec%3Aret%2F%2B%26%3D`);
    const [id, secret] = decoded.split(':').map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
    expect([id, secret]).toEqual([CLIENT_ID, CLIENT_SECRET]);
  });

  it('sends the secret in the form with client_secret_post, and no Authorization header', async () => {
    const server = fakeAuthorizationServer();
    const { source } = sourceFor(server, { clientSecret: CLIENT_SECRET, clientAuthentication: 'client_secret_post' });
    await source.getAccessToken();
    expect(server.tokenRequests[0]).toMatchObject({
      form: { grant_type: 'refresh_token', refresh_token: 'rt_0', client_id: CLIENT_ID, client_secret: CLIENT_SECRET },
      authorization: null,
    });
  });

  it('invalidate(token) forces a refresh only while that token is the current one', async () => {
    const server = fakeAuthorizationServer();
    const { source } = sourceFor(server);
    await expect(source.getAccessToken()).resolves.toBe('at_1');
    source.invalidate('at_1');
    await expect(source.getAccessToken()).resolves.toBe('at_2');
    // A late 401 for the token before: the current one stays.
    source.invalidate('at_1');
    await expect(source.getAccessToken()).resolves.toBe('at_2');
    expect(server.tokenRequests).toHaveLength(2);
  });

  it('ends on invalid_grant: every waiting caller and every later call gets OAuthGrantEndedError, with nothing sent again', async () => {
    const server = fakeAuthorizationServer();
    const { source, persisted } = sourceFor(server, { refreshToken: 'rt_revoked' });
    const release = server.hold();
    const waiting = Array.from({ length: 10 }, () => source.getAccessToken().catch((error: unknown) => error));
    release();
    const errors = await Promise.all(waiting);
    for (const error of errors) {
      expect(error).toBeInstanceOf(OAuthGrantEndedError);
      expect(error).toBeInstanceOf(OAuthTokenError);
      expect(error).toMatchObject({
        name: 'OAuthGrantEndedError',
        error: 'invalid_grant',
        description: 'invalid refresh token',
        status: 400,
      });
    }
    expect((errors[0] as Error).message).toMatch(/grant has ended.*connect the app again/);
    await expect(source.getAccessToken()).rejects.toBe(errors[0]);
    source.invalidate('at_1');
    await expect(source.getAccessToken()).rejects.toBeInstanceOf(OAuthGrantEndedError);
    expect(server.tokenRequests).toHaveLength(1);
    expect(persisted).toEqual([]);
  });

  it('throws other refusals as OAuthTokenError and stays usable: the next call tries again', async () => {
    const server = fakeAuthorizationServer();
    const { source } = sourceFor(server, { clientSecret: 'wrong' });
    server.answerWith(() =>
      json(401, { error: 'invalid_client', error_description: 'invalid client_secret' }, { 'WWW-Authenticate': 'Basic' }),
    );
    const error = await source.getAccessToken().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OAuthTokenError);
    expect(error).not.toBeInstanceOf(OAuthGrantEndedError);
    expect(error).toMatchObject({ error: 'invalid_client', description: 'invalid client_secret', status: 401 });

    server.answerWith(null);
    await expect(source.getAccessToken()).resolves.toBe('at_1');
  });

  it('refuses an answer that is not a token response as invalid_response', async () => {
    const server = fakeAuthorizationServer();
    const { source } = sourceFor(server);
    server.answerWith(() => json(200, { access_token: 'at_x', token_type: 'mac' }));
    await expect(source.getAccessToken()).rejects.toMatchObject({ name: 'OAuthTokenError', error: 'invalid_response' });
    server.answerWith(() => new Response('<html>bad gateway</html>', { status: 502 }));
    await expect(source.getAccessToken()).rejects.toMatchObject({ error: 'invalid_response', status: 502 });
  });

  it('fails the callers of a refresh whose onTokens throws, and uses the new tokens from memory afterwards', async () => {
    const server = fakeAuthorizationServer();
    const diskFull = new Error('disk full');
    const { source } = sourceFor(server, { onTokens: () => Promise.reject(diskFull) });
    await expect(source.getAccessToken()).rejects.toBe(diskFull);
    await expect(source.getAccessToken()).resolves.toBe('at_1');
    expect(server.tokenRequests).toHaveLength(1);
  });

  it('puts no token or secret in an error, in its own printout, or in a log', async () => {
    const secrets = ['rt_0', 'rt_1', 'at_0', 'at_1', 'at_echo', CLIENT_SECRET, 'sec%3Aret'];
    const logged = [jest.spyOn(console, 'log'), jest.spyOn(console, 'warn'), jest.spyOn(console, 'error'), jest.spyOn(console, 'info')];
    const seen: string[] = [];
    const server = fakeAuthorizationServer();
    const { source } = sourceFor(server, { clientSecret: CLIENT_SECRET, accessToken: 'at_0', expiresAt: START });
    // Answers that echo what was sent.
    for (const answer of [
      () => json(400, { error: 'invalid_request', error_description: 'bad request' }),
      () => json(200, { access_token: 'at_echo', token_type: 'mac', refresh_token: 'rt_0' }),
      () => new Response('refresh_token=rt_0&client_secret=sec', { status: 500 }),
      () => json(400, { error: 'invalid_grant' }),
    ]) {
      server.answerWith(answer);
      const error = (await source.getAccessToken().catch((caught: unknown) => caught)) as Error;
      seen.push(error.message, String(error), inspect(error), JSON.stringify(error));
    }
    seen.push(inspect(source), JSON.stringify(source));
    for (const text of seen) for (const secret of secrets) expect(text).not.toContain(secret);
    for (const spy of logged) {
      expect(spy).not.toHaveBeenCalled();
      spy.mockRestore();
    }
  });

  it('refuses options it cannot use, in words', () => {
    const base = { clientId: CLIENT_ID, refreshToken: 'rt_0' };
    expect(() => new OAuthTokenSource({ ...base })).toThrow(/baseUrl.*or tokenEndpoint/);
    expect(() => new OAuthTokenSource({ ...base, baseUrl: ORIGIN, tokenEndpoint: TOKEN_ENDPOINT })).toThrow(/not both/);
    expect(() => new OAuthTokenSource({ ...base, baseUrl: ORIGIN, clientId: '' })).toThrow(/clientId/);
    expect(() => new OAuthTokenSource({ ...base, baseUrl: ORIGIN, refreshToken: '' })).toThrow(/refreshToken/);
  });

  it('finds the token endpoint from the service’s address, with or without /v1/api, or takes it as given', async () => {
    const urls: string[] = [];
    const fetch = (request: Request) => {
      urls.push(request.url);
      return Promise.resolve(json(200, { access_token: 'a', token_type: 'Bearer', expires_in: 60, refresh_token: 'r' }));
    };
    const base = { clientId: CLIENT_ID, refreshToken: 'rt_0', fetch };
    await new OAuthTokenSource({ ...base, baseUrl: ORIGIN }).getAccessToken();
    await new OAuthTokenSource({ ...base, baseUrl: `${ORIGIN}/v1/api` }).getAccessToken();
    await new OAuthTokenSource({ ...base, tokenEndpoint: 'https://auth.test/oauth2/token' }).getAccessToken();
    expect(urls).toEqual([TOKEN_ENDPOINT, TOKEN_ENDPOINT, 'https://auth.test/oauth2/token']);
  });
});

describe('SchedulingClient with an OAuth grant (auth)', () => {
  const booking = { serviceId: 's', startAt: '2030-01-01T10:00:00Z', client: { id: 'c' } };

  /** The API's side: answers 401 to a token the fake server has not issued (or has ended), else what `answer` says. */
  function harness(
    options: {
      maxRetries?: number;
      answer?: (request: Request, index: number) => Response;
      sourceOptions?: Partial<OAuthTokenSourceOptions>;
    } = {},
  ) {
    const server = fakeAuthorizationServer();
    const { source, persisted } = sourceFor(server, options.sourceOptions);
    const apiRequests: { authorization: string | null; idempotencyKey: string | null; body: string }[] = [];
    const waits: number[] = [];
    const client = new SchedulingClient({
      baseUrl: ORIGIN,
      auth: source,
      maxRetries: options.maxRetries,
      random: () => 0.5,
      sleep: (ms) => {
        waits.push(ms);
        server.advance(ms);
        return Promise.resolve();
      },
      fetch: async (request) => {
        apiRequests.push({
          authorization: request.headers.get('authorization'),
          idempotencyKey: request.headers.get('idempotency-key'),
          body: await request.text(),
        });
        const token = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
        if (!server.validAccessTokens.has(token)) {
          return json(401, {
            type: 'about:blank',
            title: 'Unauthorized',
            status: 401,
            code: 'API_KEY_INVALID',
            detail: 'The token is not valid.',
          });
        }
        return options.answer?.(request, apiRequests.length - 1) ?? json(200, { id: 'a1' });
      },
    });
    return { client, server, source, persisted, apiRequests, waits };
  }

  it('sends the current access token as Bearer, refreshing it first when absent', async () => {
    const { client, server, apiRequests } = harness();
    await client.me();
    await client.me();
    expect(apiRequests.map((request) => request.authorization)).toEqual(['Bearer at_1', 'Bearer at_1']);
    expect(server.tokenRequests).toHaveLength(1);
  });

  it('sends each retry with the token current then: one that expired during the wait is refreshed first', async () => {
    const { client, apiRequests } = harness({
      answer: (_, index) => (index === 0 ? json(429, {}, { 'Retry-After': String(LIFETIME_S) }) : json(201, { id: 'a1' })),
    });
    await client.appointments.create(booking);
    expect(apiRequests.map((request) => request.authorization)).toEqual(['Bearer at_1', 'Bearer at_2']);
    expect(apiRequests[1].idempotencyKey).toBe(apiRequests[0].idempotencyKey);
  });

  it('answers a 401 with one refresh and one resend, with the same Idempotency-Key and body, even with maxRetries 0', async () => {
    const { client, server, source, apiRequests } = harness({ maxRetries: 0 });
    await source.getAccessToken();
    // The server no longer takes at_1 (revoked, say) but the grant holds.
    server.validAccessTokens.delete('at_1');
    await expect(client.appointments.create(booking, { idempotencyKey: 'key-0001' })).resolves.toEqual({ id: 'a1' });
    expect(apiRequests.map((request) => [request.authorization, request.idempotencyKey])).toEqual([
      ['Bearer at_1', 'key-0001'],
      ['Bearer at_2', 'key-0001'],
    ]);
    expect(apiRequests[1].body).toBe(apiRequests[0].body);
    expect(server.tokenRequests).toHaveLength(2);
  });

  it('resends once only: a second 401 is the call’s answer, as a SchedulingApiError', async () => {
    const unauthenticated = () =>
      json(401, { type: 'about:blank', title: 'Unauthorized', status: 401, code: 'API_KEY_INVALID', detail: 'The token is not valid.' });
    // The API refuses even the fresh token (a grant without this business, say).
    const { client, server, apiRequests } = harness({ answer: unauthenticated });
    const error = await client.me().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SchedulingApiError);
    expect(error).toMatchObject({ status: 401, code: 'API_KEY_INVALID' });
    expect(apiRequests).toHaveLength(2);
    expect(server.tokenRequests).toHaveLength(2);
  });

  it('refreshes once for 10 parallel calls that all got a 401 with the same token, and resends each once', async () => {
    const { client, server, source, apiRequests } = harness();
    await source.getAccessToken();
    server.validAccessTokens.delete('at_1');
    await expect(Promise.all(Array.from({ length: 10 }, () => client.me()))).resolves.toHaveLength(10);
    expect(server.tokenRequests).toHaveLength(2);
    expect(apiRequests.filter((request) => request.authorization === 'Bearer at_1')).toHaveLength(10);
    expect(apiRequests.filter((request) => request.authorization === 'Bearer at_2')).toHaveLength(10);
  });

  it('throws OAuthGrantEndedError from the call when the grant has ended, sending the API nothing', async () => {
    const { client, apiRequests } = harness({ sourceOptions: { refreshToken: 'rt_revoked' } });
    await expect(client.me()).rejects.toBeInstanceOf(OAuthGrantEndedError);
    await expect(client.appointments.create(booking)).rejects.toBeInstanceOf(OAuthGrantEndedError);
    expect(apiRequests).toHaveLength(0);
  });

  it('lets a caller abort while a shared refresh runs; the others still get the token', async () => {
    const { client, server } = harness();
    const release = server.hold();
    const controller = new AbortController();
    const aborted = client.me({ signal: controller.signal });
    const other = client.me();
    controller.abort(new Error('gave up'));
    release();
    await expect(aborted).rejects.toThrow('gave up');
    await expect(other).resolves.toEqual({ id: 'a1' });
    expect(server.tokenRequests).toHaveLength(1);
  });

  it('does not resend after a 401 with an API key', async () => {
    let calls = 0;
    const client = new SchedulingClient({
      baseUrl: ORIGIN,
      apiKey: 'rk_test_revoked',
      fetch: () => {
        calls += 1;
        return Promise.resolve(json(401, {}));
      },
    });
    await expect(client.me()).rejects.toMatchObject({ status: 401 });
    expect(calls).toBe(1);
  });

  it('takes exactly one credential, and says so otherwise', () => {
    const source = new OAuthTokenSource({ baseUrl: ORIGIN, clientId: CLIENT_ID, refreshToken: 'rt_0' });
    // @ts-expect-error both credentials
    expect(() => new SchedulingClient({ baseUrl: ORIGIN, apiKey: 'rk_test_x', auth: source })).toThrow(/one credential.*not both/);
    // @ts-expect-error no credential
    expect(() => new SchedulingClient({ baseUrl: ORIGIN })).toThrow(/needs a credential: an apiKey, or auth/);
    expect(() => new SchedulingClient({ baseUrl: ORIGIN, apiKey: '' })).toThrow(/needs a credential/);
    expect(() => new SchedulingClient({ baseUrl: ORIGIN, auth: {} as OAuthTokenSource })).toThrow(/auth must be an OAuthTokenSource/);
  });
});
