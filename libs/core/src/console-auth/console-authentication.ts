import { randomUUID } from 'node:crypto';
import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { oauthProviderAuthServerMetadata } from '@better-auth/oauth-provider';
import { toNodeHandler } from 'better-auth/node';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pg from 'pg';
import { AppConfig } from '#config/app-config.js';
import {
  createConsoleAuth,
  SESSION_MAX_SECONDS,
  SIGN_IN_TOKEN_PATTERN,
  storedLinkIdentifier,
  type ConsoleAuth,
  type IssuedLink,
} from './console-auth.js';
import { consoleOrigin, consoleIsSecure } from './console-origin.js';
import { DomainError } from '../errors/domain-error.js';
import { dnsLookup } from '../notices/endpoints/host-lookup.js';
import { clientMetadataDocuments } from '../oauth/client-metadata-documents.js';
import { oauthServerOptions } from '../oauth/oauth-server-options.js';
import { ConsoleSignInAudit, type SignInRefusal } from './console-sign-in-audit.service.js';
import { ConsoleSignInsRepository } from './console-sign-ins.repository.js';

/** A confidential OAuth client as `admin oauth-client create` asks for it (docs/design-record.md#d30). */
export interface ConfidentialClientRequest {
  name: string;
  redirectUris: string[];
  scopes: string[];
  /** `native` when a redirect URI is http on a loopback address (RFC 8252 §7.3), else `web`. */
  applicationType: 'web' | 'native';
}

/** What Better Auth answered: the client secret is whole here only, and stored as its hash. */
export interface CreatedConfidentialClient {
  clientId: string;
  clientSecret: string;
  createdAt: Date;
}

/**
 * The console user the admin command line acts as where Better Auth's admin endpoints want a
 * session: a reserved address (RFC 2606 `.invalid`) no mail reaches and no member has, so it can
 * never sign in to the console. It owns the confidential clients the command line creates.
 */
export const OPERATOR_EMAIL = 'operator@admin.invalid';

/** The signed-in e-mail identity behind a request, and the headers its answer must carry. */
export interface ConsoleSessionLookup {
  session: { id: string; email: string } | null;
  /** Set-Cookie values Better Auth answered with: a moved idle deadline, or the cookie cleared. */
  setCookies: string[];
}

/** Why a link did not sign in: what the sign-in page says (a link cut short is not a used one). */
export type LinkRefusal = Extract<SignInRefusal, 'malformed-link' | 'expired-link' | 'used-or-unknown-link'>;

/** The outcome of spending a sign-in link. */
export type LinkSpent = { signedIn: true; email: string; setCookies: string[] } | { signedIn: false; refusal: LinkRefusal };

/**
 * The one holder of the console's Better Auth instance and its connections (docs/design-record.md#d26):
 * issues sign-in tokens, spends them, reads and ends sessions. Better Auth reaches PostgreSQL
 * through a small pg Pool of its own (its query builder needs one), on the same database.
 */
@Injectable()
export class ConsoleAuthentication implements OnApplicationShutdown {
  private readonly pool: pg.Pool;
  private readonly origin: string;
  private readonly auth: ConsoleAuth;
  /** Links issued by the call in progress, by that call's id: sendMagicLink runs inside signInMagicLink. */
  private readonly issued = new Map<string, IssuedLink>();

