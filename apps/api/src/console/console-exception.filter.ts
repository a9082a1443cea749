import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { DomainError } from '#core/errors/domain-error.js';
import { PROBLEM_TYPES } from '#http/problem.js';
import { ConsoleFormRefused, ConsoleNothingHere, ConsoleRedirect } from './console-exceptions.js';
import type { ConsoleRequest } from './console-request.js';
import { errorMessage } from './console-forms.js';
import { html } from './html.js';
import { chooseLanguage, Translator } from './i18n/translator.js';
import { message, page, type PageFrame } from './pages/layout.js';

const logger = new Logger('Console');

/**
 * The console's one error mapping (docs/design-record.md#d29): what a guard or a handler threw
 * becomes a page in the member's language, never a problem document and never a stack. A form's
 * own refusals never reach here: its handler shows them on the form (console-forms.ts).
 */
@Catch()
export class ConsoleExceptionFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<ConsoleRequest>();
    const res = http.getResponse<Response>();
    if (res.headersSent) return;
    if (error instanceof ConsoleRedirect) {
      res.redirect(303, error.location);
      return;
    }
    const state = req.console;
    const t = state?.translator ?? new Translator(chooseLanguage(req.headers['accept-language']));
    const frame = (title: string): PageFrame => ({
      t,
      title,
      csrf: state?.csrf ?? '',
      session: state?.session ?? null,
      membership: state?.membership,
    });
    const back = html`<p><a href="/console">${t.t('error.backToConsole')}</a></p>`;
    const send = (status: number, title: string, text: string) =>
      res
        .status(status)
        .type('html')
        .send(page(frame(title), html`${message('error', text)}${back}`));
    if (error instanceof ConsoleNothingHere) return void send(404, t.t('error.nothingHereTitle'), t.t('error.nothingHere'));
    if (error instanceof ConsoleFormRefused) return void send(403, t.t('error.refusedTitle'), t.t('error.formToken'));
    if (error instanceof DomainError) return void send(PROBLEM_TYPES[error.code].status, t.t('error.notDoneTitle'), errorMessage(t, error));
    if (error instanceof HttpException && error.getStatus() < 500)
      return void send(error.getStatus(), t.t('error.nothingHereTitle'), t.t('error.nothingHere'));
    logger.error(`A console page failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    send(500, t.t('error.failedTitle'), t.t('error.failed'));
  }
}
