import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import type { SignInMailer } from '#core/console-auth/console-link-requests.service.js';
import { signInMail } from '#core/console-auth/sign-in-mail.js';
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
    await this.transport.send(signInMail({ from: this.config.MAIL_FROM, to: email, url, messageId: `<${id}@${domain}>` }), id);
  }
}
