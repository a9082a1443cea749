/**
 * An OAuth grant as the SDK's credential (docs/partners.md, "The SDK with an OAuth grant"; D30 in
 * docs/design-record.md). A partner app holds, by the business owner's consent, a short-lived access
 * token and a refresh token that the service rotates on every use: the old one answers for a short
 * grace after its rotation, and once that is over, sending it again is refused with `invalid_grant`
 * and ends the grant. So the source sends each refresh token once (concurrent callers share one
 * refresh), hands every new pair to `onTokens` for the app to keep, and once the grant has ended it
 * says so to every caller with one typed error.
 *
 * Tokens and the client secret live in private fields only: they are in no error message, and
 * logging the source shows none of them.
 */

/** What SchedulingClient's `auth` takes: the access token to send, and a way to refuse one after a 401. */
export interface AccessTokenSource {
  /** A valid access token (refreshed first when absent or about to expire). */
  getAccessToken(): Promise<string>;
  /** The API refused `token` (401): the next getAccessToken() refreshes, unless `token` is no longer the current one. */
  invalidate(token: string): void;
}

/** The tokens after a refresh, for the app to keep (`onTokens`). */
export interface OAuthTokens {
  accessToken: string;
  /** The new refresh token: the one to use after a restart (the previous one stops working). */
  refreshToken: string;
  /** When the access token expires, or null when the token endpoint did not say. */
  expiresAt: Date | null;
  /** The scopes granted (space-separated), or null when the token endpoint did not say. */
  scope: string | null;
}

export interface OAuthTokenSourceOptions {
  /**
   * The service's address, e.g. `https://api.example` (the same as SchedulingClient's `baseUrl`):
   * the token endpoint is `<origin>/console/auth/oauth2/token`. Give this or `tokenEndpoint`.
   */
  baseUrl?: string;
  /** The token endpoint's full address, instead of `baseUrl`. */
  tokenEndpoint?: string;
  /** The app's OAuth client id. */
  clientId: string;
  /** A confidential client's secret; a public client has none. */
  clientSecret?: string;
  /**
   * How the secret is sent, as the client was registered: `client_secret_basic` (default, an
   * `Authorization: Basic` header) or `client_secret_post` (in the form).
   */
  clientAuthentication?: 'client_secret_basic' | 'client_secret_post';
  /** The latest refresh token the app holds (from the code exchange, or the last `onTokens`). */
  refreshToken: string;
  /** The latest access token, if the app still has one; without it the first call refreshes. */
  accessToken?: string;
  /**
   * When `accessToken` expires (a Date or ms since the epoch, or the `expiresAt` of OAuthTokens);
   * without it (or null), the access token is used until the API refuses it.
   */
  expiresAt?: Date | number | null;
  /** The `resource` to ask tokens for (e.g. `https://api.example/v1/api`); without it, the grant's own. */
  resource?: string;
  /**
   * Called after each refresh, before the new access token is used: persist `refreshToken` (and the
   * rest) here, or the grant is lost when the app restarts. Awaited; if it throws, the calls waiting
   * for that refresh fail with its error, and the new tokens are still used from memory.
   */
  onTokens?: (tokens: OAuthTokens) => void | Promise<void>;
  /** The fetch to call the token endpoint with (default: the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** The time in ms since the epoch (default Date.now); tests move it. */
  clock?: () => number;
}

/**
 * The token endpoint refused a refresh or answered something unusable. `error` is the RFC 6749
 * error code (`invalid_client`, `invalid_request`, …), or `invalid_response` when the answer was
 * not one. The source stays usable: a later call tries again with the same refresh token.
 */
export class OAuthTokenError extends Error {
  override readonly name: string = 'OAuthTokenError';
  readonly error: string;
  readonly description: string | null;
  /** The token endpoint's HTTP status. */
  readonly status: number;

  constructor(fields: { error: string; description?: string | null; status: number }, message?: string) {
    const description = fields.description ?? null;
    super(message ?? `The token endpoint answered ${fields.status} ${fields.error}${description === null ? '' : `: ${description}`}`);
    this.error = fields.error;
    this.description = description;
    this.status = fields.status;
  }
}

