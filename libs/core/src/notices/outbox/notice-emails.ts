import type { AppointmentStatus } from '#database/entities/appointment.entity.js';
import type { NoticeEmails } from '#database/entities/notice.entity.js';
import type { OutboundEmailKind } from '#database/entities/outbound-email.entity.js';

/**
 * The e-mails an appointment change's notice names (docs/design-record.md#d10): its kind and the
 * status after it, and `notifyClient: false` only when the write asked that the client get no
 * e-mail (docs/design-record.md#d23), so rows of the default look as they did before 1.4.0.
 */
export function noticeEmails(kind: OutboundEmailKind, status: AppointmentStatus, notifyClient: boolean | undefined): NoticeEmails {
  return notifyClient === false ? { kind, status, notifyClient: false } : { kind, status };
}
