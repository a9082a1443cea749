import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { OutboundEmailsRepository, type UnsentEmail } from '#core/mail/outbound-emails.repository.js';
import { EMAIL_ATTEMPTS } from './email-retry.js';
import { JobQueues } from '../../job-queues.js';
import type { PollingLoop } from '../../polling-loop.js';
import { sweepLoop, sweepPages } from '../../sweep-pages.js';
import { sendEmailJob } from './email-relay.js';

/**
 * Hands the queue again every e-mail that was relayed, is not sent and has sends left, at start and
 * every NOTICE_SWEEP_EVERY_MS: adding a job whose id is queued, delayed or running is a no-op, so
 * only the e-mails whose job Redis lost (a restart without persistence) get one, as the notice
 * deliveries' sweep does for them (docs/design-record.md#d10).
 */
@Injectable()
export class EmailSweep implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EmailSweep.name);
  private readonly loop: PollingLoop;

  constructor(
    config: AppConfig,
    private readonly emails: OutboundEmailsRepository,
    private readonly queues: JobQueues,
  ) {
    this.loop = sweepLoop('E-mail sweep', config.NOTICE_SWEEP_EVERY_MS, () => this.sweepOnce(), this.logger);
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.loop.stop();
  }

  /** Hands over the unsent e-mails' jobs; returns how many it handed to the queue. */
  sweepOnce(): Promise<number> {
    return sweepPages(
      (after: UnsentEmail | null, limit) => this.emails.findUnsentRelayed(EMAIL_ATTEMPTS, after, limit),
      (unsent) => this.queues.emails.add(unsent.map(({ id }) => sendEmailJob(id))),
    );
  }
}