/**
 * The grant has ended (`invalid_grant`: revoked by the owner, expired, or a refresh token sent
 * again after its grace): the source refuses every call from now on with this error, and the
 * business owner must connect the app again.
 */
export class OAuthGrantEndedError extends OAuthTokenError {
  override readonly name: string = 'OAuthGrantEndedError';

  constructor(fields: { description?: string | null; status: number }) {
    const description = fields.description ?? null;
    super(
      { error: 'invalid_grant', description, status: fields.status },
      `The OAuth grant has ended (invalid_grant${description === null ? '' : `: ${description}`}); the business owner must connect the app again.`,
    );
  }
}

const TOKEN_ENDPOINT_PATH = '/console/auth/oauth2/token';
/** A token is refreshed this long before it expires (or at half its life, when that is shorter). */
const REFRESH_MARGIN_MS = 60_000;
/** What of the token endpoint's error description goes into a message. */
const DESCRIPTION_LIMIT = 200;

/**
 * Access tokens of one OAuth grant, refreshed as needed (see the file's comment). Give one source
 * to every SchedulingClient of the grant, in one process: two sources, or two processes, holding
 * the same refresh token would each send it, and the later one ends the grant once the grace is over.
 */
export class OAuthTokenSource implements AccessTokenSource {
  readonly #endpoint: string;
  readonly #clientId: string;
  readonly #clientSecret: string | null;
  readonly #clientAuthentication: 'client_secret_basic' | 'client_secret_post';
  readonly #resource: string | null;
  readonly #onTokens: ((tokens: OAuthTokens) => void | Promise<void>) | null;
  readonly #fetch: (request: Request) => Promise<Response>;
  readonly #clock: () => number;
  #refreshToken: string;
  #accessToken: string | null;
  /** When the access token is refreshed (ms since the epoch); Infinity when its expiry is unknown. */
  #refreshAt: number;
  #refreshing: Promise<string> | null = null;
  #ended: OAuthGrantEndedError | null = null;

  constructor(options: OAuthTokenSourceOptions) {
    if ((options.baseUrl === undefined) === (options.tokenEndpoint === undefined)) {
      throw new Error('OAuthTokenSource needs either baseUrl (the service’s address) or tokenEndpoint, not both');
    }
    this.#endpoint =
      options.tokenEndpoint !== undefined ? new URL(options.tokenEndpoint).href : new URL(TOKEN_ENDPOINT_PATH, options.baseUrl).href;
    if (!options.clientId) throw new Error('OAuthTokenSource needs a clientId');
    if (!options.refreshToken) throw new Error('OAuthTokenSource needs a refreshToken (from the code exchange, or the last onTokens)');
    if (
      options.clientAuthentication !== undefined &&
      !['client_secret_basic', 'client_secret_post'].includes(options.clientAuthentication)
    ) {
      throw new Error("OAuthTokenSource: clientAuthentication is 'client_secret_basic' or 'client_secret_post'");
    }
    this.#clientId = options.clientId;
    this.#clientSecret = options.clientSecret || null;
    this.#clientAuthentication = options.clientAuthentication ?? 'client_secret_basic';
    this.#resource = options.resource ?? null;
    this.#onTokens = options.onTokens ?? null;
    this.#fetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    this.#clock = options.clock ?? Date.now;
    this.#refreshToken = options.refreshToken;
    this.#accessToken = options.accessToken || null;
    const expiresAt = options.expiresAt instanceof Date ? options.expiresAt.getTime() : options.expiresAt;
    this.#refreshAt = expiresAt === undefined || expiresAt === null ? Infinity : expiresAt - REFRESH_MARGIN_MS;
  }

