import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import type { MailTransport } from './mail-transport.js';

/** Sends through the SMTP server of SMTP_URL (smtp:// with STARTTLS when offered, or smtps://). */
export class SmtpMailTransport implements MailTransport {
  private readonly transporter: Transporter;

  constructor(url: string) {
    // A job never hangs on a silent server: it fails, and runs again later.
    this.transporter = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  }

  async send(message: SendMailOptions): Promise<void> {
    await this.transporter.sendMail(message);
  }

  close(): void {
    this.transporter.close();
  }
}
