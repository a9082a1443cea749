import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ConsoleLinks } from '#core/console-auth/console-links.service.js';
import { ConsoleNothingHere, signInNeeded } from './console-exceptions.js';
import { consoleStateOf, type ConsoleRequest } from './console-request.js';
import { chooseLanguage, Translator } from './i18n/translator.js';

/**
 * A business's pages: only for a signed-in OWNER or PARTNER of that business, asked of the members
 * table on every request, so a member removed or made STAFF loses them at once. Anyone else is
 * told there is nothing here, whether the business exists or not. Once known, the business gives
 * the page its time zone, and its locale when the browser names no language the console has.
 */
@Injectable()
export class BusinessMemberGuard implements CanActivate {
  constructor(private readonly links: ConsoleLinks) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ConsoleRequest>();
    const state = consoleStateOf(req);
    if (!state.session) throw signInNeeded();
    const slug = typeof req.params.slug === 'string' ? req.params.slug : '';
    const membership = await this.links.membershipIn(state.session.email, slug);
    if (!membership) throw new ConsoleNothingHere();
    state.membership = membership;
    state.translator = new Translator(chooseLanguage(req.headers['accept-language'], membership.locale), membership.timezone);
    return true;
  }
}