  constructor(
    config: AppConfig,
    private readonly signIns: ConsoleSignInsRepository,
    private readonly audit: ConsoleSignInAudit,
  ) {
    this.origin = consoleOrigin(config);
    this.pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 3 });
    this.pool.on('error', () => undefined);
    this.auth = createConsoleAuth(
      { pool: this.pool, secretSource: config.API_KEY_PEPPER, origin: consoleOrigin(config), secure: consoleIsSecure(config) },
      (link, requestId) => this.issued.set(requestId, link),
      oauthServerOptions({
        origin: consoleOrigin(config),
        clientMetadataDocuments: (options) => {
          const lookup = dnsLookup(config.WEBHOOK_DNS_SERVERS);
          return clientMetadataDocuments(
            {
              allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE,
              ports: config.WEBHOOK_PORTS,
              resolve: (host, timeoutMs) => lookup(host, AbortSignal.timeout(timeoutMs)),
            },
            options,
          );
        },
      }),
    );
  }

  /** A new one-time token for the e-mail, valid SIGN_IN_LINK_TTL_SECONDS; nothing is sent. */
  async issueToken(email: string): Promise<string> {
    const requestId = randomUUID();
    try {
      await this.auth.api.signInMagicLink({ body: { email, metadata: { requestId } }, headers: new Headers() });
      const link = this.issued.get(requestId);
      if (!link) throw new Error('the magic-link plugin issued no token');
      return link.token;
    } finally {
      this.issued.delete(requestId);
    }
  }

  /**
   * Spends the token (once, before it expires): a new session, and its cookie. The sign-in, or the
   * refusal and why, goes to the audit with `address`, the client's (docs/design-record.md#d29).
   */
  async spend(token: string, address: string, now = new Date()): Promise<LinkSpent> {
    if (!SIGN_IN_TOKEN_PATTERN.test(token)) {
      await this.audit.refused('malformed-link', null, address);
      return { signedIn: false, refusal: 'malformed-link' };
    }
    // Read before it is spent: the plugin deletes the row, expired or not, and says only "invalid".
    const pending = await this.signIns.pendingLink(storedLinkIdentifier(token));
    try {
      const answer = await this.auth.api.magicLinkVerify({ query: { token }, headers: new Headers(), returnHeaders: true });
      await this.audit.signedIn(answer.response.user.email, address);
      return { signedIn: true, email: answer.response.user.email, setCookies: answer.headers.getSetCookie() };
    } catch (error) {
      // An unknown, spent or expired token: the plugin answers with a redirect to its error page.
      if (!isBetterAuthRefusal(error)) throw error;
      const refusal = pending && pending.expiresAt.getTime() <= now.getTime() ? 'expired-link' : 'used-or-unknown-link';
      await this.audit.refused(refusal, pending?.email ?? null, address);
      return { signedIn: false, refusal };
    }
  }

  /**
   * The session the request's cookie names, if it is alive: Better Auth ends it after
   * SESSION_IDLE_SECONDS without a request; this ends it SESSION_MAX_SECONDS after the sign-in.
   */
  async session(headers: Headers, now = new Date()): Promise<ConsoleSessionLookup> {
    const answer = await this.auth.api.getSession({ headers, returnHeaders: true });
    const setCookies = answer.headers.getSetCookie();
    const found = answer.response;
    if (!found) return { session: null, setCookies };
    if (now.getTime() - new Date(found.session.createdAt).getTime() > SESSION_MAX_SECONDS * 1000) {
      return { session: null, setCookies: await this.endSession(headers) };
    }
    return { session: { id: found.session.id, email: found.user.email }, setCookies };
  }

  /**
   * The member signs out: ends the request's session, recorded in the audit with `address`; the
   * Set-Cookie values that clear its cookie.
   */
  async signOut(headers: Headers, address: string): Promise<string[]> {
    const found = await this.auth.api.getSession({ headers, query: { disableRefresh: true } });
    const setCookies = await this.endSession(headers);
    if (found) await this.audit.signedOut(found.user.email, address);
    return setCookies;
  }

  /** Ends the request's session (if any); the Set-Cookie values that clear its cookie. */
  private async endSession(headers: Headers): Promise<string[]> {
    try {
      const answer = await this.auth.api.signOut({ headers, returnHeaders: true });
      return answer.headers.getSetCookie();
    } catch (error) {
      if (isBetterAuthRefusal(error)) return [];
      throw error;
    }
  }

  /**
   * The OAuth provider's own routes (authorize, token, register, revoke) as a Node handler: the API
   * mounts it for those paths only (docs/design-record.md#d30).
   */
  oauthRoutes(): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
    return toNodeHandler(this.auth);
  }

  /** The RFC 8414 metadata document (with RFC 9207's `iss` support), as a fetch handler. */
  authorizationServerMetadata(): (request: Request) => Promise<Response> {
    return oauthProviderAuthServerMetadata(this.auth);
  }

  /**
   * The owner's answer on the consent page, for the signed authorization request `oauthQuery`
   * (what Better Auth sent the browser to the page with): where the browser goes next, the app's
   * redirect URI with a code, or with access_denied. `scopes` are the approved ones (a subset of
   * those asked); the grant chosen is the caller's to set (consent-choice.ts).
   */
  async answerConsent(headers: Headers, oauthQuery: string, answer: { accept: boolean; scopes?: string[] }): Promise<string> {
    const json = new Headers(headers);
    json.set('accept', 'application/json');
    const result = (await this.auth.api.oauth2Consent({
      headers: json,
      body: { accept: answer.accept, oauth_query: oauthQuery, ...(answer.scopes ? { scope: answer.scopes.join(' ') } : {}) },
      // The provider goes on to its authorize step, which reads the request it answers.
      request: new Request(`${this.origin}/console/auth/oauth2/consent`, { method: 'POST', headers: json }),
      asResponse: false,
    })) as { url?: string; redirect_uri?: string };
    const url = result.url ?? result.redirect_uri;
    if (!url) throw new Error('the OAuth provider answered the consent without a redirect');
    return url;
  }

  /**
   * A confidential OAuth client (client_secret_basic, the authorization code and refresh grants,
   * PKCE still required), made by the OAuth provider's own admin endpoint (docs/design-record.md#d30).
   * That endpoint wants a signed-in user: the operator's, for this one call, then signed out.
   */
  async createConfidentialClient(request: ConfidentialClientRequest): Promise<CreatedConfidentialClient> {
    const headers = await this.operatorSession();
    try {
      const created = (await this.adminCreateOAuthClient({
        headers,
        body: {
          client_name: request.name,
          redirect_uris: request.redirectUris,
          scope: request.scopes.join(' '),
          token_endpoint_auth_method: 'client_secret_basic',
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          application_type: request.applicationType,
          require_pkce: true,
        },
      })) as { client_id: string; client_secret?: string; client_id_issued_at?: number };
      if (!created.client_secret) throw new Error('the OAuth provider made a confidential client without a secret');
      const issuedAt = created.client_id_issued_at;
      return {
        clientId: created.client_id,
        clientSecret: created.client_secret,
        createdAt: issuedAt === undefined ? new Date() : new Date(issuedAt * 1000),
      };
    } finally {
      await this.endSession(headers);
    }
  }

  /**
   * The provider's admin endpoint; a registration it refuses (rules the caller did not check
   * first) is VALIDATION_FAILED with its own words, not an unexpected error.
   */
  private async adminCreateOAuthClient(call: Parameters<ConsoleAuth['api']['adminCreateOAuthClient']>[0]): Promise<unknown> {
    try {
      return await this.auth.api.adminCreateOAuthClient(call);
    } catch (error) {
      if (!isBetterAuthRefusal(error)) throw error;
      const body = (error as { body?: { error_description?: unknown; message?: unknown } }).body;
      const reason = body?.error_description ?? body?.message;
      throw new DomainError(
        'VALIDATION_FAILED',
        `The OAuth server refused the registration: ${typeof reason === 'string' ? reason : 'no reason given'}.`,
      );
    }
  }

  /** A session of the operator's console user (made at its first use), as the Cookie header of a call. */
  private async operatorSession(): Promise<Headers> {
    const token = await this.issueToken(OPERATOR_EMAIL);
    const answer = await this.auth.api.magicLinkVerify({ query: { token }, headers: new Headers(), returnHeaders: true });
    const cookie = answer.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    return new Headers({ cookie });
  }

  async onApplicationShutdown(): Promise<void> {
    // Better Auth readies itself (the OAuth provider seeds its resources) from its creation on: a
    // command that never called it can end before that is done, which must not outlive the pool.
    await this.auth.$context.catch(() => undefined);
    await this.pool.end();
  }
}

/** Better Auth's APIError (a refusal or a redirect), not a failure of the database or of the code. */
function isBetterAuthRefusal(error: unknown): boolean {
  return error instanceof Error && error.name === 'APIError';
}
