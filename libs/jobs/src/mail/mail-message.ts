import type { SendMailOptions } from 'nodemailer';
import { buildCalendarEvent } from '#core/mail/appointment-calendar.js';
import type { OutboundEmailEntity } from '#database/entities/outbound-email.entity.js';

/**
 * The message of a queued e-mail. The .ics goes both as a text/calendar alternative (so mail
 * programs offer to add, move or remove the event) and as an attachment. The Message-ID is the
 * row's, the same on every attempt, so a receiver can tell a resend from a new message.
 */
export function toMailMessage(email: OutboundEmailEntity, fromAddress: string): SendMailOptions {
  const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1);
  return {
    from: { name: email.senderName, address: fromAddress },
    to: email.recipient,
    replyTo: email.replyTo ?? undefined,
    subject: email.subject,
    text: email.bodyText,
    messageId: `<${email.id}@${domain}>`,
    icalEvent: {
      method: email.calendarMethod,
      filename: email.calendarMethod === 'CANCEL' ? 'cancel.ics' : 'invite.ics',
      content: email.calendar ?? buildCalendarEvent(email.calendarEvent!),
    },
  };
}
