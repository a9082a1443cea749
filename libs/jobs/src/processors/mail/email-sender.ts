import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { OutboundEmailsRepository } from '#core/mail/outbound-emails.repository.js';
import { MAIL_TRANSPORT, SANDBOX_MAIL_TRANSPORT, type MailTransport } from './mail-transport.js';
import { toMailMessage } from './mail-message.js';

export type SendOutcome = 'sent' | 'already-sent' | 'missing';

/**
 * Sends one queued e-mail and records the attempt: sent_at on success; the error on failure,
 * which is then thrown so that the e-mail processor runs the job again later (STYLE 9).
 */
@Injectable()
export class EmailSender implements OnApplicationShutdown {
  private readonly logger = new Logger(EmailSender.name);

  constructor(
    private readonly config: AppConfig,
    private readonly emails: OutboundEmailsRepository,
    @Inject(MAIL_TRANSPORT) private readonly transport: MailTransport,
    @Inject(SANDBOX_MAIL_TRANSPORT) private readonly sandboxTransport: MailTransport,
  ) {}

  async send(emailId: string): Promise<SendOutcome> {
    const email = await this.emails.findById(emailId);
    // Its business was deleted since (the row went with it): nothing to send.
    if (!email) return 'missing';
    // A job run again after the send succeeded but before the job completed.
    if (email.sentAt) return 'already-sent';
    try {
      // A sandbox's e-mails never reach anyone: they are kept as files (docs/design-record.md#d19).
      const transport = email.sandbox ? this.sandboxTransport : this.transport;
      await transport.send(toMailMessage(email, this.config.MAIL_FROM), email.id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.emails.recordFailure(email.id, message.slice(0, 1000));
      // The server's text may quote the recipient's address: it goes to the row, not to the log.
      const { code, responseCode } = error as { code?: string; responseCode?: number };
      this.logger.warn(`E-mail ${email.id} (${email.kind}) was not sent: ${code ?? 'error'} ${responseCode ?? ''}`.trim());
      throw error;
    }
    await this.emails.markSent(email.id, new Date());
    return 'sent';
  }

  /** Last: the sends under way finish first (the queues drain in beforeApplicationShutdown). */
  onApplicationShutdown(): void {
    this.transport.close();
    this.sandboxTransport.close();
  }
}
