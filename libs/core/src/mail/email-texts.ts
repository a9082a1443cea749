import type { EmailAudience, OutboundEmailKind } from '#database/entities/outbound-email.entity.js';

/** What an appointment e-mail says, already formatted for the business's locale and time zone. */
export interface EmailTextParams {
  business: string;
  service: string;
  staff: string;
  client: string;
  date: string;
  time: string;
  timezone: string;
  /** The appointment still waits for the business to confirm it. */
  pending: boolean;
  /** Where a rescheduled appointment was before. */
  previous?: { date: string; time: string };
}

export interface EmailTexts {
  subject(kind: OutboundEmailKind, audience: EmailAudience, p: EmailTextParams): string;
  /** The opening paragraph. */
  lead(kind: OutboundEmailKind, audience: EmailAudience, p: EmailTextParams): string;
  details(p: EmailTextParams): string;
  previous(previous: { date: string; time: string }): string;
  greeting(name: string): string;
}

const en: EmailTexts = {
  subject(kind, audience, p) {
    const when = `${p.date} at ${p.time}`;
    const who = audience === 'CLIENT' ? p.service : p.client;
    switch (kind) {
      case 'APPOINTMENT_BOOKED':
        return audience === 'CLIENT' ? `Appointment booked: ${who}, ${when}` : `New booking: ${who}, ${when}`;
      case 'APPOINTMENT_RESCHEDULED':
        return `Appointment moved: ${who}, ${when}`;
      case 'APPOINTMENT_CANCELLED':
        return `Appointment cancelled: ${who}, ${when}`;
    }
  },
  lead(kind, audience, p) {
    switch (kind) {
      case 'APPOINTMENT_BOOKED':
        return audience === 'CLIENT'
          ? `Your appointment at ${p.business} is booked.${p.pending ? ' The business will confirm it shortly.' : ''}`
          : `${p.client} booked ${p.service} with ${p.staff}.${p.pending ? ' It waits for your confirmation.' : ''}`;
      case 'APPOINTMENT_RESCHEDULED':
        return audience === 'CLIENT' ? `Your appointment at ${p.business} was moved.` : `The appointment of ${p.client} was moved.`;
      case 'APPOINTMENT_CANCELLED':
        return audience === 'CLIENT' ? `Your appointment at ${p.business} was cancelled.` : `The appointment of ${p.client} was cancelled.`;
    }
  },
  details: (p) => `${p.service} with ${p.staff}\n${p.date}, ${p.time} (${p.timezone})`,
  previous: (previous) => `Before: ${previous.date}, ${previous.time}`,
  greeting: (name) => `Hello ${name},`,
};

const pt: EmailTexts = {
  subject(kind, audience, p) {
    const when = `${p.date} às ${p.time}`;
    const who = audience === 'CLIENT' ? p.service : p.client;
    switch (kind) {
      case 'APPOINTMENT_BOOKED':
        return audience === 'CLIENT' ? `Marcação registada: ${who}, ${when}` : `Nova marcação: ${who}, ${when}`;
      case 'APPOINTMENT_RESCHEDULED':
        return `Marcação alterada: ${who}, ${when}`;
      case 'APPOINTMENT_CANCELLED':
        return `Marcação cancelada: ${who}, ${when}`;
    }
  },
  lead(kind, audience, p) {
    switch (kind) {
      case 'APPOINTMENT_BOOKED':
        return audience === 'CLIENT'
          ? `A sua marcação em ${p.business} está registada.${p.pending ? ' O estabelecimento irá confirmá-la em breve.' : ''}`
          : `${p.client} marcou ${p.service} com ${p.staff}.${p.pending ? ' A marcação aguarda a sua confirmação.' : ''}`;
      case 'APPOINTMENT_RESCHEDULED':
        return audience === 'CLIENT' ? `A sua marcação em ${p.business} foi alterada.` : `A marcação de ${p.client} foi alterada.`;
      case 'APPOINTMENT_CANCELLED':
        return audience === 'CLIENT' ? `A sua marcação em ${p.business} foi cancelada.` : `A marcação de ${p.client} foi cancelada.`;
    }
  },
  details: (p) => `${p.service} com ${p.staff}\n${p.date}, ${p.time} (${p.timezone})`,
  previous: (previous) => `Antes: ${previous.date}, ${previous.time}`,
  greeting: (name) => `Olá ${name},`,
};

const BY_LANGUAGE: Record<string, EmailTexts> = { en, pt };

/** The wording for a locale's language; English for a language without its own wording yet. */
export function emailTextsFor(locale: string): EmailTexts {
  return BY_LANGUAGE[new Intl.Locale(locale).language] ?? en;
}
