import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '#core/errors/domain-error.js';
import { PROBLEM_TYPES } from '#http/problem.js';
import type { ConsoleContext } from './console-context.js';
import { html } from './html.js';
import { message, page } from './pages/layout.js';

const logger = new Logger('Console');

/**
 * The console's answer to what a route threw: a domain refusal is shown in words with the status
 * the API would answer (its detail and each field's message), a form without its token is refused
 * with 403, and anything else is a 500 page (the error is logged, not shown).
 */
export function consoleErrors(context: ConsoleContext) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    if (error === context.csrf.refusal) {
      const text = 'This form was not sent from its page in the console, or the page is too old. Reload the page and try again.';
      res.status(403).send(
        page(
          context.frame(req, res, 'Refused'),
          html`${message('error', text)}
            <p><a href="/console">Back to the console</a></p>`,
        ),
      );
      return;
    }
    if (error instanceof DomainError) {
      const details = error.fieldErrors.map((fieldError) => html`<li>${fieldError.message}</li>`);
      const body = html`${message(
          'error',
          html`${error.detail}${
            details.length > 0
              ? html`<ul>
                  ${details}
                </ul>`
              : ''
          }`,
        )}
        <p><a href="${req.originalUrl.split('?')[0]}">Back</a></p>`;
      res.status(PROBLEM_TYPES[error.code].status).send(page(context.frame(req, res, 'Not done'), body));
      return;
    }
    logger.error(`A console page failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    res
      .status(500)
      .send(
        page(context.frame(req, res, 'Something went wrong'), message('error', 'The console could not do that. Try again in a moment.')),
      );
  };
}
