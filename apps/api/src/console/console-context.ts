import type { INestApplicationContext } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppConfig } from '#config/app-config.js';
import { ConsoleAuthentication } from '#core/console-auth/console-authentication.js';
import { consoleIsSecure } from '#core/console-auth/console-origin.js';
import { ConsoleLinks } from '#core/console-auth/console-links.service.js';
import { ConsoleAuditService, type ConsoleAction } from '#core/console-audit/console-audit.service.js';
import { clientAddress } from '../http/client-address.js';
import { consoleCsrf, type ConsoleCsrf } from './console-csrf.js';
import { membershipOf, sessionOf } from './console-locals.js';
import type { ConsoleSection, PageFrame } from './pages/layout.js';

/** What every console route uses: the services from the API's container, the form tokens, and page helpers. */
export interface ConsoleContext {
  app: INestApplicationContext;
  config: AppConfig;
  authentication: ConsoleAuthentication;
  links: ConsoleLinks;
  csrf: ConsoleCsrf;
  frame(req: Request, res: Response, title: string, section?: ConsoleSection): PageFrame;
  /** Records a change in the audit, by the signed-in member, from the request's address. */
  audit(req: Request, res: Response, action: ConsoleAction, subject: string): Promise<void>;
}

export function consoleContext(app: INestApplicationContext): ConsoleContext {
  const config = app.get(AppConfig);
  const csrf = consoleCsrf(config.API_KEY_PEPPER, consoleIsSecure(config));
  const auditService = app.get(ConsoleAuditService);
  return {
    app,
    config,
    authentication: app.get(ConsoleAuthentication),
    links: app.get(ConsoleLinks),
    csrf,
    frame: (req, res, title, section) => ({
      title,
      csrf: csrf.token(req, res),
      session: sessionOf(res),
      membership: (res.locals as { membership?: PageFrame['membership'] }).membership,
      section,
    }),
    audit: (req, res, action, subject) =>
      auditService.record({
        businessId: membershipOf(res).businessId,
        actorEmail: sessionOf(res)!.email,
        action,
        subject,
        address: clientAddress(req),
      }),
  };
}

/** An async route: a rejection goes to the console's error handler. */
export function route(handler: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    handler(req, res).catch(next);
  };
}

/** A form field as one string ('' when absent or repeated). */
export function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** A form field that may repeat (checkboxes), as a list. */
export function fields(req: Request, name: string): string[] {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** After a POST, the page to show next (303: the browser GETs it, and a reload does not repeat the POST). */
export function seeOther(res: Response, location: string): void {
  res.redirect(303, location);
}

export function param(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
}
