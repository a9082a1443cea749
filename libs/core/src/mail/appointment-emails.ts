import type { AppointmentEntity } from '#database/entities/appointment.entity.js';
import type { BusinessEntity } from '#database/entities/business.entity.js';
import type { ClientEntity } from '#database/entities/client.entity.js';
import type { CalendarEventData, CalendarMethod, EmailAudience, OutboundEmailKind } from '#database/entities/outbound-email.entity.js';
import { emailTextsFor, type EmailTextParams } from './email-texts.js';
import { localDateTime } from './local-date-time.js';

/** Where an appointment sits in its chain of reschedules. */
export interface RescheduleChain {
  /** The first appointment of the chain (itself when never rescheduled). */
  originId: string;
  /** How many reschedules led to this appointment. */
  depth: number;
}

/** Used when a business has no locale of its own. */
export const DEFAULT_EMAIL_LOCALE = 'en';

/** Everything an appointment e-mail tells, as it stands once the change is made. */
export interface AppointmentEmailFacts {
  kind: OutboundEmailKind;
  business: Pick<BusinessEntity, 'name' | 'timezone' | 'locale' | 'notificationEmail'>;
  appointment: Pick<AppointmentEntity, 'status' | 'startsAt' | 'endsAt' | 'serviceName'>;
  staffName: string;
  client: Pick<ClientEntity, 'name' | 'email'>;
  /** The start before a reschedule. */
  previousStartsAt?: Date;
  /** The appointment's place in its reschedule chain: the calendar event's identity and version. */
  chain: RescheduleChain;
  /** Organizer of the invitation when the business has no notification address. */
  mailFrom: string;
}

/** One message for one recipient, ready to be queued. */
export interface ComposedEmail {
  audience: EmailAudience;
  recipient: string;
  replyTo: string | null;
  senderName: string;
  subject: string;
  bodyText: string;
  calendarEvent: CalendarEventData;
  calendarMethod: CalendarMethod;
}

/**
 * The e-mails of one appointment change (docs/design-record.md#d10): to the client when it has an address and to the
 * business's notification address, each worded for its reader, in the business's language and
 * time zone, with the .ics invitation (REQUEST, or CANCEL for a cancellation).
 */
export function composeAppointmentEmails(facts: AppointmentEmailFacts): ComposedEmail[] {
  const { business, appointment, client } = facts;
  const locale = business.locale ?? DEFAULT_EMAIL_LOCALE;
  const texts = emailTextsFor(locale);
  const params: EmailTextParams = {
    business: business.name,
    service: appointment.serviceName,
    staff: facts.staffName,
    client: client.name,
    ...localDateTime(appointment.startsAt, business.timezone, locale),
    timezone: business.timezone,
    pending: appointment.status === 'PENDING',
    previous: facts.previousStartsAt && localDateTime(facts.previousStartsAt, business.timezone, locale),
  };
  const cancelled = facts.kind === 'APPOINTMENT_CANCELLED';
  const calendarMethod: CalendarMethod = cancelled ? 'CANCEL' : 'REQUEST';

  const compose = (audience: EmailAudience, recipient: string, replyTo: string | null): ComposedEmail => {
    const paragraphs = [
      ...(audience === 'CLIENT' ? [texts.greeting(client.name)] : []),
      texts.lead(facts.kind, audience, params),
      [texts.details(params), ...(params.previous ? [texts.previous(params.previous)] : [])].join('\n'),
      business.name,
    ];
    return {
      audience,
      recipient,
      replyTo,
      senderName: business.name,
      subject: texts.subject(facts.kind, audience, params),
      bodyText: `${paragraphs.join('\n\n')}\n`,
      calendarEvent: {
        method: calendarMethod,
        uid: `${facts.chain.originId}@business-scheduling-api`,
        // A cancel is one more version of the event the last booking or reschedule sent.
        sequence: facts.chain.depth + (cancelled ? 1 : 0),
        start: appointment.startsAt.toISOString(),
        end: appointment.endsAt.toISOString(),
        status: cancelled ? 'CANCELLED' : appointment.status === 'PENDING' ? 'TENTATIVE' : 'CONFIRMED',
        title: `${appointment.serviceName} · ${audience === 'CLIENT' ? business.name : client.name}`,
        description: texts.details(params),
        organizer: { name: business.name, email: business.notificationEmail ?? facts.mailFrom },
        attendee: { name: client.name, email: client.email },
      },
      calendarMethod,
    };
  };

  const emails: ComposedEmail[] = [];
  if (client.email) emails.push(compose('CLIENT', client.email, business.notificationEmail));
  if (business.notificationEmail) emails.push(compose('BUSINESS', business.notificationEmail, client.email));
  return emails;
}
