import { createHash, hkdfSync } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { oauthProvider, type OAuthOptions, type Scope as OAuthScope } from '@better-auth/oauth-provider';
import { createAuthMiddleware } from 'better-auth/api';
import { magicLink } from 'better-auth/plugins';
import type pg from 'pg';
import { withApplicationTypeDefault } from '../oauth/registration-defaults.js';

/** How long an e-mailed sign-in link can be used (once). */
export const SIGN_IN_LINK_TTL_SECONDS = 15 * 60;
/** A session ends after this long without a request... */
export const SESSION_IDLE_SECONDS = 12 * 60 * 60;
/** ...and this long after its sign-in, however busy (ConsoleSessions checks it). */
export const SESSION_MAX_SECONDS = 7 * 24 * 60 * 60;
/** A session's idle deadline is moved forward at most this often, so that a page view costs no write. */
const SESSION_REFRESH_SECONDS = 60;

/** Where the console is served, and so which cookies it sets (a `__Host-` name only where https). */
export interface ConsoleAuthSettings {
  pool: pg.Pool;
  /** API_KEY_PEPPER: the console's keys are derived from it (consoleSecret), so it needs no setting of its own. */
  secretSource: string;
  /** The console's origin, such as https://api.example.com: what Better Auth trusts. */
  origin: string;
  secure: boolean;
}

/** A secret of its own for `purpose`, derived from the deployment's API_KEY_PEPPER (HKDF-SHA256). */
export function consoleSecret(secretSource: string, purpose: 'sessions' | 'forms'): string {
  return Buffer.from(hkdfSync('sha256', secretSource, 'scheduling-console', purpose, 32)).toString('base64url');
}

export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-console_session' : 'console_session';
}

/** A sign-in token as the magic-link plugin makes it (32 letters): anything else is not a whole link. */
export const SIGN_IN_TOKEN_PATTERN = /^[A-Za-z]{32}$/;

/**
 * The identifier the magic-link plugin stores a token's row under (`storeToken: 'hashed'`: the
 * SHA-256 of the token, base64url without padding): what finds a pending link without spending it.
 */
export function storedLinkIdentifier(token: string): string {
  return `magic-link:${createHash('sha256').update(token).digest('base64url')}`;
}

/** A sign-in link just issued, as the magic-link plugin hands it to sendMagicLink. */
export interface IssuedLink {
  email: string;
  token: string;
}

/**
 * Better Auth, configured as the console uses it (docs/design-record.md#d26): its magic-link
 * plugin makes, stores (hashed) and spends the one-time sign-in tokens, and its session management
 * the sessions and their signed cookie. Only its server API (`auth.api`) is called, but for the OAuth
 * provider's own routes (docs/design-record.md#d30), which the API mounts. Its user is the e-mail identity; which businesses that e-mail may manage is
 * the members table's to say, asked on every request. Its own rate limit is off: the console
 * limits link requests with the project's shared limiter.
 *
 * `onIssued` receives each new link's token: the caller, not Better Auth, decides where it goes
 * (an e-mail, or the admin command line's output).
 */
export function createConsoleAuth(
  settings: ConsoleAuthSettings,
  onIssued: (link: IssuedLink, requestId: string) => void,
  oauth: OAuthOptions<OAuthScope[]>,
) {
  const timestamps = { createdAt: 'created_at', updatedAt: 'updated_at' };
  return betterAuth({
    appName: 'Scheduling console',
    baseURL: settings.origin,
    basePath: '/console/auth',
    secret: consoleSecret(settings.secretSource, 'sessions'),
    database: settings.pool,
    telemetry: { enabled: false },
    rateLimit: { enabled: false },
    logger: { disabled: true },
    user: { modelName: 'console_users', fields: { emailVerified: 'email_verified', ...timestamps } },
    session: {
      modelName: 'console_sessions',
      fields: { expiresAt: 'expires_at', ipAddress: 'ip_address', userAgent: 'user_agent', userId: 'user_id', ...timestamps },
      expiresIn: SESSION_IDLE_SECONDS,
      updateAge: SESSION_REFRESH_SECONDS,
    },
    account: {
      modelName: 'console_accounts',
      fields: {
        accountId: 'account_id',
        providerId: 'provider_id',
        userId: 'user_id',
        accessToken: 'access_token',
        refreshToken: 'refresh_token',
        idToken: 'id_token',
        accessTokenExpiresAt: 'access_token_expires_at',
        refreshTokenExpiresAt: 'refresh_token_expires_at',
        ...timestamps,
      },
    },
    verification: { modelName: 'console_verifications', fields: { expiresAt: 'expires_at', ...timestamps } },
    advanced: {
      // The name carries its own prefix: __Host- (Secure, Path=/, no Domain) rather than Better Auth's __Secure-.
      useSecureCookies: false,
      cookies: {
        session_token: {
          name: sessionCookieName(settings.secure),
          attributes: { secure: settings.secure, httpOnly: true, sameSite: 'lax', path: '/' },
        },
      },
    },
    hooks: {
      before: createAuthMiddleware((ctx) =>
        Promise.resolve(ctx.path === '/oauth2/register' ? { context: { body: withApplicationTypeDefault(ctx.body) } } : undefined),
      ),
    },
    plugins: [
      magicLink({
        expiresIn: SIGN_IN_LINK_TTL_SECONDS,
        storeToken: 'hashed',
        sendMagicLink: ({ email, token, metadata }) => onIssued({ email, token }, String(metadata?.requestId)),
      }),
      // The OAuth 2.1 server of docs/design-record.md#d30, on the same sessions: the owner who
      // consents is the console's signed-in member.
      oauthProvider(oauth),
    ],
  });
}

export type ConsoleAuth = ReturnType<typeof createConsoleAuth>;
