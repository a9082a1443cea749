import { randomUUID } from 'node:crypto';
import type { FixtureAppointment, FixtureBusiness, FixturePayment, FixtureSale } from '#core/fixtures/fixture-file.js';
import { SCOPES } from '#core/scopes/scope.js';
import { ALL_WEEK } from '../../factories/booking-fixture.js';
import type { Tenant } from '../../utils/tenant-factory.js';
import { seed, seedNotice } from '../../utils/seed.js';

/** The first year of the slots the suites book into: always in the future, always the same shape. */
export const BOOKING_YEAR = new Date().getUTCFullYear() + 2;
/** Seeded active appointments live in a later year, so that generated bookings seldom hit them. */
export const SEEDED_YEAR = BOOKING_YEAR + 20;

export interface RobustSalonOptions {
  /** Active (CONFIRMED) future appointments to reschedule and cancel. */
  activeAppointments?: number;
  plan?: FixtureBusiness['plan'];
  /** Also a test key of every scope (ref `test`), which makes the sandbox (docs/design-record.md#d19). */
  testKey?: boolean;
}

export interface RobustSalon {
  tenant: Tenant;
  staff: { ana: string; rui: string; bea: string };
  services: { cut: string; color: string; retired: string };
  clients: string[];
  /** CONFIRMED, in the future: each can be rescheduled or cancelled once. */
  activeAppointments: string[];
  /** COMPLETED, CANCELLED, RESCHEDULED, NO_SHOW: every write on them is 409 APPOINTMENT_NOT_ACTIVE. */
  inactiveAppointments: string[];
  payments: string[];
  sales: string[];
  /** Webhook endpoints (to http://127.0.0.1:9, where nothing listens): `hook` to read and change, `doomed` to delete. */
  endpoints: { hook: string; spare: string; doomed: string };
  /** Notices in the event log (client.created). */
  events: string[];
  /** Names that only this business has, to look for in another business's answers. */
  secrets: string[];
  /** With `testKey`: the sandbox, its copies of the staff and services by ref, and the test key. */
  sandbox?: { id: string; staff: Record<string, string>; services: Record<string, string>; key: string };
}

/** An appointment of the seeded year: day n, at 09:00 + (n mod 8) hours UTC (inside 08:00–20:00 Lisbon). */
function seededStart(n: number): string {
  const date = new Date(Date.UTC(SEEDED_YEAR, 0, 1 + Math.floor(n / 8), 9 + (n % 8)));
  return date.toISOString();
}

/**
 * A business with everything an operation needs to succeed, seeded (on the database of
 * `settings`, the test database by default). Slugs, phones and e-mails are unique per call, so
 * several salons live side by side in one test database.
 */
