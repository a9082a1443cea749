import type { SendMailOptions } from 'nodemailer';
import { buildCalendarEvent } from '#core/mail/appointment-calendar.js';
import { multiLine, singleLine } from '#core/text/control-characters.js';
import type { OutboundEmailEntity } from '#database/entities/outbound-email.entity.js';

/**
 * The message of a queued e-mail. The .ics goes both as a text/calendar alternative (so mail
 * programs offer to add, move or remove the event) and as an attachment. The Message-ID is the
 * row's, the same on every attempt, so a receiver can tell a resend from a new message.
 */
export function toMailMessage(email: OutboundEmailEntity, fromAddress: string): SendMailOptions {
  const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1);
  return {
    from: { name: singleLine(email.senderName), address: fromAddress },
    to: email.recipient,
    replyTo: email.replyTo ?? undefined,
    subject: singleLine(email.subject),
    text: multiLine(email.bodyText),
    messageId: `<${email.id}@${domain}>`,
    icalEvent: {
      method: email.calendarMethod,
      filename: email.calendarMethod === 'CANCEL' ? 'cancel.ics' : 'invite.ics',
      content: email.calendar !== null ? withoutStrayLineBreaks(email.calendar) : buildCalendarEvent(email.calendarEvent!),
    },
  };
}

/**
 * An invitation rendered by an older version and stored with its row: its lines end with CRLF, so a
 * CR or LF standing alone can only come from a name that carried it; it becomes a space.
 */
function withoutStrayLineBreaks(calendar: string): string {
  return calendar.replace(/\r(?!\n)|(?<!\r)\n/g, ' ');
}
