import type { SendMailOptions } from 'nodemailer';
import { AppConfig } from '#config/app-config.js';
import { FileMailTransport } from './file-mail-transport.js';
import { SmtpMailTransport } from './smtp-mail-transport.js';

/** Where e-mails go: an SMTP server, or files when none is configured (docs/design-record.md#d10). */
export interface MailTransport {
  /** Resolves once the message was accepted; rejects with why it was not. */
  send(message: SendMailOptions, id: string): Promise<void>;
  close(): void;
}

export const MAIL_TRANSPORT = Symbol('MailTransport');
/** Where a sandbox's e-mails go whatever SMTP_URL says: files in MAIL_DIR (docs/design-record.md#d19). */
export const SANDBOX_MAIL_TRANSPORT = Symbol('SandboxMailTransport');

export const mailTransportProvider = {
  provide: MAIL_TRANSPORT,
  inject: [AppConfig],
  useFactory: (config: AppConfig): MailTransport =>
    config.SMTP_URL ? new SmtpMailTransport(config.SMTP_URL) : new FileMailTransport(config.MAIL_DIR),
};

export const sandboxMailTransportProvider = {
  provide: SANDBOX_MAIL_TRANSPORT,
  inject: [AppConfig],
  useFactory: (config: AppConfig): MailTransport => new FileMailTransport(config.MAIL_DIR),
};
