import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { ConsoleLinkLimits } from './console-link-limits.js';
import { ConsoleLinks, normalizeEmail } from './console-links.service.js';
import { ConsoleSignInAudit } from './console-sign-in-audit.service.js';

/** Sends a sign-in link by e-mail; the console's app gives it the project's mail transport. */
export interface SignInMailer {
  send(email: string, url: string): Promise<void>;
}
export const SIGN_IN_MAILER = Symbol('SignInMailer');

/** What the sign-in page says: the same `accepted` whether or not the e-mail may sign in. */
export type LinkRequestOutcome = 'accepted' | 'limited';

/**
 * A request for a sign-in link from the sign-in page (docs/design-record.md#d26). The answer does
 * not depend on the e-mail: `accepted` for a member's e-mail (a link is mailed) and for any other
 * (nothing is), and the mail is sent after the answer, so that its time does not tell either.
 */
@Injectable()
export class ConsoleLinkRequests {
  private readonly logger = new Logger('ConsoleSignIn');

  constructor(
    private readonly config: AppConfig,
    private readonly links: ConsoleLinks,
    private readonly limits: ConsoleLinkLimits,
    private readonly audit: ConsoleSignInAudit,
    @Inject(SIGN_IN_MAILER) private readonly mailer: SignInMailer,
  ) {}

  /**
   * The outcome at once; `sending` settles once a link was mailed, or found not to be due and the
   * refusal audited (tests wait for it). `address` is the client's.
   */
  async request(email: string, address: string, baseUrl: string): Promise<{ outcome: LinkRequestOutcome; sending: Promise<void> }> {
    // CONSOLE=off serves no console page (docs/design-record.md#d29): a caller here is a mounting mistake, not a request.
    if (!this.config.CONSOLE) throw new Error('The console is off (CONSOLE=off): no sign-in link is sent');
    const normalized = normalizeEmail(email).slice(0, 254);
    if (!(await this.limits.admit(address, normalized))) return { outcome: 'limited', sending: Promise.resolve() };
    return { outcome: 'accepted', sending: this.mailLink(normalized, address, baseUrl) };
  }

  private async mailLink(email: string, address: string, baseUrl: string): Promise<void> {
    try {
      const url = await this.links.linkIfAllowed(email, baseUrl);
      if (url !== null) await this.mailer.send(email, url);
      else await this.audit.refused('not-a-member', email, address);
    } catch (error) {
      this.logger.error(`A sign-in link could not be sent: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
