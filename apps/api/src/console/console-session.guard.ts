import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '#config/app-config.js';
import { ConsoleAuthentication } from '#core/console-auth/console-authentication.js';
import { consoleIsSecure } from '#core/console-auth/console-origin.js';
import { clientAddress } from '../http/client-address.js';
import { consoleCsrf, type ConsoleCsrf } from './console-csrf.js';
import type { ConsoleRequest } from './console-request.js';
import { chooseLanguage, Translator } from './i18n/translator.js';

/** The request's cookies as Better Auth reads them. */
export function cookieHeaders(req: Request): Headers {
  const headers = new Headers();
  if (typeof req.headers.cookie === 'string') headers.set('cookie', req.headers.cookie);
  return headers;
}

export function forwardCookies(res: Response, setCookies: string[]): void {
  for (const cookie of setCookies) res.append('Set-Cookie', cookie);
}

/**
 * The first of the console's guards (docs/design-record.md#d29): finds the request's session
 * (Better Auth moves its idle deadline, and says so in a cookie), the language of the browser,
 * and the token the page's forms will carry. Whether a page needs a session is the next guards'.
 */
@Injectable()
export class ConsoleSessionGuard implements CanActivate {
  private readonly csrf: ConsoleCsrf;

  constructor(
    private readonly authentication: ConsoleAuthentication,
    config: AppConfig,
  ) {
    this.csrf = consoleCsrf(config.API_KEY_PEPPER, consoleIsSecure(config));
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<ConsoleRequest>();
    const res = http.getResponse<Response>();
    const { session, setCookies } = await this.authentication.session(cookieHeaders(req));
    forwardCookies(res, setCookies);
    req.console = {
      session,
      translator: new Translator(chooseLanguage(req.headers['accept-language'])),
      csrf: '',
      path: req.path,
      address: clientAddress(req),
    };
    // Every page written, a refusal's included, has the sign-out form.
    req.console.csrf = this.csrf.token(req, res);
    return true;
  }

  /** For ConsoleFormGuard: the same tokens, checked. */
  get forms(): ConsoleCsrf {
    return this.csrf;
  }
}
