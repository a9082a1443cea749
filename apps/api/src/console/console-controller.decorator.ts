import { applyDecorators, Controller, Header, Redirect, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { Public } from '../auth/route-access.decorators.js';
import { BusinessMemberGuard } from './business-member.guard.js';
import { ConsoleExceptionFilter } from './console-exception.filter.js';
import { ConsoleFormGuard } from './console-form.guard.js';
import { ConsoleRefusalInterceptor, RefusedTo } from './console-refusal.interceptor.js';
import { ConsoleSessionGuard } from './console-session.guard.js';
import { CONSOLE_PATH } from './console-paths.js';

/**
 * A controller of the console's pages (docs/design-record.md#d29): under /console, outside the API's
 * key and rate limit (its own session instead), its guards in order: the session, then for a
 * business's pages the member's right to it, then a POST's form and token; its errors are pages.
 */
export function ConsoleController(path: string | string[], opts: { business: boolean }): ClassDecorator {
  const guards = opts.business ? [ConsoleSessionGuard, BusinessMemberGuard, ConsoleFormGuard] : [ConsoleSessionGuard, ConsoleFormGuard];
  const paths = (Array.isArray(path) ? path : [path]).map((p) => (p === '' ? CONSOLE_PATH : `${CONSOLE_PATH}/${p}`));
  return applyDecorators(
    Controller(paths.length === 1 ? paths[0] : paths),
    Public(),
    UseGuards(...guards),
    UseFilters(ConsoleExceptionFilter),
  );
}

/** A page: HTML, written for this request. */
export const ConsolePage = (): MethodDecorator => applyDecorators(Header('Content-Type', 'text/html; charset=utf-8'));

/**
 * A form's action: it answers 303 to the page the handler names (ConsoleFlow.seeOther), or, refused
 * by a service, to the page `refusedTo` segments above it, which says why (ConsoleRefusalInterceptor).
 */
export const ConsoleAction = (refusedTo = 0): MethodDecorator =>
  applyDecorators(Redirect(undefined, 303), RefusedTo(refusedTo), UseInterceptors(ConsoleRefusalInterceptor));
