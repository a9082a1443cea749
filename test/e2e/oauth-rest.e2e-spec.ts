import type { NestExpressApplication } from '@nestjs/platform-express';
import * as oauth from 'oauth4webapi';
import { DataSource } from 'typeorm';
import { ServedContract } from '#contract/served-contract.js';
import { CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { OAuthGrantsRepository } from '#core/oauth/oauth-grants.repository.js';
import { oauthTokenHash } from '#core/oauth/oauth-token-hash.js';
import { ContractResponseValidator } from '../utils/contract-response-validator.js';
import { seed, type SeededBusiness } from '../utils/seed.js';
import { consentThroughConsole, listeningApi, signedInOwner, type CookieJar } from '../utils/oauth-owner.js';

/**
 * docs/design-record.md#d30 through the real bootstrap, driven by a generic OAuth client library
 * this project did not write (panva's oauth4webapi): discovery from the resource's metadata,
 * dynamic registration, PKCE, the owner's consent in the console, the code exchange, REST calls
 * with the access token, refresh with rotation and its grace, a token for the other resource
 * refused, and revocation.
 */
let app: NestExpressApplication;
let origin: string;
let business: SeededBusiness;
let owner: CookieJar;
let as: oauth.AuthorizationServer;
let client: oauth.Client;
const redirectUri = 'http://127.0.0.1:9/callback';
const options = { [oauth.allowInsecureRequests]: true };

beforeAll(async () => {
  ({ app, origin } = await listeningApi());
  business = await seed({ plan: 'TEAM' });
  owner = await signedInOwner(app, business.slug, business.ownerEmail!);
  const resource = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/v1/api`)).json()) as {
    authorization_servers: string[];
  };
  const issuer = new URL(resource.authorization_servers[0]);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }));
  const registered = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: 'Booking widget',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
      options,
    ),
  );
  client = { client_id: registered.client_id, token_endpoint_auth_method: 'none' };
});
afterAll(() => app?.close());

/** The whole authorization for `resource`: PKCE, the owner's consent, the code exchanged. */
async function authorize(
  resource: string,
  scope = 'appointments.read services.read offline_access',
  mode: 'live' | 'test' = 'live',
  by: { jar: CookieJar; business: string } = { jar: owner, business: business.slug },
) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope,
    state,
    resource,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  const back = await consentThroughConsole(by.jar, url.href, { business: by.business, mode });
  const params = oauth.validateAuthResponse(as, client, back, state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, {
    ...options,
    additionalParameters: { resource },
  });
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

const contract = new ContractResponseValidator(new ServedContract().published(CURRENT_API_VERSION).document);

/** GET /me with the token; an answer that breaks the current contract fails the test. */
async function me(token: string): Promise<Response> {
  const answer = await fetch(`${origin}/v1/api/me`, { headers: { authorization: `Bearer ${token}` } });
  const text = await answer.clone().text();
  const headers = Object.fromEntries(answer.headers);
  expect(contract.check({ method: 'GET', path: '/me', status: answer.status, headers, text })).toEqual([]);
  return answer;
}

async function refresh(refreshToken: string) {
  const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, options);
  return oauth.processRefreshTokenResponse(as, client, response);
}

it('publishes RFC 8414 metadata with iss support and S256 only', () => {
  expect(as.issuer).toBe(`${origin}/console/auth`);
  expect(as.code_challenge_methods_supported).toEqual(['S256']);
  expect(as.authorization_response_iss_parameter_supported).toBe(true);
  expect(as.registration_endpoint).toBe(`${origin}/console/auth/oauth2/register`);
});

it('gets a token by consent that the REST API takes with the approved scopes', async () => {
  const tokens = await authorize(`${origin}/v1/api`);
  expect(tokens.access_token).toMatch(/^oat_/);
  expect(tokens.refresh_token).toMatch(/^ort_/);
  expect(tokens.expires_in).toBe(3600);
  const answer = await me(tokens.access_token);
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as {
    business: { slug: string };
    key: { scopes: { scope: string }[]; mode: string };
    authentication: { kind: string; app?: { clientId: string; name: string } };
  };
  expect(body.business.slug).toBe(business.slug);
  expect(body.authentication).toEqual({ kind: 'app', app: { clientId: client.client_id, name: 'Booking widget' } });
  expect(body.key.mode).toBe('live');
  expect(body.key.scopes.map((s) => s.scope).sort()).toEqual(['appointments.read', 'services.read']);
  // The remote MCP server refuses a token issued for the REST API.
  const atMcp = await fetch(`${origin}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${tokens.access_token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect(atMcp.status).toBe(401);
  expect(atMcp.headers.get('www-authenticate')).toContain(`resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`);
  // A scope the owner did not approve is refused as a key's would be.
  const payments = await fetch(`${origin}/v1/api/payments`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  expect(payments.status).toBe(403);
});

it('refuses a token bound to the MCP server at the REST API', async () => {
  const tokens = await authorize(`${origin}/mcp`);
  const answer = await me(tokens.access_token);
  expect(answer.status).toBe(401);
  expect(((await answer.json()) as { code: string }).code).toBe('API_KEY_INVALID');
});

it('rotates refresh tokens: parallel refreshes keep the grant, the spent token answers the same within the grace, not after', async () => {
  const first = await authorize(`${origin}/v1/api`);
  // Three at once: one rotates; the others are refused or, once its answer is kept, given the same
  // answer. None of them ends the grant.
  const settled = await Promise.allSettled([1, 2, 3].map(() => refresh(first.refresh_token!)));
  const rotated = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  expect(rotated.length).toBeGreaterThan(0);
  expect(new Set(rotated.map((tokens) => tokens.refresh_token)).size).toBe(1);
  const winner = rotated[0];
  expect(winner.refresh_token).not.toBe(first.refresh_token);
  // Inside the grace, the spent token gets the same new tokens again.
  const replayed = await refresh(first.refresh_token!);
  expect(replayed.refresh_token).toBe(winner.refresh_token);
  expect((await me(winner.access_token)).status).toBe(200);
  const next = await refresh(winner.refresh_token!);
  expect((await me(next.access_token)).status).toBe(200);

  // The grace over (its end moved back rather than waited for), the spent token is refused, and
  // its reuse ends the tokens it led to: a thief and the app cannot both keep the grant.
  await app
    .get(DataSource)
    .query(`UPDATE oauth_refresh_tokens SET rotation_replay_expires_at = now() - interval '1 second' WHERE rotated_at IS NOT NULL`);
  await expect(refresh(winner.refresh_token!)).rejects.toThrow();
  await expect(refresh(next.refresh_token!)).rejects.toThrow();
});

it('ends every token of a grant revoked on the Connections page', async () => {
  const tokens = await authorize(`${origin}/v1/api`, 'appointments.read offline_access', 'test');
  expect((await me(tokens.access_token)).status).toBe(200);
  const page = await owner.fetch(`${origin}/console/b/${business.slug}/connections`);
  const text = await page.text();
  expect(page.status).toBe(200);
  expect(text).toContain('Booking widget');
  const grantIds = [...text.matchAll(/\/connections\/([0-9a-f-]{36})\/revoke/g)].map((m) => m[1]);
  expect(grantIds.length).toBeGreaterThan(0);
  for (const id of grantIds) {
    const confirm = await owner.fetch(`${origin}/console/b/${business.slug}/connections/${id}/revoke`);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await confirm.text())?.[1] ?? '';
    const revoked = await owner.fetch(`${origin}/console/b/${business.slug}/connections/${id}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf }),
    });
    expect(revoked.status).toBe(303);
  }
  await new Promise((done) => setTimeout(done, 600));
  expect((await me(tokens.access_token)).status).toBe(401);
  await expect(refresh(tokens.refresh_token!)).rejects.toThrow();
});

it('ends, in the housekeeping, a grant none of whose tokens can be used any more, and keeps one in use', async () => {
  const idle = await authorize(`${origin}/v1/api`, 'services.read offline_access', 'test');
  const used = await authorize(`${origin}/v1/api`, 'appointments.read offline_access');
  const db = app.get(DataSource);
  const grantOf = async (token: string) =>
    (
      await db.query<{ reference_id: string }[]>('SELECT reference_id FROM oauth_access_tokens WHERE token = $1', [
        oauthTokenHash(token.slice('oat_'.length)),
      ])
    )[0].reference_id;
  const [idleGrant, usedGrant] = [await grantOf(idle.access_token), await grantOf(used.access_token)];
  // 90 days unused, without waiting them: every token of the idle grant past its end.
  await db.query(`UPDATE oauth_access_tokens SET expires_at = now() - interval '1 second' WHERE reference_id = $1`, [idleGrant]);
  await db.query(`UPDATE oauth_refresh_tokens SET expires_at = now() - interval '1 second' WHERE reference_id = $1`, [idleGrant]);
  await db.query(`UPDATE api_keys SET created_at = now() - interval '91 days' WHERE id = ANY($1::uuid[])`, [[idleGrant, usedGrant]]);

  expect(await app.get(OAuthGrantsRepository).endUnusable(new Date())).toBeGreaterThanOrEqual(1);
  const active = await db.query<{ id: string }[]>(`SELECT id::text FROM api_keys WHERE id = ANY($1::uuid[]) AND revoked_at IS NULL`, [
    [idleGrant, usedGrant],
  ]);
  expect(active.map((row) => row.id)).toEqual([usedGrant]);
});

it("counts a grant in the business's credentials: at 10 live ones the consent page says so and no grant is made", async () => {
  const full = await seed({ plan: 'TEAM' });
  const keys = app.get(ApiKeysService);
  // The seeded owner's key and nine more: ten live credentials.
  for (let n = 0; n < 9; n++) {
    await keys.create({ businessSlug: full.slug, memberEmail: full.ownerEmail!, name: `Key ${n}`, scopes: ['services.read'] });
  }
  const fullOwner = await signedInOwner(app, full.slug, full.ownerEmail!);
  const verifier = oauth.generateRandomCodeVerifier();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'services.read',
    state: 'at-the-limit',
    resource: `${origin}/v1/api`,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  const back = await consentThroughConsole(fullOwner, url.href, { business: full.slug });
  expect(back.pathname).toBe('/console/oauth/consent');
  const page = await (await fullOwner.fetch(back.href)).text();
  expect(page).toContain('at most 10 per mode');
  const grants = await app
    .get(DataSource)
    .query<{ n: number }[]>(`SELECT count(*)::int AS n FROM api_keys WHERE business_id = $1 AND origin = 'oauth'`, [full.id]);
  expect(grants).toEqual([{ n: 0 }]);
});

it('gives a grant 120 requests a minute of its own, as a key has', async () => {
  const other = await seed({ plan: 'TEAM' });
  const otherOwner = await signedInOwner(app, other.slug, other.ownerEmail!);
  const tokens = await authorize(`${origin}/v1/api`, 'services.read', 'live', { jar: otherOwner, business: other.slug });
  const call = (credential: string) => fetch(`${origin}/v1/api/me`, { headers: { authorization: `Bearer ${credential}` } });
  for (let n = 1; n <= 120; n++) expect((await call(tokens.access_token)).status).toBe(200);
  const refused = await call(tokens.access_token);
  expect(refused.status).toBe(429);
  expect(((await refused.json()) as { code: string }).code).toBe('API_RATE_LIMIT');
  expect(refused.headers.get('ratelimit-policy')).toBe('120;w=60');
  // The business's key is another credential with its own minute.
  expect((await call(other.keys.owner.key)).status).toBe(200);
});

it('makes one grant of two approvals of the same app, business and mode posted together', async () => {
  const twice = await seed({ plan: 'TEAM' });
  const twiceOwner = await signedInOwner(app, twice.slug, twice.ownerEmail!);
  // Both consents at once: the business's credential lock puts one after the other, and the second
  // renews the grant the first made instead of making another.
  const both = await Promise.all(
    [1, 2].map(() => authorize(`${origin}/v1/api`, 'services.read', 'live', { jar: twiceOwner, business: twice.slug })),
  );
  for (const tokens of both) expect((await me(tokens.access_token)).status).toBe(200);
  const grants = await app
    .get(DataSource)
    .query<{ n: number }[]>(`SELECT count(*)::int AS n FROM api_keys WHERE business_id = $1 AND origin = 'oauth'`, [twice.id]);
  expect(grants).toEqual([{ n: 1 }]);
});
