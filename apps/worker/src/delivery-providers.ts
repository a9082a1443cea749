import type { Provider } from '@nestjs/common';
import { EmailRelay } from './mail/email-relay.js';
import { EmailSender } from './mail/email-sender.js';
import { mailTransportProvider } from './mail/mail-transport.js';
import { MaintenanceTasks } from './maintenance-tasks.js';
import { DeliverySweep } from './relay/delivery-sweep.js';
import { NoticeListener } from './relay/notice-listener.js';
import { NoticeRelay } from './relay/notice-relay.js';

/**
 * What delivers notices and e-mails whoever runs it (the worker with BullMQ, or the API without
 * Redis): the outbox relays, the sweep, the mail sender and the housekeeping. Each mode adds the
 * NoticeHandOff and EmailHandOff the relays hand their work to.
 */
export const DELIVERY_PROVIDERS: Provider[] = [NoticeListener, NoticeRelay, DeliverySweep, mailTransportProvider, EmailSender, EmailRelay, MaintenanceTasks];
