import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { SMTPServer, type SMTPServerError } from 'smtp-server';
import { parseMime, type MimePart } from './mime-message.js';

export interface ReceivedMail {
  /** RCPT TO addresses of the envelope. */
  to: string[];
  message: MimePart;
}

/** A real SMTP server inside the test process: plain SMTP on 127.0.0.1, no TLS, no login. */
export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  private readonly refusals = new Map<string, number>();
  private readonly server: SMTPServer;
  private listeningPort = 0;

  private constructor() {
    this.server = new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        const recipient = address.address.toLowerCase();
        const left = this.refusals.get(recipient) ?? 0;
        if (left > 0) {
          this.refusals.set(recipient, left - 1);
          const error: SMTPServerError = new Error('Mailbox busy, try again later');
          error.responseCode = 451;
          callback(error);
          return;
        }
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          this.received.push({
            to: session.envelope.rcptTo.map((a) => a.address.toLowerCase()),
            message: parseMime(Buffer.concat(chunks).toString('utf8')),
          });
          callback();
        });
      },
    });
  }

  static async start(): Promise<TestSmtpServer> {
    const smtp = new TestSmtpServer();
    await new Promise<void>((resolve) => smtp.server.listen(0, '127.0.0.1', resolve));
    smtp.listeningPort = (smtp.server.server.address() as AddressInfo).port;
    return smtp;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.listeningPort}`;
  }

  /** Answers the next `times` deliveries to `address` with 451 (a temporary refusal). */
  refuse(address: string, times: number): void {
    this.refusals.set(address.toLowerCase(), times);
  }

  /** The first mail received (or still to come, within the timeout) that matches. */
  async waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs = 15_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error('No matching e-mail arrived in time.');
      await sleep(50);
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
