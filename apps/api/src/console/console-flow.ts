import { Injectable } from '@nestjs/common';
import type { DomainError } from '#core/errors/domain-error.js';
import { ConsoleAuditService, type ConsoleAction } from '#core/console-audit/console-audit.service.js';
import { ConsoleFlashService } from '#core/console-flash/console-flash.service.js';
import { shownForm, type FormState, type KeptForm, type Refusal } from './console-forms.js';
import { membershipOf, sessionOf, type ConsoleForm, type ConsoleState } from './console-request.js';
import type { MessageKey } from './i18n/messages.en.js';
import type { MessageParams, Translator } from './i18n/translator.js';

/** What a POST leaves for the page it redirects to, shown there once. */
export type Flash =
  | { kind: 'notice'; key: MessageKey; params?: MessageParams }
  /** A service's refusal of an action, in the member's words (ConsoleRefusalInterceptor). */
  | { kind: 'error'; code: DomainError['code']; detail: string }
  | { kind: 'form'; kept: KeptForm }
  /** A value shown once: a new key, an endpoint's secret. */
  | { kind: 'secret'; label: MessageKey; value: string; key: MessageKey; params?: MessageParams }
  | { kind: 'ping'; delivered: boolean; statusCode: number | null; error: string | null };

/** A handler's 303 (with `@Redirect()` on the route): the browser GETs `url`, and a reload repeats the GET. */
export interface SeeOther {
  url: string;
  statusCode: 303;
}

const pathOf = (url: string): string => url.split(/[?#]/)[0];

/**
 * Post/Redirect/Get for every console form (docs/design-record.md#d29): a POST does its work,
 * leaves its result as a one-time flash of the session for the page it names, and answers 303;
 * Reload and Back then repeat only the GET, and a secret is on that one page view only.
 */
@Injectable()
export class ConsoleFlow {
  constructor(
    private readonly flashes: ConsoleFlashService,
    private readonly audit: ConsoleAuditService,
  ) {}

  async seeOther(state: ConsoleState, url: string, ...flashes: Flash[]): Promise<SeeOther> {
    if (state.session) for (const flash of flashes) await this.flashes.put(state.session.id, pathOf(url), flash);
    return { url, statusCode: 303 };
  }

  /** A refused form: back to its page, with what was typed and why it was refused. */
  refused(
    state: ConsoleState,
    url: string,
    form: string,
    posted: ConsoleForm,
    fields: readonly string[],
    refusal: Refusal,
  ): Promise<SeeOther> {
    const { fieldErrors, problem, loose } = refusal;
    return this.seeOther(state, `${url}#${form}`, {
      kind: 'form',
      kept: { form, values: posted.values(fields), fieldErrors, problem, loose },
    });
  }

  /** What was left for this page; each flash is given once. */
  async taken(state: ConsoleState): Promise<Flash[]> {
    if (!state.session) return [];
    return (await this.flashes.take(state.session.id, state.path)) as Flash[];
  }

  /** Writes a change to the business's audit, by the signed-in member, from the request's address. */
  async audited(state: ConsoleState, action: ConsoleAction, subject: string): Promise<void> {
    await this.audit.record({
      businessId: membershipOf(state).businessId,
      actorEmail: sessionOf(state).email,
      action,
      subject,
      address: state.address,
    });
  }
}

/** The refused form a page shows again, in that page's language. */
export function formStateIn(flashes: Flash[], t: Translator): FormState | undefined {
  const kept = flashes.find((flash): flash is Extract<Flash, { kind: 'form' }> => flash.kind === 'form')?.kept;
  return kept && shownForm(t, kept);
}
