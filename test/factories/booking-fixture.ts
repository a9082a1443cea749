import { randomUUID } from 'node:crypto';
import type { FixtureAppointment } from '#core/fixtures/fixture-file.js';
import type { Scope } from '#core/scopes/scope.js';
import { seed } from '../utils/seed.js';

/** Every day, 08:00–20:00 local: a staff member who can take any test slot of the day. */
export const ALL_WEEK = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '08:00', end: '20:00' }));

const WRITE_SCOPES: Scope[] = ['appointments.read', 'appointments.write', 'clients.read'];

export interface BookingFixtureOptions {
  autoConfirm?: boolean;
  timezone?: string;
  locale?: string | null;
  notificationEmail?: string | null;
  /** Keys with the write scopes; spread calls over them to stay under 120 requests a minute each. */
  keys?: number;
  appointments?: FixtureAppointment[];
}

export interface BookingFixture {
  businessId: string;
  slug: string;
  /** ana performs every service; rui only cut; bea takes no bookings (inactive). */
  staff: { ana: string; rui: string; bea: string };
  /** cut 30 min, color 60 min, retired (inactive). */
  services: { cut: string; color: string; retired: string };
  /** joao has an e-mail; maria has none. */
  clients: { joao: string; maria: string };
  clientEmail: string;
  appointments: Record<string, string>;
  /** Keys with the appointment write scopes. */
  keys: string[];
  /** A key with appointments.read only. */
  readOnlyKey: string;
}

/** A business to book in, seeded. Slugs, phones and e-mails are unique per call. */
export async function loadBookingFixture(options: BookingFixtureOptions = {}): Promise<BookingFixture> {
  const slug = `book-${randomUUID().slice(0, 8)}`;
  const digits = String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0');
  const clientEmail = `joao.${slug}@example.com`;
  const keyCount = options.keys ?? 4;
  const loaded = await seed({
    slug,
    name: 'Salão Lisboa',
    timezone: options.timezone ?? 'Europe/Lisbon',
    country: 'PT',
    currency: 'EUR',
    locale: options.locale === undefined ? 'pt-PT' : options.locale,
    plan: 'TEAM',
    autoConfirm: options.autoConfirm ?? true,
    notificationEmail: options.notificationEmail === undefined ? `desk@${slug}.example` : options.notificationEmail,
    members: [{ ref: 'owner', name: 'Ana Costa', email: `owner@${slug}.example`, role: 'OWNER' }],
    services: [
      { ref: 'cut', name: 'Corte', durationMin: 30, priceCents: 2500, category: 'Cabelo' },
      { ref: 'color', name: 'Coloração', durationMin: 60, priceCents: 4000 },
      { ref: 'retired', name: 'Permanente', durationMin: 90, priceCents: 6000, active: false },
    ],
    staff: [
      {
        ref: 'ana',
        name: 'Ana Costa',
        workingHours: ALL_WEEK,
        blocks: [{ startAt: '2035-01-08T15:00:00Z', endAt: '2035-01-08T16:00:00Z' }],
      },
      { ref: 'rui', name: 'Rui Alves', services: ['cut'], workingHours: ALL_WEEK },
      { ref: 'bea', name: 'Bea Lima', active: false, workingHours: ALL_WEEK },
    ],
    clients: [
      { ref: 'joao', name: 'João Silva', phone: `+35191${digits}`, email: clientEmail },
      { ref: 'maria', name: 'Maria Sousa', phone: `+35192${digits}`, email: null },
    ],
    appointments: options.appointments ?? [],
    keys: [
      ...Array.from({ length: keyCount }, (_, i) => ({ ref: `k${i}`, member: 'owner', name: `Key ${i}`, scopes: WRITE_SCOPES })),
      { ref: 'readonly', member: 'owner', name: 'Read only', scopes: ['appointments.read'] },
    ],
  });
  return {
    businessId: loaded.id,
    slug,
    staff: { ana: loaded.staff.ana, rui: loaded.staff.rui, bea: loaded.staff.bea },
    services: { cut: loaded.services.cut, color: loaded.services.color, retired: loaded.services.retired },
    clients: { joao: loaded.clients.joao, maria: loaded.clients.maria },
    clientEmail,
    appointments: loaded.appointments,
    keys: Array.from({ length: keyCount }, (_, i) => loaded.keys[`k${i}`].key),
    readOnlyKey: loaded.keys.readonly.key,
  };
}

/** Hands out keys in turn, so a test's calls are spread over them (rate limit: 120/min per key). */
export class KeyRing {
  private turn = 0;

  constructor(private readonly keys: readonly string[]) {}

  next(): string {
    const key = this.keys[this.turn % this.keys.length];
    this.turn += 1;
    return key;
  }
}
