import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import type { SignInMailer } from '#core/console-auth/console-link-requests.service.js';
import { SIGN_IN_LINK_TTL_SECONDS } from '#core/console-auth/console-auth.js';
import { MAIL_TRANSPORT, type MailTransport } from '#jobs/processors/mail/mail-transport.js';

/**
 * Sends a sign-in link through the project's mail transport (SMTP_URL, else files in MAIL_DIR), at
 * once: the link is short-lived, and nothing is left to redo if the send fails (the member asks again).
 */
@Injectable()
export class TransportSignInMailer implements SignInMailer {
  constructor(
    private readonly config: AppConfig,
    @Inject(MAIL_TRANSPORT) private readonly transport: MailTransport,
  ) {}

  async send(email: string, url: string): Promise<void> {
    const id = randomUUID();
    const domain = this.config.MAIL_FROM.slice(this.config.MAIL_FROM.lastIndexOf('@') + 1);
    await this.transport.send(
      {
        from: { name: 'Scheduling console', address: this.config.MAIL_FROM },
        to: email,
        subject: 'Your sign-in link to the scheduling console',
        text: [
          'Open this link to sign in to the console of your business:',
          '',
          url,
          '',
          `It works once, within ${SIGN_IN_LINK_TTL_SECONDS / 60} minutes. If you did not ask for it, ignore this e-mail.`,
        ].join('\n'),
        messageId: `<${id}@${domain}>`,
      },
      id,
    );
  }
}
