import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import type { StreamSentMessageInfo } from 'nodemailer';
import type { MailTransport } from './mail-transport.js';

/** Without an SMTP server, each message is written as <MAIL_DIR>/<e-mail id>.eml, exactly as it would be sent. */
export class FileMailTransport implements MailTransport {
  private readonly transporter: Transporter<StreamSentMessageInfo>;

  constructor(private readonly folder: string) {
    this.transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(message: SendMailOptions, id: string): Promise<void> {
    const info = await this.transporter.sendMail(message);
    await mkdir(this.folder, { recursive: true });
    await writeFile(join(this.folder, `${id}.eml`), info.message);
  }

  close(): void {
    this.transporter.close();
  }
}
