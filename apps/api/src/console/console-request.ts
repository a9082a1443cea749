import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Membership } from '#core/businesses/businesses.repository.js';
import type { Translator } from './i18n/translator.js';

/** The signed-in e-mail identity of the request, as the session guard found it. */
export interface ConsoleSession {
  id: string;
  email: string;
}

/** The business a page is about, with what its pages need to speak its language and show its times. */
export type ConsoleMembership = Membership;

/** What the console's guards learn about a request, for its handler and its page. */
export interface ConsoleState {
  session: ConsoleSession | null;
  /** Set only once the signed-in e-mail was found OWNER or PARTNER of the path's business. */
  membership?: ConsoleMembership;
  translator: Translator;
  /** The form token for the page about to be written. */
  csrf: string;
  /** The request's path without its query: where a POST's flash is left and a GET's is read. */
  path: string;
  /** The client's address as the API resolves it (TRUSTED_PROXIES), for the audit. */
  address: string;
}

export type ConsoleRequest = Request & { console?: ConsoleState };

export function consoleStateOf(req: Request): ConsoleState {
  const state = (req as ConsoleRequest).console;
  if (!state) throw new Error('A console route ran without the console session guard');
  return state;
}

/** The request's console state (session, business, language): `@Console() state: ConsoleState`. */
export const Console = createParamDecorator((_data: unknown, context: ExecutionContext): ConsoleState =>
  consoleStateOf(context.switchToHttp().getRequest<Request>()),
);

/** A business page's membership (BusinessMemberGuard has checked it). */
export function membershipOf(state: ConsoleState): ConsoleMembership {
  if (!state.membership) throw new Error('no business was checked for this console page');
  return state.membership;
}

/** A signed-in page's session. */
export function sessionOf(state: ConsoleState): ConsoleSession {
  if (!state.session) throw new Error('no session was checked for this console page');
  return state.session;
}

/** The posted form's fields, read by ConsoleFormGuard: one string each ('' when absent or repeated). */
export class ConsoleForm {
  constructor(private readonly body: Record<string, unknown>) {}

  field(name: string): string {
    const value = this.body[name];
    return typeof value === 'string' ? value : '';
  }

  /** A field that may repeat (checkboxes), as a list. */
  fields(name: string): string[] {
    const value = this.body[name];
    if (typeof value === 'string') return [value];
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  }

  /** What was typed, to be shown again beside a refusal (never the form token). */
  values(names: readonly string[]): Record<string, string | string[]> {
    return Object.fromEntries(names.map((name) => [name, Array.isArray(this.body[name]) ? this.fields(name) : this.field(name)]));
  }
}

export const Form = createParamDecorator((_data: unknown, context: ExecutionContext): ConsoleForm => {
  const body = context.switchToHttp().getRequest<Request>().body as Record<string, unknown> | undefined;
  return new ConsoleForm(body ?? {});
});