  /**
   * The current access token, or a new one when there is none or it expires within the margin.
   * Callers at the same time share one refresh. Throws OAuthGrantEndedError once the grant has ended.
   */
  getAccessToken(): Promise<string> {
    if (this.#ended !== null) return Promise.reject(this.#ended);
    if (this.#accessToken !== null && this.#clock() < this.#refreshAt) return Promise.resolve(this.#accessToken);
    this.#refreshing ??= this.#refresh().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  /** After a 401 with `token`: the next getAccessToken() refreshes, unless a newer token is already there. */
  invalidate(token: string): void {
    if (token === this.#accessToken) this.#accessToken = null;
  }

  async #refresh(): Promise<string> {
    const sent = this.#refreshToken;
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: sent, client_id: this.#clientId });
    if (this.#resource !== null) form.set('resource', this.#resource);
    const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' });
    if (this.#clientSecret !== null) {
      if (this.#clientAuthentication === 'client_secret_post') form.set('client_secret', this.#clientSecret);
      else headers.set('Authorization', basicCredentials(this.#clientId, this.#clientSecret));
    }
    // expires_in counts from the answer; counting from the request errs on the early side.
    const sentAt = this.#clock();
    const response = await this.#fetch(new Request(this.#endpoint, { method: 'POST', headers, body: form }));
    const answer = await readJson(response);
    if (!response.ok) {
      const refusal = refusalOf(response.status, answer);
      if (refusal.error === 'invalid_grant') {
        this.#ended = new OAuthGrantEndedError(refusal);
        this.#accessToken = null;
        throw this.#ended;
      }
      throw new OAuthTokenError(refusal);
    }
    const tokens = tokensOf(response.status, answer, sent, sentAt);
    this.#accessToken = tokens.accessToken;
    this.#refreshToken = tokens.refreshToken;
    this.#refreshAt = tokens.refreshAt;
    if (this.#onTokens !== null) {
      await this.#onTokens({
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        expiresAt: tokens.expiresAt,
        scope: tokens.scope,
      });
    }
    return tokens.accessToken;
  }
}

/** RFC 6749 §2.3.1: id and secret form-encoded, then base64 as HTTP Basic. */
function basicCredentials(clientId: string, clientSecret: string): string {
  const formEncode = (value: string): string => new URLSearchParams({ v: value }).toString().slice(2);
  return `Basic ${btoa(`${formEncode(clientId)}:${formEncode(clientSecret)}`)}`;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The RFC 6749 §5.2 error of a refusal; never the body itself, which is not ours to print. */
function refusalOf(status: number, answer: unknown): { error: string; description: string | null; status: number } {
  const body = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
  if (typeof body.error !== 'string' || body.error === '') {
    return { error: 'invalid_response', description: 'the token endpoint’s answer has no OAuth error', status };
  }
  const description = typeof body.error_description === 'string' ? body.error_description.slice(0, DESCRIPTION_LIMIT) : null;
  return { error: body.error, description, status };
}

/** The tokens of a successful refresh (RFC 6749 §5.1); a refresh token the answer leaves out stays the one sent. */
function tokensOf(status: number, answer: unknown, sentRefreshToken: string, now: number): OAuthTokens & { refreshAt: number } {
  const body = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
  const invalid = (description: string): OAuthTokenError => new OAuthTokenError({ error: 'invalid_response', description, status });
  if (typeof body.access_token !== 'string' || body.access_token === '') throw invalid('the answer has no access_token');
  if (typeof body.token_type !== 'string' || body.token_type.toLowerCase() !== 'bearer') throw invalid('the token_type is not Bearer');
  if (body.refresh_token !== undefined && (typeof body.refresh_token !== 'string' || body.refresh_token === '')) {
    throw invalid('the refresh_token is not a string');
  }
  const lifetimeMs = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in * 1000 : null;
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token ?? sentRefreshToken,
    expiresAt: lifetimeMs === null ? null : new Date(now + lifetimeMs),
    scope: typeof body.scope === 'string' ? body.scope : null,
    refreshAt: lifetimeMs === null ? Infinity : now + lifetimeMs - Math.min(REFRESH_MARGIN_MS, lifetimeMs / 2),
  };
}
