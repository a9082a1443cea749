import { Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '#config/app-config.js';
import { ConsoleAuthentication } from '#core/console-auth/console-authentication.js';
import { ConsoleLinkRequests } from '#core/console-auth/console-link-requests.service.js';
import { consoleBaseUrl } from '#core/console-auth/console-origin.js';
import { ConsoleLinks } from '#core/console-auth/console-links.service.js';
import { ConsoleAction, ConsoleController, ConsolePage } from '../console-controller.decorator.js';
import { ConsoleRedirect, signInNeeded } from '../console-exceptions.js';
import { ConsoleFlow, type SeeOther } from '../console-flow.js';
import { Console, Form, type ConsoleForm, type ConsoleState } from '../console-request.js';
import { cookieHeaders, forwardCookies } from '../console-session.guard.js';
import { frameOf, type PageFrame } from '../pages/layout.js';
import { takeReturn } from '../sign-in-return.js';
import { businessesPage, confirmPage, limitedPage, linkSentPage, signInPage, SIGN_IN_NOTICES } from '../pages/sign-in.pages.js';

const frame = (state: ConsoleState, title: string): PageFrame => frameOf(state, title);

/** Sign-in by e-mailed link, the choice of business, and sign-out (docs/design-record.md#d26). */
@ConsoleController('', { business: false })
export class SignInController {
  constructor(
    private readonly config: AppConfig,
    private readonly authentication: ConsoleAuthentication,
    private readonly links: ConsoleLinks,
    private readonly requests: ConsoleLinkRequests,
    private readonly flow: ConsoleFlow,
  ) {}

  @Get()
  @ConsolePage()
  async home(@Console() state: ConsoleState): Promise<string> {
    if (!state.session) throw signInNeeded();
    const memberships = await this.links.businessesOf(state.session.email);
    if (memberships.length === 1) throw new ConsoleRedirect(`/console/b/${encodeURIComponent(memberships[0].slug)}/keys`);
    return businessesPage(frame(state, state.translator.t('businesses.title')), memberships);
  }

  @Get('sign-in')
  @ConsolePage()
  signIn(@Console() state: ConsoleState, @Query('notice') notice: unknown): string {
    if (state.session) throw new ConsoleRedirect('/console');
    const known = SIGN_IN_NOTICES.find((n) => n === notice);
    return signInPage(frame(state, state.translator.t('signIn.title')), known);
  }

  @Post('sign-in')
  @ConsoleAction()
  async requestLink(@Console() state: ConsoleState, @Form() form: ConsoleForm): Promise<SeeOther> {
    // The link goes to the configured address, never to one this request's Host names.
    const { outcome } = await this.requests.request(form.field('email'), state.address, consoleBaseUrl(this.config));
    return this.flow.seeOther(state, outcome === 'limited' ? '/console/sign-in/limited' : '/console/sign-in/sent');
  }

  @Get('sign-in/sent')
  @ConsolePage()
  sent(@Console() state: ConsoleState): string {
    return linkSentPage(frame(state, state.translator.t('signIn.sentTitle')));
  }

  @Get('sign-in/limited')
  @ConsolePage()
  @HttpCode(429)
  limited(@Console() state: ConsoleState): string {
    return limitedPage(frame(state, state.translator.t('signIn.title')));
  }

  @Get('sign-in/confirm')
  @ConsolePage()
  confirm(@Console() state: ConsoleState, @Query('token') token: unknown): string {
    return confirmPage(frame(state, state.translator.t('signIn.title')), typeof token === 'string' ? token : '');
  }

  @Post('sign-in/confirm')
  @ConsoleAction()
  async spend(
    @Console() state: ConsoleState,
    @Form() form: ConsoleForm,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SeeOther> {
    const spent = await this.authentication.spend(form.field('token'), state.address);
    if (!spent.signedIn) return this.flow.seeOther(state, `/console/sign-in?notice=${spent.refusal}`);
    // A session that was open in this browser ends: the link's session replaces it.
    if (state.session) await this.authentication.signOut(cookieHeaders(req), state.address);
    forwardCookies(res, spent.setCookies);
    // A sign-in an app's authorization asked for goes back to it (docs/design-record.md#d30).
    return this.flow.seeOther(state, takeReturn(req, res) ?? '/console');
  }

  @Post('sign-out')
  @ConsoleAction()
  async signOut(@Console() state: ConsoleState, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<SeeOther> {
    forwardCookies(res, await this.authentication.signOut(cookieHeaders(req), state.address));
    return this.flow.seeOther({ ...state, session: null }, '/console/sign-in?notice=signed-out');
  }
}
