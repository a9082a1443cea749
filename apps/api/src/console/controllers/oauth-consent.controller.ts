import { Get, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError } from '#core/errors/domain-error.js';
import { ConsoleAuditService } from '#core/console-audit/console-audit.service.js';
import { ConsoleAuthentication } from '#core/console-auth/console-authentication.js';
import { ConsoleLinks } from '#core/console-auth/console-links.service.js';
import { withChosenGrant } from '#core/oauth/consent-choice.js';
import { OAuthGrantsRepository } from '#core/oauth/oauth-grants.repository.js';
import { OAuthGrantsService } from '#core/oauth/oauth-grants.service.js';
import { OFFLINE_ACCESS } from '#core/oauth/oauth-server-options.js';
import { isScope } from '#core/scopes/scope.js';
import { ConsoleAction, ConsoleController, ConsolePage } from '../console-controller.decorator.js';
import { CONSOLE_CSP } from '../console-headers.js';
import { ConsoleRedirect, signInNeeded } from '../console-exceptions.js';
import { ConsoleFlow, type SeeOther } from '../console-flow.js';
import { refusalText } from '../console-forms.js';
import { Console, Form, sessionOf, type ConsoleForm, type ConsoleState } from '../console-request.js';
import { cookieHeaders } from '../console-session.guard.js';
import { frameOf } from '../pages/layout.js';
import { consentPage, consentUnavailablePage } from '../pages/oauth.pages.js';
import { rememberReturn } from '../sign-in-return.js';

/** The parameters Better Auth adds to sign the authorization request it sends the browser with. */
const SIGNATURE_PARAMETERS = ['sig', 'exp', 'ba_iat', 'ba_pl'];

/**
 * Sign-in and consent for an OAuth authorization (docs/design-record.md#d30). Better Auth's
 * provider sends the browser here with the request signed; the owner picks the business and live
 * or test, unchecks what they will not allow, and approves or denies. The grant is made (or
 * renewed) before the provider issues the code, which carries it.
 */
@ConsoleController('oauth', { business: false })
export class OAuthConsentController {
  constructor(
    private readonly authentication: ConsoleAuthentication,
    private readonly links: ConsoleLinks,
    private readonly grants: OAuthGrantsService,
    private readonly apps: OAuthGrantsRepository,
    private readonly audit: ConsoleAuditService,
    private readonly flow: ConsoleFlow,
  ) {}

  /** Not signed in: the console's sign-in, which comes back to the authorization afterwards. */
  @Get('sign-in')
  @ConsolePage()
  signIn(@Console() state: ConsoleState, @Req() req: Request, @Res({ passthrough: true }) res: Response): never {
    const authorize = `/console/auth/oauth2/authorize?${unsigned(queryOf(req))}`;
    if (state.session) throw new ConsoleRedirect(authorize);
    rememberReturn(res, authorize);
    throw signInNeeded();
  }

  @Get('consent')
  @ConsolePage()
  async show(@Console() state: ConsoleState, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<string> {
    if (!state.session) throw signInNeeded();
    const session = state.session;
    const frame = frameOf(state, state.translator.t('oauth.consentTitle'));
    const oauthQuery = queryOf(req);
    const asked = new URLSearchParams(oauthQuery);
    const app = await this.apps.app(asked.get('client_id') ?? '');
    const redirect = safeUrl(asked.get('redirect_uri'));
    if (!app || app.disabled || !redirect) return consentUnavailablePage(frame);
    // The approval's redirect goes to the app: the page's policy lets its form lead there.
    res.setHeader('Content-Security-Policy', CONSOLE_CSP.replace("form-action 'self'", `form-action 'self' ${formTarget(redirect)}`));
    const refused = (await this.flow.taken(state)).find((flash) => flash.kind === 'error');
    return consentPage(
      frame,
      {
        oauthQuery,
        appName: app.name ?? app.clientId,
        redirectHost: redirect.host || redirect.protocol,
        scopes: (asked.get('scope') ?? '').split(' '),
      },
      await this.links.businessesOf(session.email),
      refused?.kind === 'error' ? refusalText(state.translator, refused.code, refused.detail) : undefined,
    );
  }

  @Post('consent')
  @ConsoleAction()
  async answer(@Console() state: ConsoleState, @Form() form: ConsoleForm, @Req() req: Request): Promise<SeeOther> {
    const session = sessionOf(state);
    const oauthQuery = form.field('oauth_query');
    const headers = cookieHeaders(req);
    if (form.field('answer') !== 'approve') {
      return { url: await this.authentication.answerConsent(headers, oauthQuery, { accept: false }), statusCode: 303 };
    }
    const asked = new URLSearchParams(oauthQuery);
    const clientId = asked.get('client_id') ?? '';
    const app = await this.apps.app(clientId);
    const askedScopes = (asked.get('scope') ?? '').split(' ');
    const approved = form.fields('scopes').filter((scope) => askedScopes.includes(scope));
    if (!app || !approved.some(isScope)) throw new ConsoleRedirect(`/console/oauth/consent?${oauthQuery}`);
    const membership = (await this.links.businessesOf(session.email)).find((m) => m.slug === form.field('business'));
    if (!membership) throw signInNeeded();
    let grantId: string;
    try {
      ({ grantId } = await this.grants.approve({
        businessSlug: membership.slug,
        mode: form.field('mode') === 'test' ? 'test' : 'live',
        memberEmail: session.email,
        clientId,
        appName: app.name ?? clientId,
        scopes: approved,
      }));
    } catch (error) {
      // A refusal (the business's credentials at their limit, no sandbox on its plan) goes back to
      // this same request's consent page, which says why; the owner may choose otherwise or deny.
      if (!(error instanceof DomainError) || error.code === 'INTERNAL' || error.code === 'SERVICE_UNAVAILABLE') throw error;
      return this.flow.seeOther(state, `/console/oauth/consent?${oauthQuery}`, { kind: 'error', code: error.code, detail: error.detail });
    }
    await this.audit.record({
      businessId: membership.businessId,
      actorEmail: session.email,
      action: 'oauth.connect',
      subject: `${app.name ?? clientId} (${form.field('mode') === 'test' ? 'test' : 'live'}): ${approved.join(' ')}`,
      address: state.address,
    });
    const scopes = approved.filter((scope) => isScope(scope) || scope === OFFLINE_ACCESS);
    const url = await withChosenGrant(grantId, () => this.authentication.answerConsent(headers, oauthQuery, { accept: true, scopes }));
    return { url, statusCode: 303 };
  }
}

function queryOf(req: Request): string {
  const at = req.originalUrl.indexOf('?');
  return at === -1 ? '' : req.originalUrl.slice(at + 1);
}

/** The authorization request as the app sent it: without what Better Auth added to sign it. */
function unsigned(query: string): string {
  const params = new URLSearchParams(query);
  for (const name of SIGNATURE_PARAMETERS) params.delete(name);
  return params.toString();
}

function safeUrl(raw: string | null): URL | null {
  if (!raw) return null;
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/** A CSP source for the redirect: its origin on the web, its scheme for an app's own (`cursor:`). */
function formTarget(url: URL): string {
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}