export async function loadRobustSalon(options: RobustSalonOptions = {}, settings: Record<string, string> = {}): Promise<RobustSalon> {
  const slug = `robust-${randomUUID().slice(0, 8)}`;
  const tag = slug.slice(-8);
  const digits = () => String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0');
  // Payments and sales point at the first three.
  const activeCount = Math.max(3, options.activeAppointments ?? 40);
  const clientNames = [`João ${tag}`, `Maria ${tag}`, `Zoë ${tag}`];
  const appointments: FixtureAppointment[] = [];
  for (let n = 0; n < activeCount; n += 1) {
    appointments.push({
      ref: `active${n}`,
      staff: n % 2 === 0 ? 'ana' : 'rui',
      service: 'cut',
      client: `c${n % 3}`,
      startAt: seededStart(n),
    });
  }
  const inactive = ['COMPLETED', 'CANCELLED', 'RESCHEDULED', 'NO_SHOW'] as const;
  for (const [i, status] of inactive.entries()) {
    appointments.push({
      ref: `inactive${i}`,
      staff: 'ana',
      service: 'color',
      client: 'c0',
      startAt: `${SEEDED_YEAR - 1}-0${i + 1}-10T10:00:00Z`,
      status,
      ...(status === 'CANCELLED' ? { cancellationReason: `secret reason ${tag}` } : {}),
    });
  }
  const payments: FixturePayment[] = [0, 1, 2].map((n) => ({
    ref: `pay${n}`,
    appointment: `active${n}`,
    channel: 'IN_PERSON',
    method: 'CARD',
    status: 'PAID',
    amountCents: 2500,
    paidAt: '2026-01-01T10:00:00Z',
    instrumentData: { last4: '4242' },
  }));
  const sales: FixtureSale[] = [0, 1].map((n) => ({
    ref: `sale${n}`,
    client: 'c0',
    appointment: `active${n}`,
    status: 'COMPLETED',
    items: [{ type: 'SERVICE', name: `Corte ${tag}`, service: 'cut', quantity: 1, unitPriceCents: 2500, costCents: 900 }],
    internalNote: `secret note ${tag}`,
  }));
  const ownerEmail = `owner@${slug}.example`;
  const loaded = await seed(
    {
      slug,
      name: `Salão ${tag}`,
      timezone: 'Europe/Lisbon',
      country: 'PT',
      currency: 'EUR',
      locale: 'pt-PT',
      plan: options.plan ?? 'TEAM',
      notificationEmail: null,
      members: [{ ref: 'owner', name: 'Owner', email: ownerEmail, role: 'OWNER' }],
      services: [
        { ref: 'cut', name: `Corte ${tag}`, durationMin: 30, priceCents: 2500, category: 'Cabelo' },
        { ref: 'color', name: `Coloração ${tag}`, durationMin: 60, priceCents: 4000 },
        { ref: 'retired', name: `Permanente ${tag}`, durationMin: 90, priceCents: 6000, active: false },
      ],
      staff: [
        { ref: 'ana', name: `Ana ${tag}`, workingHours: ALL_WEEK },
        { ref: 'rui', name: `Rui ${tag}`, services: ['cut'], workingHours: ALL_WEEK },
        { ref: 'bea', name: `Bea ${tag}`, active: false, workingHours: ALL_WEEK },
      ],
      clients: clientNames.map((name, i) => ({
        ref: `c${i}`,
        name,
        phone: `+3519${[1, 2, 3][i]}${digits()}`,
        email: i === 2 ? null : `client${i}.${tag}@example.com`,
        consent: true,
        notes: `secret notes ${tag}`,
      })),
      appointments,
      payments,
      sales,
      keys: [
        { ref: 'all', member: 'owner', name: 'All scopes', scopes: SCOPES },
        ...(options.testKey ? [{ ref: 'test', member: 'owner', name: 'All scopes (test)', scopes: SCOPES, mode: 'test' as const }] : []),
      ],
      webhooks: ['hook', 'spare', 'doomed'].map((ref) => ({
        ref,
        url: `http://127.0.0.1:9/${ref}-${tag}`,
        events: ['client.created', 'appointment.created'] as const,
      })),
    },
    settings,
  );
  const business = { id: loaded.id, slug };
  const events = [(await seedNotice(business, 'client.created', settings)).id, (await seedNotice(business, 'client.created', settings)).id];
  return {
    tenant: { businessId: loaded.id, slug, ownerEmail, key: loaded.keys.all.key, prefix: loaded.keys.all.prefix },
    staff: { ana: loaded.staff.ana, rui: loaded.staff.rui, bea: loaded.staff.bea },
    services: { cut: loaded.services.cut, color: loaded.services.color, retired: loaded.services.retired },
    clients: [0, 1, 2].map((i) => loaded.clients[`c${i}`]),
    activeAppointments: Array.from({ length: activeCount }, (_, n) => loaded.appointments[`active${n}`]),
    inactiveAppointments: inactive.map((_, i) => loaded.appointments[`inactive${i}`]),
    payments: payments.map((p) => loaded.payments[p.ref]),
    sales: sales.map((s) => loaded.sales[s.ref]),
    endpoints: { hook: loaded.webhooks.hook.id, spare: loaded.webhooks.spare.id, doomed: loaded.webhooks.doomed.id },
    events,
    secrets: [...clientNames, `Ana ${tag}`, `Corte ${tag}`, `secret reason ${tag}`, `secret note ${tag}`, `secret notes ${tag}`],
    ...(loaded.sandbox ? { sandbox: { ...loaded.sandbox, key: loaded.keys.test.key } } : {}),
  };
}
