import type { NestExpressApplication } from '@nestjs/platform-express';
import { runAdminCommand, type AdminRun } from '../utils/admin-runner.js';
import { consentThroughConsole, listeningApi, signedInOwner } from '../utils/oauth-owner.js';
import { seed, type SeededBusiness } from '../utils/seed.js';
import { testConfig } from '../utils/test-config.js';

/**
 * `admin oauth-client create | list | revoke` (docs/operations-interface.md, docs/design-record.md#d30)
 * against a listening API: the confidential app it registers authenticates at the token endpoint
 * with its secret, gets a grant by the owner's consent, and is revoked with all it was granted.
 */
let app: NestExpressApplication;
let origin: string;
let business: SeededBusiness;
const redirectUri = 'https://partner.example/oauth/callback';

// The admin command line runs with the service's settings: the same origin names the resources.
const admin = (...argv: string[]): Promise<AdminRun> => runAdminCommand(argv, testConfig({ PUBLIC_BASE_URL: origin }));

beforeAll(async () => {
  ({ app, origin } = await listeningApi());
  business = await seed({ plan: 'TEAM' });
});
afterAll(() => app?.close());

const basic = (clientId: string, secret: string): string => `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;

/** A POST to the token endpoint as a confidential app makes it (client_secret_basic). */
async function token(
  clientId: string,
  secret: string,
  form: Record<string, string>,
): Promise<{ status: number; body: Record<string, string> }> {
  const response = await fetch(`${origin}/console/auth/oauth2/token`, {
    method: 'POST',
    headers: { authorization: basic(clientId, secret), 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** The PKCE S256 challenge of a verifier. */
async function challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return Buffer.from(digest).toString('base64url');
}

function listed(run: AdminRun, clientId: string): Record<string, unknown> | undefined {
  return (run.json.clients as { clientId: string }[]).find((client) => client.clientId === clientId);
}

it('refuses a redirect URI that is not https, an unknown scope and an empty name at their fields, and what the OAuth server refuses', async () => {
  const run = await admin(
    'oauth-client',
    'create',
    '--name',
    ' ',
    '--redirect-uri',
    'http://partner.example/callback',
    '--scopes',
    'appointments.read,everything',
  );
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.error.code).toBe('VALIDATION_FAILED');
  expect(run.error.errors!.map((error) => error.path).sort()).toEqual(['/name', '/redirectUris', '/scopes']);
  expect((await admin('oauth-client', 'create', '--name', 'No redirect')).error.code).toBe('USAGE');
  // A rule of the OAuth server's own (a web app's https is never on loopback), in its words.
  const refused = await admin('oauth-client', 'create', '--name', 'Loopback', '--redirect-uri', 'https://localhost/callback');
  expect(refused.code).toBe(1);
  expect(refused.error.code).toBe('VALIDATION_FAILED');
  expect(refused.error.detail).toMatch(/refused the registration: .*loopback/);
});

it('creates a confidential app whose secret authenticates, lists it, and revokes it with its grants', async () => {
  const created = await admin(
    'oauth-client',
    'create',
    '--name',
    'Partner back office',
    '--redirect-uri',
    redirectUri,
    '--redirect-uri',
    'http://127.0.0.1:8080/callback',
    '--scopes',
    'appointments.read,services.read,offline_access',
  );
  expect(created.code).toBe(0);
  const { clientId, clientSecret } = created.json as { clientId: string; clientSecret: string };
  expect(clientSecret).toMatch(/^ocs_/);
  expect(created.json).toMatchObject({
    name: 'Partner back office',
    kind: 'confidential',
    redirectUris: [redirectUri, 'http://127.0.0.1:8080/callback'],
    scopes: ['appointments.read', 'services.read', 'offline_access'],
    tokenEndpointAuthMethod: 'client_secret_basic',
  });
  expect(created.json.notice).toMatch(/shown this once/);

  const before = await admin('oauth-client', 'list');
  expect(before.code).toBe(0);
  expect(before.stdout).not.toContain(clientSecret);
  expect(listed(before, clientId)).toMatchObject({ name: 'Partner back office', kind: 'confidential', disabled: false, activeGrants: 0 });

  // Better Auth looks the code up before it checks the client: a bogus code is refused as such.
  const bogus = { grant_type: 'authorization_code', code: 'bogus', redirect_uri: redirectUri, code_verifier: 'v'.repeat(43) };
  expect((await token(clientId, clientSecret, bogus)).body.error).toBe('invalid_grant');

  // The owner grants it; PKCE is still required of it.
  const owner = await signedInOwner(app, business.slug, business.ownerEmail!);
  const verifier = 'a'.repeat(20) + 'b'.repeat(23);
  const authorize = new URL(`${origin}/console/auth/oauth2/authorize`);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'appointments.read offline_access',
    state: 'state-1',
    resource: `${origin}/v1/api`,
    code_challenge: await challenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  const back = await consentThroughConsole(owner, authorize.href, { business: business.slug });
  const code = back.searchParams.get('code')!;
  expect(code).toBeTruthy();
  const tokens = await token(clientId, clientSecret, { ...bogus, code, code_verifier: verifier, resource: `${origin}/v1/api` });
  expect(tokens.status).toBe(200);
  expect(tokens.body.access_token).toMatch(/^oat_/);
  // A refresh token found, the client is checked: the secret is the app's, and nothing else is.
  const refresh = (secret: string, refreshToken: string) =>
    token(clientId, secret, { grant_type: 'refresh_token', refresh_token: refreshToken });
  expect((await refresh(`${clientSecret}x`, tokens.body.refresh_token)).body.error).toBe('invalid_client');
  const refreshed = await refresh(clientSecret, tokens.body.refresh_token);
  expect(refreshed.status).toBe(200);
  const me = () => fetch(`${origin}/v1/api/me`, { headers: { authorization: `Bearer ${refreshed.body.access_token}` } });
  expect((await me()).status).toBe(200);
  expect(listed(await admin('oauth-client', 'list'), clientId)).toMatchObject({ activeGrants: 1 });

  const revoked = await admin('oauth-client', 'revoke', '--client-id', clientId);
  expect(revoked.code).toBe(0);
  expect(revoked.json).toEqual({ clientId, name: 'Partner back office', disabled: true, grantsRevoked: 1 });
  expect(listed(await admin('oauth-client', 'list'), clientId)).toMatchObject({ disabled: true, activeGrants: 0 });

  // Nothing it held works: the access token (once the API's lookup cache, AUTH_CACHE_TTL_MS, has let
  // it go, as for a revoked key) and the refresh token, whose app is disabled.
  await new Promise((done) => setTimeout(done, 600));
  expect((await me()).status).toBe(401);
  expect((await refresh(clientSecret, refreshed.body.refresh_token)).body.error).toBe('invalid_client');
  expect((await admin('oauth-client', 'revoke', '--client-id', 'no-such-client')).error.code).toBe('NOT_FOUND');
});
