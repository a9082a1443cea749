import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '#core/clock/clock.js';
import { ConsoleSignInsRepository } from '#core/console-auth/console-sign-ins.repository.js';
import { OAuthGrantsRepository } from '#core/oauth/oauth-grants.repository.js';
import { IdempotencyRepository } from '#core/idempotency/idempotency.repository.js';
import { OutboundEmailsRepository } from '#core/mail/outbound-emails.repository.js';
import { NOTICE_RETENTION_DAYS, NOTICE_RETENTION_MS } from '#core/notices/outbox/notice-channel.js';
import { NoticesRepository } from '#core/notices/outbox/notices.repository.js';
import { MaintenanceJob, type MaintenanceJobName } from '../../queues.js';

/** The housekeeping itself, run by the maintenance queue's processor. */
@Injectable()
export class MaintenanceTasks {
  private readonly logger = new Logger(MaintenanceTasks.name);

  constructor(
    private readonly idempotency: IdempotencyRepository,
    private readonly notices: NoticesRepository,
    private readonly emails: OutboundEmailsRepository,
    private readonly consoleSignIns: ConsoleSignInsRepository,
    private readonly grants: OAuthGrantsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async run(name: MaintenanceJobName): Promise<{ purged: number }> {
    switch (name) {
      case MaintenanceJob.PurgeIdempotencyRecords: {
        const purged = await this.idempotency.purgeExpired(this.clock.now());
        if (purged > 0) this.logger.log(`Purged ${purged} expired idempotency records`);
        return { purged };
      }
      case MaintenanceJob.PurgeNotices: {
        const purged = await this.notices.purgeCreatedBefore(this.retentionCutoff());
        if (purged > 0) this.logger.log(`Purged ${purged} change notices older than ${NOTICE_RETENTION_DAYS} days`);
        return { purged };
      }
      case MaintenanceJob.PurgeEmails: {
        const purged = await this.emails.purgeCreatedBefore(this.retentionCutoff());
        if (purged > 0) this.logger.log(`Purged ${purged} e-mails older than ${NOTICE_RETENTION_DAYS} days`);
        return { purged };
      }
      case MaintenanceJob.PurgeConsoleSignIns: {
        const purged = await this.consoleSignIns.purgeEnded(this.clock.now());
        if (purged > 0) this.logger.log(`Purged ${purged} ended console sessions and sign-in links`);
        return { purged };
      }
      case MaintenanceJob.EndUnusableGrants: {
        const purged = await this.grants.endUnusable(this.clock.now());
        if (purged > 0) this.logger.log(`Ended ${purged} OAuth grants whose tokens can no longer be used`);
        return { purged };
      }
    }
  }

  private retentionCutoff(): Date {
    return new Date(this.clock.now().getTime() - NOTICE_RETENTION_MS);
  }
}
